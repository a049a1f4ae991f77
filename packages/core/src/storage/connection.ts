import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { ImmediateSqliteClient } from './immediate-transactions.ts';

export type Db = Knex;

/**
 * Opens one SQLite file through knex: WAL so the API and the worker read while the other writes,
 * foreign keys on, a busy timeout long enough to wait out a concurrent writer instead of failing, and
 * transactions that take the write lock as they begin (see `immediate-transactions.ts`).
 */
export function openSqlite(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return knex({
    client: ImmediateSqliteClient,
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate: (
        connection: SqliteConnection,
        done: (error: Error | null, connection: SqliteConnection) => void,
      ) => {
        connection.exec(
          'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 60000; PRAGMA synchronous = NORMAL;',
          (error) => done(error, connection),
        );
      },
    },
  });
}

interface SqliteConnection {
  exec(sql: string, callback: (error: Error | null) => void): void;
}

/** A consistent copy of a live database, WAL content included (`VACUUM INTO`). */
export async function backupSqlite(db: Db, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.rmSync(target, { force: true });
  await db.raw('VACUUM INTO ?', [target]);
}
