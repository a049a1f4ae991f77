import type { Knex } from 'knex';
import type { Db } from './connection.ts';
import { perDialect } from './dialect.ts';

/**
 * Rows a statement carries. Its rows are encoded and bound on the event loop, which in the embedded
 * default also answers the API: at 500 each piece takes a few milliseconds (at 5,000, 40–60 ms).
 */
const rowsPerStatement = 500;

type InsertVerb = 'INSERT' | 'INSERT OR IGNORE';

const hasBlobs = (columns: readonly string[], rows: Record<string, unknown>[]) =>
  rows.some((row) => columns.some((column) => Buffer.isBuffer(row[column])));

/**
 * Multi-row INSERTs of `rows` (objects keyed by `columns`); `INSERT OR IGNORE` skips the rows a unique
 * key already holds. Rows travel as one JSON array per batch, unpacked in SQL: binding tens of thousands
 * of parameters one by one costs the driver more than the server spends parsing the JSON. Rows holding
 * BLOBs (vectors) are bound instead.
 */
export const insertRows: (
  db: Db,
  table: string,
  columns: readonly string[],
  rows: Record<string, unknown>[],
  verb?: InsertVerb,
) => Promise<void> = perDialect({ sqlite: insertSqliteRows, postgres: insertPostgresRows });

/** SQLite unpacks each batch with `json_each`. */
async function insertSqliteRows(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: Record<string, unknown>[],
  verb: InsertVerb = 'INSERT',
): Promise<void> {
  if (hasBlobs(columns, rows)) return insertBound(db, table, columns, rows, `${verb} INTO`, '');
  const values = columns.map((_, index) => `json_extract(value, '$[${index}]')`).join(', ');
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const batch = rows
      .slice(start, start + rowsPerStatement)
      .map((row) => columns.map((column) => row[column] ?? null));
    await db.raw(`${verb} INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM json_each(?)`, [
      JSON.stringify(batch),
    ]);
  }
}

/**
 * PostgreSQL unpacks each batch with `json_populate_recordset` over the table's own row type, so every
 * value arrives in its column's type (a JSON 1 or true in a boolean column, a number in a bigint one).
 */
async function insertPostgresRows(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: Record<string, unknown>[],
  verb: InsertVerb = 'INSERT',
): Promise<void> {
  const conflict = verb === 'INSERT OR IGNORE' ? ' ON CONFLICT DO NOTHING' : '';
  if (hasBlobs(columns, rows)) return insertBound(db, table, columns, rows, 'INSERT INTO', conflict);
  const list = columns.join(', ');
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const batch = rows
      .slice(start, start + rowsPerStatement)
      .map((row) => Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
    await db.raw(
      `INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, ?::json)${conflict}`,
      [JSON.stringify(batch)],
    );
  }
}

/** Statements also stay under SQLite's limit of bound variables (32,766 since 3.32; PostgreSQL's is 65,535). */
async function insertBound(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: Record<string, unknown>[],
  into: string,
  conflict: string,
): Promise<void> {
  const perStatement = Math.min(rowsPerStatement, Math.max(1, Math.floor(30_000 / columns.length)));
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    await db.raw(
      `${into} ${table} (${columns.join(', ')}) VALUES ${batch.map(() => row).join(', ')}${conflict}`,
      batch.flatMap((item) => columns.map((column) => (item[column] ?? null) as Knex.Value)),
    );
  }
}
