import { createHash, timingSafeEqual } from 'node:crypto';
import { NotFound, Conflict, NotReady, Unauthenticated, Forbidden } from '@rhizome/contracts/errors';
import { SerialQueue } from '@rhizome/contracts/serial';
import { generateApiKey, generateKeyId, hashApiKey, keyLookup } from './api-keys.ts';
import type { Credentials } from './credentials.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  clearedCookieHeader,
  createSessionValue,
  findCookie,
  sessionCookieHeader,
  type CookieOptions,
} from './session-cookie.ts';
import type { Identity, Verifier } from './verifier.ts';

export interface AccountResult<T> {
  body: T;
  setCookie?: string;
}

export interface ApiKeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * The single operator account (docs/api-conventions.md#authentication). Every change of the
 * credentials file goes through `serially`, so two requests never interleave a read-modify-write.
 */
export class AccountService {
  private readonly queue = new SerialQueue();

  constructor(
    private readonly verifier: Verifier,
    private readonly cookieOptions: () => CookieOptions,
  ) {}

  isSetUp(): boolean {
    return this.verifier.credentials.read() !== undefined;
  }

  status(cookieHeader: string | undefined): { setup_needed: boolean; authenticated: boolean; username: string | null } {
    const credentials = this.verifier.credentials.read();
    if (!credentials) return { setup_needed: true, authenticated: false, username: null };
    const identity = this.cookieIdentity(cookieHeader);
    return { setup_needed: false, authenticated: identity !== null, username: identity?.username ?? null };
  }

  setup(username: string, password: string): Promise<AccountResult<{ username: string }>> {
    return this.serially(async () => {
      if (this.isSetUp()) throw new Conflict('The account is already set up');
      const credentials: Credentials = {
        version: 1,
        account: { username, password_hash: await hashPassword(password), created_at: new Date().toISOString() },
        session_epoch: 0,
        api_keys: [],
      };
      await this.verifier.credentials.create(credentials);
      return { body: { username }, setCookie: this.issueCookie(username, 0) };
    });
  }

  async login(username: string, password: string): Promise<AccountResult<{ username: string }>> {
    const credentials = this.verifier.credentials.read();
    if (!credentials) throw new NotReady('Setup has not been run');
    const nameMatches = equalSecret(username, credentials.account.username);
    const passwordMatches = await verifyPassword(nameMatches ? credentials.account.password_hash : undefined, password);
    if (!nameMatches || !passwordMatches) throw new Unauthenticated('Invalid username or password');
    return { body: { username }, setCookie: this.issueCookie(credentials.account.username, credentials.session_epoch) };
  }

  logout(): Promise<AccountResult<null>> {
    return this.serially(async () => {
      await this.bumpEpoch();
      return { body: null, setCookie: clearedCookieHeader(this.cookieOptions()) };
    });
  }

  changePassword(oldPassword: string, newPassword: string): Promise<AccountResult<null>> {
    return this.serially(async () => {
      const current = this.requireCredentials();
      if (!(await verifyPassword(current.account.password_hash, oldPassword))) {
        throw new Forbidden('Current password does not match');
      }
      const hash = await hashPassword(newPassword);
      await this.verifier.credentials.update((c) => ({
        ...c,
        account: { ...c.account, password_hash: hash },
        session_epoch: c.session_epoch + 1,
      }));
      return { body: null, setCookie: clearedCookieHeader(this.cookieOptions()) };
    });
  }

  changeUsername(password: string, newUsername: string): Promise<AccountResult<{ username: string }>> {
    return this.serially(async () => {
      const current = this.requireCredentials();
      if (!(await verifyPassword(current.account.password_hash, password))) {
        throw new Forbidden('Password confirmation failed');
      }
      const next = await this.verifier.credentials.update((c) => ({
        ...c,
        account: { ...c.account, username: newUsername },
        session_epoch: c.session_epoch + 1,
      }));
      return { body: { username: newUsername }, setCookie: this.issueCookie(newUsername, next.session_epoch) };
    });
  }

  createKey(name: string): Promise<{ id: string; name: string; key: string; created_at: string }> {
    return this.serially(async () => {
      this.requireCredentials();
      const key = generateApiKey();
      const record = {
        id: generateKeyId(),
        name,
        hash: await hashApiKey(key),
        lookup: keyLookup(key),
        created_at: new Date().toISOString(),
      };
      await this.verifier.credentials.update((c) => ({ ...c, api_keys: [...c.api_keys, record] }));
      return { id: record.id, name, key, created_at: record.created_at };
    });
  }

  listKeys(): ApiKeyView[] {
    const credentials = this.requireCredentials();
    return credentials.api_keys.map((key) => ({
      id: key.id,
      name: key.name,
      created_at: key.created_at,
      last_used_at: this.verifier.usage.lastUsed(key.id),
    }));
  }

  revokeKey(keyId: string): Promise<void> {
    return this.serially(async () => {
      const credentials = this.requireCredentials();
      if (!credentials.api_keys.some((key) => key.id === keyId)) throw NotFound.resource('api_key', keyId);
      await this.verifier.credentials.update((c) => ({
        ...c,
        api_keys: c.api_keys.filter((key) => key.id !== keyId),
      }));
      this.verifier.usage.forget(keyId);
    });
  }

  private cookieIdentity(cookieHeader: string | undefined): Identity | null {
    const value = findCookie(cookieHeader, this.cookieOptions().name);
    return value ? this.verifier.verifyCookie(value) : null;
  }

  private issueCookie(username: string, epoch: number): string {
    const options = this.cookieOptions();
    const value = createSessionValue(
      { username, epoch, expiresAt: Math.floor(Date.now() / 1000) + options.ttlSeconds },
      this.verifier.secret,
    );
    return sessionCookieHeader(value, options);
  }

  private async bumpEpoch(): Promise<void> {
    await this.verifier.credentials.update((c) => ({ ...c, session_epoch: c.session_epoch + 1 }));
  }

  private requireCredentials(): Credentials {
    const credentials = this.verifier.credentials.read();
    if (!credentials) throw new NotReady('Setup has not been run');
    return credentials;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.run(work);
  }
}

function equalSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}
