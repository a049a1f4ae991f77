import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeError } from '@rhizome/contracts/errors';
import { quoteIdentifier } from './identifiers.ts';

const run = promisify(execFile);

/** The URL without its password, which travels in PGPASSWORD instead of the command line others can read. */
function clientArguments(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

async function runClient(tool: 'pg_dump' | 'psql', args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(tool, args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new Error(`${tool} is not installed: install PostgreSQL's client tools`);
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`${tool} failed: ${stderr || describeError(error)}`);
  }
}

/**
 * A consistent copy of one schema (pg_dump reads it in one snapshot) as a plain SQL script: its tables,
 * rows, sequences, functions and triggers, and the statement creating the schema itself.
 */
export async function dumpSchema(url: string, schema: string, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const { dbname, env } = clientArguments(url);
  await runClient(
    'pg_dump',
    ['--dbname', dbname, '--schema', schema, '--format', 'plain', '--no-owner', '--no-privileges', '--file', partial],
    env,
  );
  fs.renameSync(partial, target);
}

/**
 * Puts a schema back as a dump left it, in one transaction: the schema as it is now (revisions applied
 * since included) is dropped and the dump replayed; if anything fails, the schema stays as it was.
 */
export async function restoreSchema(url: string, schema: string, dump: string): Promise<void> {
  const { dbname, env } = clientArguments(url);
  await runClient(
    'psql',
    [
      '--dbname',
      dbname,
      '--no-psqlrc',
      '--quiet',
      '--set',
      'ON_ERROR_STOP=1',
      '--single-transaction',
      '--command',
      `DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`,
      '--file',
      dump,
    ],
    env,
  );
}
