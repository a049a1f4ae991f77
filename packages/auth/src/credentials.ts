import fs from 'node:fs';
import path from 'node:path';
import { Conflict } from '@rhizome/contracts/errors';
import { GenerationCounter } from './generation.ts';
import { WatchedJsonFile, writeJsonAtomic } from './json-file.ts';

// A hand edit of the file does not bump the counter; a full check this often still picks it up.
const fullCheckIntervalMs = 1000;

export interface StoredApiKey {
  id: string;
  name: string;
  /** bcrypt hash of the whole presented key. */
  hash: string;
  /** First hex characters of the key's SHA-256: picks the candidate without trying bcrypt on every key. */
  lookup: string;
  created_at: string;
}

export interface Credentials {
  version: 1;
  account: { username: string; password_hash: string; created_at: string };
  session_epoch: number;
  api_keys: StoredApiKey[];
}

/**
 * Where the account, the session epoch and the API keys' hashes are kept: reads are synchronous (every
 * request verifies against them), changes are made one at a time by the account service.
 */
export interface CredentialsStore {
  read(): Credentials | undefined;
  /** Stores the first credentials; Conflict when an account exists (another process may have set it up). */
  create(credentials: Credentials): Promise<void>;
  /** Applies a change to the current content; the caller guarantees the account exists. */
  update(change: (current: Credentials) => Credentials): Promise<Credentials>;
  /**
   * A store shared by several processes reads the credentials again, by a read that starts after the call
   * (`ServerAuthStore`): a key another process created a moment ago is not in the copy yet.
   */
  reread?(): Promise<Credentials | undefined>;
}

export function parseCredentials(raw: unknown): Credentials {
  const value = raw as Partial<Credentials>;
  if (!value || typeof value !== 'object' || !value.account || typeof value.account.username !== 'string') {
    throw new Error('credentials file is malformed');
  }
  return {
    version: 1,
    account: value.account,
    session_epoch: Number(value.session_epoch ?? 0),
    api_keys: Array.isArray(value.api_keys) ? value.api_keys : [],
  };
}

/**
 * `<data_dir>/credentials.json`: the single account, the session epoch and the hashed API keys. Every
 * write bumps `credentials.json.gen`, which readers check on each call before trusting their cache.
 */
export class CredentialsFile implements CredentialsStore {
  private readonly watched: WatchedJsonFile<Credentials>;
  private readonly generation: GenerationCounter;
  private seenGeneration = -2;
  private checkedAt = -Infinity;
  private cached: Credentials | undefined;

  constructor(readonly file: string) {
    this.watched = new WatchedJsonFile(file, parseCredentials);
    this.generation = new GenerationCounter(`${file}.gen`);
  }

  read(): Credentials | undefined {
    const generation = this.generation.current();
    const now = performance.now();
    if (generation !== -1 && generation === this.seenGeneration && now - this.checkedAt < fullCheckIntervalMs)
      return this.cached;
    this.cached = this.watched.read();
    this.seenGeneration = generation;
    this.checkedAt = now;
    return this.cached;
  }

  write(credentials: Credentials): void {
    writeJsonAtomic(this.file, credentials);
    this.generation.bump();
  }

  /** Creates the file only if it does not exist yet: a hard link of a complete temp file fails with EEXIST. */
  async create(credentials: Credentials): Promise<void> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.setup.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    try {
      fs.linkSync(temp, this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Conflict('The account is already set up');
      throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
    this.generation.bump();
  }

  async update(change: (current: Credentials) => Credentials): Promise<Credentials> {
    const current = this.read();
    if (!current) throw new Error('credentials file does not exist');
    const next = change(structuredClone(current));
    this.write(next);
    return next;
  }
}
