import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { sqliteBackups, postgresBackups } from '../backups.ts';
import { openSqlite, type Db } from '../connection.ts';
import { dialectOf, selectRows, type Dialect } from '../dialect.ts';
import { revisionOf, shippedMigrations } from '../migrations/index.ts';
import { Migrator } from '../migrator.ts';
import { quoteIdentifier, schemaOf, schemaPrefix, systemSchema } from '../postgres/identifiers.ts';
import { SchemaBoundPostgresClient } from '../postgres/schema-bound-client.ts';
import type { PostgresServer } from '../postgres/server.ts';
import { columnSql, dependencyOrder, quoted, readCatalogue, type TableShape } from './catalogue.ts';
import { copyTree, filesUnder, swapIn, tally, type FileTally } from './files.ts';
import {
  batchRows,
  checksumColumns,
  countOf,
  insertBatch,
  keyOf,
  readBatches,
  tableChecksum,
  TableChecksum,
  userRows,
} from './rows.ts';

/**
 * Where one Rhizome database is kept: a SQLite file (`<directory>/app.db`) or a schema of a PostgreSQL
 * server; either way `directory` (`<data_dir>/databases/<name>`) holds its originals (`sources/`) and its
 * vector index caches (`vectors/`).
 */
export type DatabaseLocation =
  | { backend: 'sqlite'; name: string; directory: string }
  | { backend: 'postgres'; name: string; directory: string; server: PostgresServer };

export type CopyPhase = 'rows' | 'verify' | 'files';

export interface CopyProgress {
  phase: CopyPhase;
  /** The table being copied or verified (rows, verify). */
  table?: string;
  /** Rows (rows, verify) or bytes (files) done, of `total`. */
  done: number;
  total: number;
}

export interface CopyOptions {
  /** Overwrite a target that holds data; without it such a target is refused. */
  replace?: boolean;
  onProgress?: (progress: CopyProgress) => void;
}

export interface TableReport {
  name: string;
  rows: number;
  checksum: string;
}

export interface CopyReport {
  from: string;
  to: string;
  revision: string;
  tables: TableReport[];
  rows: number;
  /** SHA-256 over the tables' names, counts and checksums, equal on both sides. */
  checksum: string;
  /** Originals and vector caches copied, or `inPlace` when both sides share the directory. */
  files: { inPlace: boolean; originals: FileTally; vectors: FileTally; missingOriginals: string[] };
  replaced: boolean;
  /** Time spent reading, writing and committing the rows; and verifying them again from the target. */
  copyMs: number;
  verifyMs: number;
  totalMs: number;
}

export type CopyRefusalReason =
  'usage' | 'unreachable' | 'locked' | 'not-found' | 'not-empty' | 'revision' | 'same' | 'mismatch';

/** Why a copy did not start, or did not finish because the copy and its source disagree: one line. */
export class CopyRefusal extends Error {
  constructor(
    readonly reason: CopyRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export function describeLocation(location: DatabaseLocation): string {
  return location.backend === 'sqlite'
    ? `sqlite:${path.join(location.directory, 'app.db')}`
    : `postgres schema ${schemaOf(location.name)}`;
}

const headRevision = revisionOf(shippedMigrations[shippedMigrations.length - 1].name);

/**
 * Copies one database completely from one location to another — every table of the revision list, ids and
 * rowids kept, and the originals and vector caches of its directory — then reads the copy back and
 * compares each table's row count and checksum with the source's. The source is read in one snapshot
 * (no Rhizome may be writing it: the caller checks the data directory's lock). The copy is built beside
 * the target (a staged file or schema, staged directories) and swapped in only once verified, so a failed
 * copy leaves the target as it was.
 */
export async function copyDatabase(
  from: DatabaseLocation,
  to: DatabaseLocation,
  options: CopyOptions = {},
): Promise<CopyReport> {
  const started = Date.now();
  if (sameDatabase(from, to))
    throw new CopyRefusal('same', `${describeLocation(from)} is both the source and the target`);
  const source = await openExisting(from);
  if (!source) throw new CopyRefusal('not-found', `there is no database at ${describeLocation(from)}`);
  const suffix = randomBytes(4).toString('hex');
  let staged: Staged | undefined;
  try {
    await checkRevision(source, from);
    const existing = await openExisting(to);
    let replaced = false;
    if (existing) {
      try {
        const held = await heldData(existing);
        if (held.length > 0 && !options.replace)
          throw new CopyRefusal(
            'not-empty',
            `${describeLocation(to)} already holds data (${held.slice(0, 3).join(', ')}${held.length > 3 ? ', …' : ''}): pass --replace to overwrite it`,
          );
        replaced = held.length > 0;
      } finally {
        await existing.destroy();
      }
    }
    staged = await stage(to, suffix);
    const copyStarted = Date.now();
    const { tables, missing } = await copyRows(source, staged.db, options.onProgress);
    const copyMs = Date.now() - copyStarted;
    const verifyStarted = Date.now();
    await verify(staged.db, tables, options.onProgress);
    const verifyMs = Date.now() - verifyStarted;
    const files = copyFiles(from, to, staged, suffix, missing, options.onProgress);
    await staged.swap();
    staged = undefined;
    const reports = tables.map(({ shape, checksum }) => ({
      name: shape.name,
      rows: checksum.rows,
      checksum: checksum.hex,
    }));
    return {
      from: describeLocation(from),
      to: describeLocation(to),
      revision: headRevision,
      tables: reports,
      rows: reports.reduce((sum, table) => sum + table.rows, 0),
      checksum: overallChecksum(reports),
      files,
      replaced,
      copyMs,
      verifyMs,
      totalMs: Date.now() - started,
    };
  } finally {
    await source.destroy();
    await staged?.discard();
  }
}

export function overallChecksum(tables: TableReport[]): string {
  return createHash('sha256')
    .update(tables.map((table) => `${table.name} ${table.rows} ${table.checksum}`).join('\n'))
    .digest('hex');
}

/**
 * The checksum and row counts of a database as it stands, computed as a copy computes them: for comparing
 * two databases without copying (and for tests).
 */
export async function databaseChecksum(location: DatabaseLocation): Promise<TableReport[]> {
  const db = await openExisting(location);
  if (!db) throw new CopyRefusal('not-found', `there is no database at ${describeLocation(location)}`);
  try {
    const reports: TableReport[] = [];
    for (const shape of dependencyOrder(await readCatalogue(db))) {
      const checksum = await tableChecksum(db, shape, shape.columns);
      reports.push({ name: shape.name, rows: checksum.rows, checksum: checksum.hex });
    }
    return reports;
  } finally {
    await db.destroy();
  }
}

/** The names of the databases kept at a data directory (SQLite) or on a server (its `rhizome_` schemas). */
export async function databaseNames(
  store: { backend: 'sqlite'; dataDir: string } | { backend: 'postgres'; server: PostgresServer },
): Promise<string[]> {
  if (store.backend === 'sqlite') {
    const dir = path.join(store.dataDir, 'databases');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'app.db')))
      .map((entry) => entry.name)
      .sort();
  }
  const rows = await store.server.query<{ schema: string }>(
    'SELECT nspname AS schema FROM pg_namespace WHERE starts_with(nspname, $1) AND nspname <> $2 ORDER BY nspname',
    [schemaPrefix, systemSchema],
  );
  return rows.map((row) => row.schema.slice(schemaPrefix.length));
}

function sameDatabase(a: DatabaseLocation, b: DatabaseLocation): boolean {
  if (a.backend === 'sqlite' && b.backend === 'sqlite') return path.resolve(a.directory) === path.resolve(b.directory);
  if (a.backend === 'postgres' && b.backend === 'postgres') return a.server === b.server && a.name === b.name;
  return false;
}

/** A connection to the database at `location`, or null when there is none (no file, no schema). */
async function openExisting(location: DatabaseLocation): Promise<Db | null> {
  if (location.backend === 'sqlite') {
    const file = path.join(location.directory, 'app.db');
    return fs.existsSync(file) ? openSqlite(file) : null;
  }
  const [found] = await location.server.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
    schemaOf(location.name),
  ]);
  return found ? location.server.database(location.name, location.directory) : null;
}

/** The source must be at the revision this code writes: the copy creates the target at that revision. */
async function checkRevision(db: Db, location: DatabaseLocation): Promise<void> {
  const where = describeLocation(location);
  if (!(await db.schema.hasTable('knex_migrations')))
    throw new CopyRefusal('revision', `${where} is not a Rhizome database (it records no schema revision)`);
  const applied = (await selectRows<{ name: string }>(db, 'SELECT name FROM knex_migrations ORDER BY id')).map(
    (row) => row.name,
  );
  const shipped = shippedMigrations.map((migration) => migration.name);
  const unknown = applied.filter((name) => !shipped.includes(name));
  const pending = shipped.filter((name) => !applied.includes(name));
  if (unknown.length === 0 && pending.length === 0) return;
  const at = applied.length ? revisionOf(applied.map(revisionOf).sort().at(-1)!) : 'none';
  if (unknown.some((name) => revisionOf(name) > headRevision))
    throw new CopyRefusal(
      'revision',
      `${where} is at revision ${at}, newer than this Rhizome (${headRevision}): copy it with the Rhizome that wrote it`,
    );
  throw new CopyRefusal(
    'revision',
    `${where} is at revision ${at}, this Rhizome writes ${headRevision}: upgrade it first ('rhizome db migrate apply' with its data directory)`,
  );
}

/** What the database at `location` holds beyond what a new database starts with (none when there is no database). */
export async function heldDataOf(location: DatabaseLocation): Promise<string[]> {
  const db = await openExisting(location);
  if (!db) return [];
  try {
    return await heldData(db);
  } finally {
    await db.destroy();
  }
}

/** The tables of a database holding the user's rows, as "table: n rows". */
async function heldData(db: Db): Promise<string[]> {
  const shapes = await readCatalogue(db);
  const system = new Set(shapes.filter((shape) => shape.systemRows).map((shape) => shape.name));
  const held: string[] = [];
  for (const shape of shapes) {
    const rows = await userRows(db, shape, system);
    if (rows > 0) held.push(`${shape.name}: ${rows} row${rows === 1 ? '' : 's'}`);
  }
  return held;
}

interface Staged {
  db: Db;
  dialect: Dialect;
  /** Where originals and vector caches are staged, when the target's directory is not the source's. */
  stagedDir(part: 'sources' | 'vectors'): string;
  /** Puts the verified copy in the target's place. */
  swap(): Promise<void>;
  /** Removes what was staged (after a failure). */
  discard(): Promise<void>;
}

/** A fresh database at the head revision beside the target: a file next to its `app.db`, or a schema of its own. */
async function stage(to: DatabaseLocation, suffix: string): Promise<Staged> {
  fs.mkdirSync(to.directory, { recursive: true });
  const stagedDir = (part: string) => path.join(to.directory, `${part}.copy-${suffix}`);
  const removeStagedDirs = () => {
    for (const part of ['sources', 'vectors']) fs.rmSync(stagedDir(part), { recursive: true, force: true });
  };
  const swapDirs = () => {
    for (const part of ['sources', 'vectors'] as const)
      if (fs.existsSync(stagedDir(part))) swapIn(stagedDir(part), path.join(to.directory, part), suffix);
    for (const part of ['sources', 'vectors', 'backups'])
      fs.mkdirSync(path.join(to.directory, part), { recursive: true });
  };
  const backupsDir = path.join(to.directory, 'backups');
  if (to.backend === 'sqlite') {
    const file = path.join(to.directory, `app.db.copy-${suffix}`);
    const db = openSqlite(file);
    let open = true;
    const close = async () => {
      if (open) await db.destroy();
      open = false;
    };
    const removeFile = () => {
      for (const extra of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${extra}`, { force: true });
    };
    try {
      await new Migrator(backupsDir, shippedMigrations, sqliteBackups).apply(db);
    } catch (error) {
      await close();
      removeFile();
      throw error;
    }
    return {
      db,
      dialect: 'sqlite',
      stagedDir,
      async swap() {
        await db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
        await close();
        const live = path.join(to.directory, 'app.db');
        for (const extra of ['-wal', '-shm']) fs.rmSync(`${live}${extra}`, { force: true });
        fs.renameSync(file, live);
        removeFile();
        swapDirs();
      },
      async discard() {
        await close();
        removeFile();
        removeStagedDirs();
      },
    };
  }
  const server = to.server;
  // Outside the `rhizome_` prefix, so no Rhizome lists the staged schema as a database meanwhile.
  const schema = `rhizomecopy_${suffix}`;
  await server.createSchema(schema);
  const db = knex({
    client: SchemaBoundPostgresClient,
    connectionPool: server.pool,
    searchPath: schema,
  } as Knex.Config);
  const dropStaged = () => server.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
  try {
    await new Migrator(backupsDir, shippedMigrations, postgresBackups(server.url, schema)).apply(db);
  } catch (error) {
    await db.destroy();
    await dropStaged();
    throw error;
  }
  let open = true;
  return {
    db,
    dialect: 'postgres',
    stagedDir,
    async swap() {
      await db.destroy();
      open = false;
      const client = await server.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schemaOf(to.name))} CASCADE`);
        await client.query(`ALTER SCHEMA ${quoteIdentifier(schema)} RENAME TO ${quoteIdentifier(schemaOf(to.name))}`);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      swapDirs();
    },
    async discard() {
      if (open) await db.destroy();
      open = false;
      await dropStaged();
      removeStagedDirs();
    },
  };
}

interface CopiedTable {
  shape: TableShape;
  columns: string[];
  checksum: TableChecksum;
}

/**
 * The columns both sides hold of each table: the same on both at one revision, except the rowid, which
 * PostgreSQL keeps only where the modules key by it.
 */
function pairTables(
  source: TableShape[],
  target: TableShape[],
): { shape: TableShape; source: TableShape; columns: string[] }[] {
  const sourceByName = new Map(source.map((shape) => [shape.name, shape]));
  const onlyTarget = target.filter((shape) => !sourceByName.has(shape.name)).map((shape) => shape.name);
  const onlySource = source
    .filter((shape) => !target.some((other) => other.name === shape.name))
    .map((shape) => shape.name);
  if (onlyTarget.length || onlySource.length)
    throw new CopyRefusal(
      'mismatch',
      `the source's tables differ from this revision's: ${[...onlySource.map((name) => `${name} only in the source`), ...onlyTarget.map((name) => `${name} only in the target`)].join(', ')}`,
    );
  return dependencyOrder(target).map((shape) => {
    const from = sourceByName.get(shape.name)!;
    const columns = shape.columns.filter((column) => from.columns.includes(column));
    const differing = [...shape.columns, ...from.columns].filter(
      (column) => column !== 'rowid' && !(shape.columns.includes(column) && from.columns.includes(column)),
    );
    if (differing.length)
      throw new CopyRefusal(
        'mismatch',
        `the columns of ${shape.name} differ between source and target: ${[...new Set(differing)].join(', ')}`,
      );
    return { shape, source: from, columns };
  });
}

/**
 * Copies every table's rows inside one snapshot of the source and one transaction of the staged target.
 * The target's triggers are off meanwhile (SQLite's dropped and made again, PostgreSQL's disabled), so
 * what they maintain — degrees, the graph version, template write sequences, the chunks' full-text rows —
 * arrives as the source holds it rather than counted again; only the full-text tables' own triggers stay,
 * making PostgreSQL's `tsvector` from the copied text. Foreign keys are checked once the rows are in.
 */
async function copyRows(
  source: Db,
  target: Db,
  onProgress: CopyOptions['onProgress'],
): Promise<{ tables: CopiedTable[]; missing: { id: string; stored_filename: string }[] }> {
  const snapshot =
    dialectOf(source) === 'postgres'
      ? { readOnly: true, isolationLevel: 'repeatable read' as const }
      : { readOnly: true };
  return source.transaction(async (read) => {
    const pairs = pairTables(await readCatalogue(read), await readCatalogue(target));
    const totals = new Map<string, number>();
    for (const { shape } of pairs) totals.set(shape.name, await countOf(read, shape.name));
    const total = [...totals.values()].reduce((sum, n) => sum + n, 0);
    const withOriginals = await selectRows<{ id: string; stored_filename: string }>(
      read,
      'SELECT id, stored_filename FROM sources WHERE stored_filename IS NOT NULL',
    );
    const copied: CopiedTable[] = [];
    const sqlite = dialectOf(target) === 'sqlite';
    if (sqlite) await target.raw('PRAGMA foreign_keys = OFF');
    await target.transaction(async (write) => {
      const restore = await suspendTriggers(
        write,
        pairs.map((pair) => pair.shape),
      );
      for (const { shape } of [...pairs].reverse()) await write.raw(`DELETE FROM ${quoted(shape.name)}`);
      let done = 0;
      for (const { shape, source: from, columns } of pairs) {
        const checksum = new TableChecksum(checksumColumns(columns));
        onProgress?.({ phase: 'rows', table: shape.name, done, total });
        for await (const rows of readBatches(read, shape.name, columns, keyOf(from, columns), batchRows)) {
          for (const row of rows) checksum.add(row);
          await insertBatch(write, shape.name, columns, rows);
          done += rows.length;
          onProgress?.({ phase: 'rows', table: shape.name, done, total });
        }
        if (checksum.rows !== totals.get(shape.name))
          throw new CopyRefusal(
            'mismatch',
            `${shape.name} changed while it was copied: is a Rhizome writing the source?`,
          );
        await carryCounter(write, shape, from);
        copied.push({ shape, columns, checksum });
      }
      await restore();
    });
    if (sqlite) {
      const broken = await selectRows<{ table: string; parent: string }>(target, 'PRAGMA foreign_key_check');
      await target.raw('PRAGMA foreign_keys = ON');
      if (broken.length)
        throw new CopyRefusal(
          'mismatch',
          `the source's rows break ${broken.length} foreign key${broken.length === 1 ? '' : 's'} (first: ${broken[0].table} → ${broken[0].parent})`,
        );
    }
    return { tables: copied, missing: withOriginals };
  }, snapshot);
}

/** Turns the target's triggers off for the copy; the function returned turns them on again. */
async function suspendTriggers(write: Knex.Transaction, shapes: TableShape[]): Promise<() => Promise<void>> {
  if (dialectOf(write) === 'sqlite') {
    const triggers = await selectRows<{ name: string; sql: string }>(
      write,
      "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
    );
    for (const trigger of triggers) await write.raw(`DROP TRIGGER ${quoted(trigger.name)}`);
    return async () => {
      for (const trigger of triggers) await write.raw(trigger.sql);
    };
  }
  const written = shapes.filter((shape) => !shape.fullText);
  for (const shape of written) await write.raw(`ALTER TABLE ${quoted(shape.name)} DISABLE TRIGGER USER`);
  // A foreign key to the table's own rows would need parents copied before children: checked when restored.
  const selfKeys = await selectRows<{ table: string; name: string; definition: string }>(
    write,
    `SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
     WHERE c.contype = 'f' AND c.conrelid = c.confrelid AND c.connamespace = current_schema()::regnamespace`,
  );
  for (const key of selfKeys) await write.raw(`ALTER TABLE ${quoted(key.table)} DROP CONSTRAINT ${quoted(key.name)}`);
  return async () => {
    for (const key of selfKeys)
      await write.raw(`ALTER TABLE ${quoted(key.table)} ADD CONSTRAINT ${quoted(key.name)} ${key.definition}`);
    for (const shape of written) await write.raw(`ALTER TABLE ${quoted(shape.name)} ENABLE TRIGGER USER`);
  };
}

/**
 * A column counting up by itself continues past what the source handed out, not only past the rows it
 * kept: an id once used (a deleted execution's step runs) is not used again.
 */
async function carryCounter(write: Knex.Transaction, target: TableShape, source: TableShape): Promise<void> {
  if (!target.counter) return;
  const column = columnSql(target.counter.column);
  const [row] = await selectRows<{ top: number | null }>(
    write,
    `SELECT max(${column}) AS top FROM ${quoted(target.name)}`,
  );
  const value = Math.max(Number(row?.top ?? 0), source.counter?.value ?? 0);
  if (value <= 0) return;
  if (dialectOf(write) === 'postgres') {
    await write.raw('SELECT setval(pg_get_serial_sequence(?, ?), ?, true)', [
      quoted(target.name),
      target.counter.column,
      value,
    ]);
    return;
  }
  await write.raw('DELETE FROM sqlite_sequence WHERE name = ?', [target.name]);
  await write.raw('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', [target.name, value]);
}

/** Reads the committed copy back and compares every table's count and checksum with the source's. */
async function verify(target: Db, tables: CopiedTable[], onProgress: CopyOptions['onProgress']): Promise<void> {
  const total = tables.reduce((sum, table) => sum + table.checksum.rows, 0);
  let done = 0;
  await target.transaction(
    async (read) => {
      for (const { shape, columns, checksum } of tables) {
        onProgress?.({ phase: 'verify', table: shape.name, done, total });
        const copy = await tableChecksum(read, shape, columns);
        if (copy.rows !== checksum.rows)
          throw new CopyRefusal(
            'mismatch',
            `${shape.name}: the copy holds ${copy.rows} rows, the source ${checksum.rows}`,
          );
        if (copy.hex !== checksum.hex)
          throw new CopyRefusal(
            'mismatch',
            `${shape.name}: the copy's rows differ from the source's (checksums ${copy.hex.slice(0, 12)} and ${checksum.hex.slice(0, 12)})`,
          );
        done += copy.rows;
        onProgress?.({ phase: 'verify', table: shape.name, done, total });
      }
    },
    { readOnly: true },
  );
}

/** The originals and vector caches, staged beside the target's unless both sides share the directory. */
function copyFiles(
  from: DatabaseLocation,
  to: DatabaseLocation,
  staged: Staged,
  suffix: string,
  withOriginals: { id: string; stored_filename: string }[],
  onProgress: CopyOptions['onProgress'],
): CopyReport['files'] {
  const inPlace = path.resolve(from.directory) === path.resolve(to.directory);
  const sourcesDir = path.join(from.directory, 'sources');
  const missingOriginals = withOriginals
    .filter((source) => !fs.existsSync(path.join(sourcesDir, source.id, source.stored_filename)))
    .map((source) => source.id);
  if (inPlace) {
    const originals = tally(filesUnder(sourcesDir));
    const vectors = tally(filesUnder(path.join(from.directory, 'vectors')));
    return { inPlace, originals, vectors, missingOriginals };
  }
  const expected = {
    originals: tally(filesUnder(sourcesDir)),
    vectors: tally(filesUnder(path.join(from.directory, 'vectors'))),
  };
  const total = expected.originals.bytes + expected.vectors.bytes;
  let done = 0;
  const step = (bytes: number) => {
    done += bytes;
    onProgress?.({ phase: 'files', done, total });
  };
  onProgress?.({ phase: 'files', done, total });
  const originals = copyTree(sourcesDir, staged.stagedDir('sources'), true, step);
  const vectors = copyTree(path.join(from.directory, 'vectors'), staged.stagedDir('vectors'), false, step);
  for (const [part, copied] of [
    ['sources', originals],
    ['vectors', vectors],
  ] as const) {
    const landed = tally(filesUnder(staged.stagedDir(part)));
    if (landed.files !== copied.files || landed.bytes !== copied.bytes)
      throw new CopyRefusal(
        'mismatch',
        `the ${part} files copied (${landed.files}, ${landed.bytes} bytes) differ from the source's (${copied.files}, ${copied.bytes} bytes)`,
      );
  }
  return { inPlace, originals, vectors, missingOriginals };
}
