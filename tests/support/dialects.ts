import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Migrator,
  openSqlite,
  postgresBackups,
  PostgresServer,
  quoteIdentifier,
  schemaOf,
  type Db,
  type Dialect,
} from '@rhizome/core/storage';
import { startPostgres, type TestPostgres } from './postgres.ts';

/** Both dialects, for `describe.each`. */
export const dialects: Dialect[] = ['sqlite', 'postgres'];

/** Migrated, empty Rhizome databases of one dialect: SQLite files, or schemas of one throw-away server. */
export interface DialectDatabases {
  open(name: string): Promise<Db>;
  /** Closes every database opened and drops their files or server. */
  close(): Promise<void>;
}

export function dialectDatabases(dialect: Dialect): DialectDatabases {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rhizome-${dialect}-`));
  const opened: Db[] = [];
  let postgres: { server: TestPostgres; pool: PostgresServer } | undefined;
  const serverPool = async () => {
    if (!postgres) {
      const server = await startPostgres();
      postgres = { server, pool: new PostgresServer(server.url) };
    }
    return postgres;
  };
  return {
    async open(name) {
      let db: Db;
      let migrator: Migrator;
      if (dialect === 'sqlite') {
        db = openSqlite(path.join(dir, `${name}.db`));
        migrator = new Migrator(path.join(dir, 'backups'));
      } else {
        const { server, pool } = await serverPool();
        await pool.query(`CREATE SCHEMA ${quoteIdentifier(schemaOf(name))}`);
        db = pool.database(name, path.join(dir, name));
        migrator = new Migrator(path.join(dir, 'backups'), undefined, postgresBackups(server.url, schemaOf(name)));
      }
      opened.push(db);
      await migrator.apply(db);
      return db;
    },
    async close() {
      for (const db of opened) await db.destroy();
      await postgres?.pool.close();
      await postgres?.server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
