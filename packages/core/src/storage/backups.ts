import { backupSqlite, type Db } from './connection.ts';
import type { Dialect } from './dialect.ts';
import { dumpSchema } from './postgres/schema-dump.ts';

/** How one database is copied before migrations touch it, in its dialect. */
export interface DatabaseBackups {
  readonly dialect: Dialect;
  /** The suffix of its backup files: `.db` (a SQLite file) or `.sql` (a schema's dump). */
  readonly extension: string;
  write(db: Db, file: string): Promise<void>;
}

export const sqliteBackups: DatabaseBackups = { dialect: 'sqlite', extension: '.db', write: backupSqlite };

/** Backups of one schema of a PostgreSQL server, written by pg_dump. */
export function postgresBackups(url: string, schema: string): DatabaseBackups {
  return { dialect: 'postgres', extension: '.sql', write: (_db, file) => dumpSchema(url, schema, file) };
}
