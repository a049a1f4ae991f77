import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

const run = promisify(execFile);

export interface TestPostgres {
  /** `postgres://rhizome:<password>@127.0.0.1:<port>/rhizome`: a role that owns its database. */
  url: string;
  port: number;
  password: string;
  /** Runs SQL as the server's superuser (through its unix socket), in `database` (`postgres` by default). */
  superuser(sql: string, database?: string): Promise<string>;
  /** Stops the server as a crash would, keeping its files: connections drop, new ones are refused. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port. */
  resume(): Promise<void>;
  /** Stops the server and deletes its files. */
  stop(): Promise<void>;
}

/** The newest PostgreSQL installed from Debian's packages (`/usr/lib/postgresql/<major>/bin`). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((entry) => /^\d+$/.test(entry)) : [];
  const major = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!major) throw new Error('PostgreSQL is not installed: run tools/install-system-deps');
  return path.join(root, major, 'bin');
}

/**
 * A throw-away PostgreSQL server on 127.0.0.1 in a temporary directory. The server refuses to run as
 * root, so as root (CI) every command runs as the `postgres` system user the Debian package creates.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-pg-'));
  const data = path.join(dir, 'data');
  const socketDir = path.join(dir, 'socket');
  fs.mkdirSync(socketDir);
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir]);
  const as = (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args])
      : run(path.join(bin, command), args);
  await as('initdb', [
    '-D',
    data,
    '-A',
    'scram-sha-256',
    '--auth-local=trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  await start();
  const superuser = async (sql: string, database = 'postgres') =>
    (await as('psql', ['-h', socketDir, '-p', String(port), '-U', 'postgres', '-d', database, '-At', '-c', sql]))
      .stdout;
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  await superuser(`CREATE ROLE rhizome LOGIN PASSWORD '${password}'`);
  await superuser('CREATE DATABASE rhizome OWNER rhizome');
  return {
    url: `postgres://rhizome:${password}@127.0.0.1:${port}/rhizome`,
    port,
    password,
    superuser,
    async halt() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    async resume() {
      await start();
    },
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
