import fs from 'node:fs';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import knex from 'knex';
import { BadInput, describeError } from '@rhizome/contracts/errors';
import {
  backupSqlite,
  databaseKey,
  dumpSchema,
  openSqlite,
  perDialect,
  quoteIdentifier,
  type Db,
} from '../storage/index.ts';

/**
 * A consistent copy of the live database file `source` at `target` (`VACUUM INTO`, WAL content
 * included), through a connection of its own so the process's shared connection keeps serving
 * requests meanwhile. Written beside its final name and renamed in: a half-written copy is never listed.
 */
export async function copyLiveDatabase(source: string, target: string): Promise<void> {
  const partial = `${target}.partial`;
  const connection = openSqlite(source);
  try {
    await backupSqlite(connection, partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
  } finally {
    await connection.destroy();
    fs.rmSync(partial, { force: true });
  }
}

/** Refuses (400, nothing changed) a file that is not an intact SQLite database with Rhizome's migrations table. */
async function checkSqliteBackup(file: string, filename: string): Promise<void> {
  // Read-only through a URI: knex always adds OPEN_READWRITE to the flags it is given.
  const probe = knex({
    client: 'sqlite3',
    connection: { filename: `${pathToFileURL(file).href}?mode=ro`, flags: ['OPEN_URI'] },
    useNullAsDefault: true,
    pool: { min: 0, max: 1 },
  });
  let problem: string | null = null;
  try {
    const [check] = (await probe.raw('PRAGMA quick_check')) as { quick_check: string }[];
    if (check?.quick_check !== 'ok')
      problem = `it fails SQLite's integrity check (${check?.quick_check ?? 'no answer'})`;
    else if (!(await probe.schema.hasTable('knex_migrations'))) problem = 'it is not a Rhizome database';
  } catch (error) {
    problem = `it cannot be read as a SQLite database (${describeError(error)})`;
  } finally {
    await probe.destroy();
  }
  if (problem) throw BadInput.field(`Backup '${filename}' cannot be restored: ${problem}`, 'filename');
}

/** The server and schema a PostgreSQL handle reaches: its pool's URL and its `search_path`. */
function schemaOfHandle(db: Db): { url: string; schema: string } {
  const pool = (db.client as { config: { connectionPool?: { options?: { connectionString?: string } } } }).config
    .connectionPool;
  return { url: pool?.options?.connectionString ?? '', schema: databaseKey(db) };
}

/** The suffix of a database's backup files: a SQLite file, or the SQL script pg_dump writes of its schema. */
export const backupExtension = perDialect<[], '.db' | '.sql'>({ sqlite: () => '.db', postgres: () => '.sql' });

/**
 * Writes a consistent copy of the database `db` reaches at `target`: its file copied through a
 * connection of its own (`file`), or its schema dumped in one snapshot by pg_dump.
 */
export const writeBackup = perDialect<[file: string, target: string], Promise<void>>({
  sqlite: (_db, file, target) => copyLiveDatabase(file, target),
  postgres: async (db, _file, target) => {
    const { url, schema } = schemaOfHandle(db);
    await dumpSchema(url, schema, target);
    fs.chmodSync(target, 0o600);
  },
});

/**
 * Refuses (400, nothing changed) a file that cannot replace the database `db` reaches: on SQLite not an
 * intact Rhizome database; on PostgreSQL not a complete pg_dump script of this database's own schema
 * (a dump is replayed into the schema it names, so another database's would not replace this one).
 */
export const checkBackupFile = perDialect<[file: string, filename: string], Promise<void>>({
  sqlite: (_db, file, filename) => checkSqliteBackup(file, filename),
  postgres: async (db, file, filename) => {
    const { schema } = schemaOfHandle(db);
    const problem = await dumpProblem(file, schema);
    if (problem) throw BadInput.field(`Backup '${filename}' cannot be restored: ${problem}`, 'filename');
  },
});

async function dumpProblem(file: string, schema: string): Promise<string | null> {
  const names = [schema, quoteIdentifier(schema)];
  const seen = { header: false, schema: false, migrations: false, complete: false };
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '-- PostgreSQL database dump') seen.header = true;
    else if (line === '-- PostgreSQL database dump complete') seen.complete = true;
    else if (names.some((name) => line === `CREATE SCHEMA ${name};`)) seen.schema = true;
    else if (names.some((name) => line === `CREATE TABLE ${name}.knex_migrations (`)) seen.migrations = true;
  }
  if (!seen.header) return 'it is not a PostgreSQL dump';
  if (!seen.schema) return `it is not a dump of this database (schema ${schema})`;
  if (!seen.migrations) return 'it is not a Rhizome database';
  if (!seen.complete) return 'the dump is incomplete';
  return null;
}
