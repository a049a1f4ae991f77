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

function parseCredentials(raw: unknown): Credentials {
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
export class CredentialsFile {
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

  /** Call after creating the file by other means than write(). */
  announceChange(): void {
    this.generation.bump();
  }

  /** Applies a change to the current content; the caller guarantees the account exists. */
  update(change: (current: Credentials) => Credentials): Credentials {
    const current = this.read();
    if (!current) throw new Error('credentials file does not exist');
    const next = change(structuredClone(current));
    this.write(next);
    return next;
  }
}
