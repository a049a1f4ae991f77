import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import knex from 'knex';
import { BadInput, describeError } from '@rhizome/contracts/errors';
import { backupSqlite, openSqlite } from '../storage/index.ts';

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
export async function checkBackupFile(file: string, filename: string): Promise<void> {
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
