import { WatchedJsonFile, writeJsonAtomic } from './json-file.ts';

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

/** `<data_dir>/credentials.json`: the single account, the session epoch and the hashed API keys. */
export class CredentialsFile {
  private readonly watched: WatchedJsonFile<Credentials>;

  constructor(readonly file: string) {
    this.watched = new WatchedJsonFile(file, parseCredentials);
  }

  read(): Credentials | undefined {
    return this.watched.read();
  }

  write(credentials: Credentials): void {
    writeJsonAtomic(this.file, credentials);
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
