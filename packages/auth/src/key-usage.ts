import { WatchedJsonFile, writeJsonAtomic } from './json-file.ts';

type Usage = Record<string, string>;

const persistIntervalMs = 1000;

/** When each API key was last used: recorded on every API-key request, never failing it. */
export interface KeyUsageStore {
  lastUsed(keyId: string): string | null;
  recordUse(keyId: string, atMs?: number): void;
  forget(keyId: string): void;
}

/**
 * `last_used_at` of API keys, kept apart from the credentials file so that a process recording a use
 * can never overwrite a concurrent revocation. Each key's first use is written at once; later uses
 * at most once a second per process, so heavy API-key traffic does not turn into disk writes.
 */
export class KeyUsageFile implements KeyUsageStore {
  private readonly watched: WatchedJsonFile<Usage>;
  private readonly lastPersisted = new Map<string, number>();

  constructor(readonly file: string) {
    this.watched = new WatchedJsonFile(file, (raw) => (raw && typeof raw === 'object' ? (raw as Usage) : {}));
  }

  lastUsed(keyId: string): string | null {
    return this.safeRead()[keyId] ?? null;
  }

  /**
   * Called on every API-key request: allocates nothing unless the use is persisted. Best-effort: a write that
   * fails (a full disk, a read-only data directory) never fails the request it records.
   */
  recordUse(keyId: string, atMs = Date.now()): void {
    const previous = this.lastPersisted.get(keyId);
    if (previous !== undefined && atMs - previous < persistIntervalMs) return;
    this.lastPersisted.set(keyId, atMs);
    const usage = { ...this.safeRead(), [keyId]: new Date(atMs).toISOString() };
    try {
      writeJsonAtomic(this.file, usage);
    } catch {
      // Kept from the last write; the next use a second later tries again.
    }
  }

  forget(keyId: string): void {
    const usage = { ...this.safeRead() };
    if (!(keyId in usage)) return;
    delete usage[keyId];
    writeJsonAtomic(this.file, usage);
  }

  private safeRead(): Usage {
    try {
      return this.watched.read() ?? {};
    } catch {
      return {};
    }
  }
}
