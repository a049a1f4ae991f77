import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../connection.ts';
import { dialectOf, selectRows } from '../dialect.ts';
import { columnSql, quoted, type TableShape } from './catalogue.ts';

type Row = Record<string, unknown>;

/** Rows read per batch, and carried per statement when inserted. */
export const batchRows = 1000;
const rowsPerStatement = 500;

/**
 * A table's content as a number both dialects agree on: each row's values, normalised (a BLOB as its hex,
 * booleans as 1 and 0, as the drivers give them here) and serialised in the order of the column names,
 * hashed with SHA-256; the table's checksum is the sum of its rows' hashes modulo 2^256. A sum, not a hash
 * of the rows in key order: the two dialects order text keys by different collations, and a sum does not
 * depend on the order rows are read in, while any row changed, missing or added changes it.
 */
export class TableChecksum {
  private sum = 0n;
  rows = 0;

  constructor(private readonly columns: readonly string[]) {}

  add(row: Row): void {
    const values = this.columns.map((column) => normalised(row[column]));
    const digest = createHash('sha256').update(JSON.stringify(values)).digest('hex');
    this.sum = (this.sum + BigInt(`0x${digest}`)) % 2n ** 256n;
    this.rows += 1;
  }

  get hex(): string {
    return this.sum.toString(16).padStart(64, '0');
  }
}

function normalised(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Buffer.isBuffer(value)) return { blob: value.toString('hex') };
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/**
 * The rows of `table` in batches of `size`, in the order of `key` (its primary key, or the rowid), each
 * batch read from where the last ended: no OFFSET, so every batch is one index range.
 */
export async function* readBatches(
  db: Knex,
  table: string,
  columns: readonly string[],
  key: readonly string[],
  size = batchRows,
): AsyncGenerator<Row[]> {
  const list = columns.map(columnSql).join(', ');
  const order = key.map(columnSql).join(', ');
  let after: unknown[] | null = null;
  for (;;) {
    const where = after ? `WHERE (${order}) > (${key.map(() => '?').join(', ')})` : '';
    const rows: Row[] = await selectRows<Row>(
      db,
      `SELECT ${list} FROM ${quoted(table)} ${where} ORDER BY ${order} LIMIT ${size}`,
      (after ?? []) as Knex.RawBinding[],
    );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < size) return;
    const last: Row = rows[rows.length - 1];
    after = key.map((column) => last[column]);
  }
}

/** The checksum of a whole table as it stands. */
export async function tableChecksum(db: Knex, shape: TableShape, columns: readonly string[]): Promise<TableChecksum> {
  const checksum = new TableChecksum(checksumColumns(columns));
  for await (const rows of readBatches(db, shape.name, columns, keyOf(shape, columns)))
    for (const row of rows) checksum.add(row);
  return checksum;
}

/** Columns in the order checksums serialise them: by name, so the dialects' column orders do not matter. */
export function checksumColumns(columns: readonly string[]): string[] {
  return [...columns].sort();
}

/** The key batches are read by: the table's, unless it is a rowid the other side does not keep. */
export function keyOf(shape: TableShape, columns: readonly string[]): readonly string[] {
  return shape.key.every((column) => columns.includes(column)) && shape.key.length > 0 ? shape.key : columns;
}

/**
 * Inserts rows as read from the other dialect, ids and rowids as they are. Each batch travels as one JSON
 * parameter: PostgreSQL unpacks it over the table's row type (`json_populate_recordset`), so each value
 * arrives in its column's type (1 and 0 as booleans), SQLite with `json_each`. Batches holding BLOBs
 * (vectors) are bound instead, the bytes sent as they are rather than as hex inside the JSON.
 */
export async function insertBatch(db: Knex, table: string, columns: readonly string[], rows: Row[]): Promise<void> {
  const list = columns.map(columnSql).join(', ');
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const batch = rows.slice(start, start + rowsPerStatement);
    const blobs = batch.some((row) => columns.some((column) => Buffer.isBuffer(row[column])));
    if (dialectOf(db) === 'postgres' && !blobs) {
      const json = batch.map((row) => Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
      await db.raw(
        `INSERT INTO ${quoted(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${quoted(table)}, ?::json)`,
        [JSON.stringify(json)],
      );
    } else if (blobs) {
      const perStatement = Math.max(1, Math.floor(30_000 / columns.length));
      for (let from = 0; from < batch.length; from += perStatement) {
        const part = batch.slice(from, from + perStatement);
        const values = `(${columns.map(() => '?').join(', ')})`;
        await db.raw(
          `INSERT INTO ${quoted(table)} (${list}) VALUES ${part.map(() => values).join(', ')}`,
          part.flatMap((row) => columns.map((column) => (row[column] ?? null) as Knex.Value)),
        );
      }
    } else {
      const values = columns.map((_, index) => `json_extract(value, '$[${index}]')`).join(', ');
      await db.raw(`INSERT INTO ${quoted(table)} (${list}) SELECT ${values} FROM json_each(?)`, [
        JSON.stringify(batch.map((row) => columns.map((column) => row[column] ?? null))),
      ]);
    }
  }
}

/** How many rows of a table hold the user's data rather than what a new database starts with. */
export async function userRows(db: Db, shape: TableShape, systemTables: ReadonlySet<string>): Promise<number> {
  // The revisions' one-row state, and rows that only belong to system rows (a system workflow's steps).
  if (oneRowState.has(shape.name)) return 0;
  if (shape.parents.length > 0 && shape.parents.every((parent) => systemTables.has(parent)) && !shape.systemRows)
    return 0;
  const where = shape.systemRows ? ' WHERE is_system = FALSE' : '';
  const [row] = await selectRows<{ n: number | string }>(db, `SELECT count(*) AS n FROM ${quoted(shape.name)}${where}`);
  return Number(row.n);
}

/** Tables the revisions create holding one row of counters for the rest. */
const oneRowState = new Set(['graph_version', 'corpus_state']);

export async function countOf(db: Knex, table: string): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(db, `SELECT count(*) AS n FROM ${quoted(table)}`);
  return Number(row.n);
}
