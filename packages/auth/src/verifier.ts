import path from 'node:path';
import { compareApiKey, hasApiKeyShape, keyLookup, sha256Hex } from './api-keys.ts';
import { CredentialsFile, type Credentials, type CredentialsStore } from './credentials.ts';
import { KeyUsageFile, type KeyUsageStore } from './key-usage.ts';
import { SecretName, readOrCreateSecret } from './secrets.ts';
import { findCookie, readSessionValue, type SessionClaims } from './session-cookie.ts';

const cookieCacheSize = 1024;

export interface Identity {
  username: string;
  method: 'cookie' | 'api_key' | 'proxy';
  keyId?: string;
}

export interface PresentedCredentials {
  cookie?: string | undefined;
  authorization?: string | undefined;
}

export interface AuthFiles {
  credentialsFile: string;
  secretsDir: string;
}

/** Credentials kept elsewhere than the data directory's files (a server's `rhizome_system`: `ServerAuthStore`). */
export interface AuthStores {
  credentials: CredentialsStore;
  usage: KeyUsageStore;
  sessionSecret: string;
}

/**
 * How often the credentials' change counter is consulted. `every-call` suits a process that also
 * changes the credentials; `once-per-turn` is for a reader that never writes them (auth-verify): every
 * request handled in one event-loop turn was received before that turn's I/O poll returned, so a change
 * completed before any of them was sent is already visible to a check made while handling the first.
 */
export type CredentialsCheck = 'every-call' | 'once-per-turn';

export function keyUsageFileFor(credentialsFile: string): string {
  return path.join(path.dirname(credentialsFile), 'api_key_usage.json');
}

/**
 * Answers "who is this request?" from a session cookie or a bearer API key. Shared by auth-verify,
 * cortex-api (direct access) and the embedded default. Consults the credentials' change counter before
 * trusting its cache (see CredentialsCheck), so a logout or revocation in any process is seen by every
 * other on its very next request.
 */
export class Verifier {
  readonly credentials: CredentialsStore;
  readonly usage: KeyUsageStore;
  private readonly sessionSecret: string;
  /** SHA-256 of a presented key → the stored key it matched; bcrypt runs only on a miss. */
  private readonly verifiedKeys = new Map<string, { keyId: string; hash: string }>();
  /**
   * SHA-256 of a presented key → its bcrypt check under way. Many clients starting at once with one key
   * share a single check instead of each occupying a libuv thread, which the database driver needs too.
   */
  private readonly keysBeingVerified = new Map<string, Promise<Identity | null>>();
  /** Authentic cookie values → their claims, so a repeat request skips the HMAC; epoch and expiry are still checked. */
  private readonly verifiedCookies = new Map<string, SessionClaims>();

  private readonly currentCredentials: () => Credentials | undefined;

  constructor(
    source: AuthFiles | AuthStores,
    private readonly cookieName: () => string,
    check: CredentialsCheck = 'every-call',
  ) {
    if ('credentials' in source) {
      this.credentials = source.credentials;
      this.usage = source.usage;
      this.sessionSecret = source.sessionSecret;
    } else {
      this.credentials = new CredentialsFile(source.credentialsFile);
      this.usage = new KeyUsageFile(keyUsageFileFor(source.credentialsFile));
      this.sessionSecret = readOrCreateSecret(source.secretsDir, SecretName.session);
    }
    const read = () => this.credentials.read();
    this.currentCredentials = check === 'once-per-turn' ? oncePerTurn(read) : read;
  }

  get secret(): string {
    return this.sessionSecret;
  }

  /**
   * Synchronous for cookies and already-verified keys (the hot path of auth-verify); a promise only
   * when an unseen key needs bcrypt.
   */
  verify(presented: PresentedCredentials): Identity | null | Promise<Identity | null> {
    return this.verifyHeaders(presented.cookie, presented.authorization);
  }

  /** verify() for callers holding the two header values, without wrapping them in an object. */
  verifyHeaders(
    cookieHeader: string | undefined,
    authorization: string | undefined,
  ): Identity | null | Promise<Identity | null> {
    const credentials = this.currentCredentials();
    if (!credentials) return null;
    const cookie = findCookie(cookieHeader, this.cookieName());
    if (cookie) {
      const identity = this.verifyCookie(cookie, credentials);
      if (identity) return identity;
    }
    const bearer = bearerToken(authorization);
    return bearer ? this.verifyApiKey(bearer, credentials) : null;
  }

  verifyCookie(value: string, credentials = this.currentCredentials()): Identity | null {
    if (!credentials) return null;
    const claims = this.authenticCookie(value);
    if (!claims || claims.epoch !== credentials.session_epoch || claims.username !== credentials.account.username) {
      return null;
    }
    return { username: claims.username, method: 'cookie' };
  }

  private authenticCookie(value: string): SessionClaims | null {
    const cached = this.verifiedCookies.get(value);
    if (cached && cached.expiresAt > Date.now() / 1000) return cached;
    const claims = readSessionValue(value, this.sessionSecret);
    if (!claims) return null;
    if (this.verifiedCookies.size >= cookieCacheSize) this.verifiedCookies.clear();
    this.verifiedCookies.set(value, claims);
    return claims;
  }

  private verifyApiKey(presented: string, credentials: Credentials): Identity | null | Promise<Identity | null> {
    if (!hasApiKeyShape(presented)) return null;
    const fingerprint = sha256Hex(presented);
    const cached = this.verifiedKeys.get(fingerprint);
    if (cached) {
      if (isStored(credentials, cached)) return this.acceptKey(cached.keyId, credentials);
      this.verifiedKeys.delete(fingerprint);
      return null;
    }
    const underWay = this.keysBeingVerified.get(fingerprint);
    if (underWay) return underWay;
    const verifying = this.verifyUnseenKey(presented, fingerprint, credentials).finally(() =>
      this.keysBeingVerified.delete(fingerprint),
    );
    this.keysBeingVerified.set(fingerprint, verifying);
    return verifying;
  }

  private async verifyUnseenKey(
    presented: string,
    fingerprint: string,
    credentials: Credentials,
  ): Promise<Identity | null> {
    const lookup = keyLookup(presented);
    const identity = await this.matchKey(presented, fingerprint, lookup, credentials);
    if (identity || !this.credentials.reread || credentials.api_keys.some((key) => key.lookup === lookup)) {
      return identity;
    }
    // No key here has its lookup: another process of the deployment may have created it a moment ago.
    const fresh = await this.credentials.reread();
    return fresh ? this.matchKey(presented, fingerprint, lookup, fresh) : null;
  }

  private async matchKey(
    presented: string,
    fingerprint: string,
    lookup: string,
    credentials: Credentials,
  ): Promise<Identity | null> {
    for (const key of credentials.api_keys) {
      if (key.lookup !== lookup || !(await compareApiKey(presented, key.hash))) continue;
      this.verifiedKeys.set(fingerprint, { keyId: key.id, hash: key.hash });
      return this.acceptKey(key.id, credentials);
    }
    return null;
  }

  private acceptKey(keyId: string, credentials: Credentials): Identity {
    this.usage.recordUse(keyId);
    return { username: credentials.account.username, method: 'api_key', keyId };
  }
}

function isStored(credentials: Credentials, verified: { keyId: string; hash: string }): boolean {
  for (const key of credentials.api_keys) if (key.id === verified.keyId && key.hash === verified.hash) return true;
  return false;
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Memoises `read` until the current event-loop turn ends (setImmediate runs right after the I/O poll). */
function oncePerTurn<T>(read: () => T): () => T {
  let fresh = false;
  let value: T;
  const expire = () => {
    fresh = false;
  };
  return () => {
    if (fresh) return value;
    value = read();
    fresh = true;
    setImmediate(expire);
    return value;
  };
}
