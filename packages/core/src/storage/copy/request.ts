import fs from 'node:fs';
import path from 'node:path';
import { DataPaths } from '../../paths.ts';
import { FileLock, lockDataDir } from '../../runtime/index.ts';
import { redactedUrl, reachPostgres } from '../postgres-check.ts';
import { PostgresServer } from '../postgres/server.ts';
import {
  copyDatabase,
  CopyRefusal,
  databaseNames,
  heldDataOf,
  type CopyProgress,
  type CopyReport,
  type DatabaseLocation,
} from './copy.ts';

/** Where a `--from`/`--to` points: a SQLite database directory (a data directory with --all), or a server. */
export type StoreArgument =
  { backend: 'sqlite'; path: string } | { backend: 'postgres'; url: string; name: string | null; shown: string };

export interface CopyRequest {
  from: string;
  to: string;
  /** Every database of the source store, each to the same name. */
  all?: boolean;
  replace?: boolean;
  /** The data directory whose `databases/<name>` holds a PostgreSQL database's files. */
  dataDir: string;
  /** Told before each database is copied. */
  onDatabase?: (name: string, index: number, count: number) => void;
  onProgress?: (progress: CopyProgress) => void;
}

/** Names Rhizome accepts for a database (as the database manager does). */
const databaseName = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Reads one store argument: `sqlite:PATH` (a database directory `<data_dir>/databases/NAME` or its
 * `app.db`; with --all a data directory) or `postgres://user:password@host:port/database`, the Rhizome
 * database named by the fragment (`#NAME`) or a `database=NAME` query parameter.
 */
export function parseStore(text: string): StoreArgument {
  if (text.startsWith('sqlite:')) {
    const file = text.slice('sqlite:'.length);
    if (!file) throw new CopyRefusal('usage', `'${text}' names no path: give sqlite:<data_dir>/databases/NAME`);
    return { backend: 'sqlite', path: path.resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new CopyRefusal(
        'usage',
        `'${redactedUrl(text)}' is not a URL: give postgres://user:password@host:5432/database#NAME`,
      );
    }
    const fromQuery = url.searchParams.get('database');
    url.searchParams.delete('database');
    const name = decodeURIComponent(url.hash.slice(1)) || fromQuery || null;
    url.hash = '';
    return { backend: 'postgres', url: url.toString(), name, shown: redactedUrl(url.toString()) };
  }
  throw new CopyRefusal(
    'usage',
    `'${redactedUrl(text)}' is neither sqlite:<data_dir>/databases/NAME nor postgres://user:password@host/database#NAME`,
  );
}

/** The database directory and name a `sqlite:` argument names (a directory, or the app.db in it). */
function sqliteDatabase(file: string): { name: string; directory: string } {
  const directory = path.basename(file) === 'app.db' ? path.dirname(file) : file;
  return { name: path.basename(directory), directory };
}

/** The data directory a database directory belongs to, when it sits in one (`<data_dir>/databases/<name>`). */
function dataDirOf(directory: string): string | null {
  const parent = path.dirname(directory);
  return path.basename(parent) === 'databases' ? path.dirname(parent) : null;
}

function checkName(name: string, backend: 'sqlite' | 'postgres'): void {
  if (!databaseName.test(name))
    throw new CopyRefusal('usage', `'${name}' is not a database name: letters, digits, underscores and hyphens (1-64)`);
  if (backend === 'postgres' && (name === 'system' || Buffer.byteLength(name) > 55))
    throw new CopyRefusal(
      'usage',
      name === 'system'
        ? "'system' is reserved on PostgreSQL (the schema rhizome_system)"
        : 'database names have at most 55 characters on PostgreSQL',
    );
}

/**
 * Copies one database, or with `all` every database of the source store, between the stores two
 * arguments name. Every data directory involved is locked as `rhizome serve` locks it, so no Rhizome on
 * this machine writes the source or serves the target meanwhile; with --all every target is checked for
 * data before the first copy starts.
 */
export async function copyDatabases(request: CopyRequest): Promise<CopyReport[]> {
  const from = parseStore(request.from);
  const to = parseStore(request.to);
  const servers = new Map<string, PostgresServer>();
  const locks: FileLock[] = [];
  const serverFor = async (store: Extract<StoreArgument, { backend: 'postgres' }>) => {
    let server = servers.get(store.url);
    if (!server) {
      const reach = await reachPostgres(store.url);
      if (!reach.ok) throw new CopyRefusal('unreachable', reach.problem.replace('RHIZOME_DATABASE_URL', 'the URL'));
      server = new PostgresServer(store.url, { maxConnections: 4 });
      servers.set(store.url, server);
    }
    return server;
  };
  try {
    const pairs = await planCopies(from, to, request, serverFor);
    const dataDirs = new Set<string>();
    for (const [source, target] of pairs)
      for (const location of [source, target]) {
        const dataDir = location.backend === 'sqlite' ? dataDirOf(location.directory) : request.dataDir;
        if (dataDir) dataDirs.add(path.resolve(dataDir));
      }
    for (const dataDir of [...dataDirs].sort()) {
      if (!fs.existsSync(dataDir)) continue;
      const lock = await lockDataDir(new DataPaths(dataDir));
      if (!(lock instanceof FileLock))
        throw new CopyRefusal('locked', lock.refusal.replace('is already serving', 'is serving'));
      locks.push(lock);
    }
    if (request.all && !request.replace) {
      // Refused before anything is copied, rather than after the first databases went across.
      for (const [, target] of pairs) await refuseHeld(target);
    }
    const reports: CopyReport[] = [];
    for (const [index, [source, target]] of pairs.entries()) {
      request.onDatabase?.(source.name, index, pairs.length);
      reports.push(await copyDatabase(source, target, { replace: request.replace, onProgress: request.onProgress }));
    }
    return reports;
  } finally {
    for (const lock of locks) await lock.release();
    for (const server of servers.values()) await server.close();
  }
}

/** A target that holds data refuses a copy without --replace: tried with an empty copy of nothing. */
async function refuseHeld(target: DatabaseLocation): Promise<void> {
  const held = await heldDataOf(target);
  if (held.length)
    throw new CopyRefusal(
      'not-empty',
      `${target.backend === 'sqlite' ? `sqlite:${target.directory}` : `the PostgreSQL database '${target.name}'`} already holds data (${held.slice(0, 3).join(', ')}): pass --replace to overwrite it`,
    );
}

async function planCopies(
  from: StoreArgument,
  to: StoreArgument,
  request: CopyRequest,
  serverFor: (store: Extract<StoreArgument, { backend: 'postgres' }>) => Promise<PostgresServer>,
): Promise<[DatabaseLocation, DatabaseLocation][]> {
  const filesOf = (name: string) => new DataPaths(request.dataDir).databaseDir(name);
  const locate = async (
    store: StoreArgument,
    name: string,
    base: 'data-dir' | 'database',
  ): Promise<DatabaseLocation> => {
    checkName(name, store.backend);
    if (store.backend === 'sqlite') {
      const directory =
        base === 'data-dir' ? new DataPaths(store.path).databaseDir(name) : sqliteDatabase(store.path).directory;
      return { backend: 'sqlite', name, directory };
    }
    return { backend: 'postgres', name, directory: filesOf(name), server: await serverFor(store) };
  };
  if (request.all) {
    for (const store of [from, to])
      if (store.backend === 'postgres' && store.name)
        throw new CopyRefusal('usage', `--all copies every database: name none in ${store.shown}`);
    let names: string[];
    if (from.backend === 'sqlite') {
      if (!fs.existsSync(path.join(from.path, 'databases')))
        throw new CopyRefusal(
          'not-found',
          `${from.path} is not a data directory (it has no databases/): with --all give sqlite:<data_dir>`,
        );
      names = await databaseNames({ backend: 'sqlite', dataDir: from.path });
    } else names = await databaseNames({ backend: 'postgres', server: await serverFor(from) });
    if (names.length === 0) throw new CopyRefusal('not-found', 'the source holds no databases');
    return Promise.all(
      names.map(
        async (name) =>
          [await locate(from, name, 'data-dir'), await locate(to, name, 'data-dir')] as [
            DatabaseLocation,
            DatabaseLocation,
          ],
      ),
    );
  }
  const fromName = from.backend === 'sqlite' ? sqliteDatabase(from.path).name : from.name;
  const toName = to.backend === 'sqlite' ? sqliteDatabase(to.path).name : to.name;
  const sourceName = fromName ?? toName ?? 'default';
  const targetName = toName ?? sourceName;
  return [[await locate(from, sourceName, 'database'), await locate(to, targetName, 'database')]];
}
