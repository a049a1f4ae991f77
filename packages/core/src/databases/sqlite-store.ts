import fs from 'node:fs';
import type { DataPaths } from '../paths.ts';
import { openSqlite, restoreSqliteFile, sqliteBackups, type Db } from '../storage/index.ts';
import type { DatabaseInfo, DatabaseStore } from './store.ts';

export const databaseNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** The embedded default: `<data_dir>/databases/<name>/app.db`, one SQLite file each. */
export class SqliteDatabaseStore implements DatabaseStore {
  constructor(private readonly paths: DataPaths) {}

  describe(name: string): DatabaseInfo | null {
    if (!databaseNamePattern.test(name) || !fs.existsSync(this.paths.databaseDir(name))) return null;
    const stat = fs.statSync(this.paths.appDb(name), { throwIfNoEntry: false });
    return {
      name,
      path: this.paths.databaseDir(name),
      exists: stat !== undefined,
      size: stat?.size ?? 0,
      last_modified: stat ? stat.mtime.toISOString() : null,
    };
  }

  names(): string[] {
    if (!fs.existsSync(this.paths.databasesDir)) return [];
    return fs
      .readdirSync(this.paths.databasesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && databaseNamePattern.test(entry.name))
      .map((entry) => entry.name);
  }

  async refresh(): Promise<void> {}

  refusal(): string | null {
    return null;
  }

  async open(name: string): Promise<Db> {
    return openSqlite(this.paths.appDb(name));
  }

  bulkWriter(name: string): Db {
    return openSqlite(this.paths.appDb(name));
  }

  /** The file goes with the database's directory. */
  async drop(): Promise<void> {}

  backups() {
    return sqliteBackups;
  }

  async restore(name: string, backup: string): Promise<void> {
    restoreSqliteFile(backup, this.paths.appDb(name));
  }

  async close(): Promise<void> {}
}
