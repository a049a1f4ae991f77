import type { DatabaseBackups, Db } from '../storage/index.ts';

export interface DatabaseInfo {
  name: string;
  path: string;
  exists: boolean;
  size: number;
  last_modified: string | null;
}

/**
 * Where the named databases are kept, one implementation per dialect, chosen once when the manager is
 * made: a SQLite file per database under the data directory, or a schema per database on a PostgreSQL
 * server. Reading the catalogue is synchronous (the API lists databases in many places); a server's
 * catalogue is the one `refresh` last read, and every change the manager makes refreshes it.
 */
export interface DatabaseStore {
  /** The known database `name`, or null: `exists` is false for a SQLite directory without its file yet. */
  describe(name: string): DatabaseInfo | null;
  /** Every known database. */
  names(): string[];
  /** Re-reads the catalogue where it lives on a server. */
  refresh(): Promise<void>;
  /** Why `name` cannot be stored here although the API accepts it, or null. */
  refusal(name: string): string | null;
  /** A connection to `name`, its file or schema created when missing. */
  open(name: string): Promise<Db>;
  /** A connection for bulk writers beside `main` (the same one where the pool already parallelises). */
  bulkWriter(name: string, main: Db): Db;
  /** Deletes the database's tables and rows (its directory is the manager's). */
  drop(name: string): Promise<void>;
  backups(name: string): DatabaseBackups;
  /** Replaces the closed database `name` with a backup `backups(name)` wrote. */
  restore(name: string, backup: string): Promise<void>;
  close(): Promise<void>;
}
