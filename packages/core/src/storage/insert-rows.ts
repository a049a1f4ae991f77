import type { Knex } from 'knex';
import type { Db } from './connection.ts';

/**
 * Rows a statement carries. Its rows are encoded and bound on the event loop, which in the embedded
 * default also answers the API: at 500 each piece takes a few milliseconds (at 5,000, 40–60 ms).
 */
const rowsPerStatement = 500;

/**
 * Multi-row INSERTs of `rows` (objects keyed by `columns`). Rows travel as one JSON array per batch
 * unpacked by `json_each`: binding tens of thousands of parameters one by one costs the sqlite3
 * driver more than SQLite spends parsing the JSON. Rows holding BLOBs (vectors) are bound instead.
 */
export async function insertRows(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: Record<string, unknown>[],
  verb = 'INSERT',
): Promise<void> {
  const hasBlobs = rows.some((row) => columns.some((column) => Buffer.isBuffer(row[column])));
  if (hasBlobs) return insertBound(db, table, columns, rows, verb);
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

/** Statements also stay under SQLite's limit of bound variables (32,766 since 3.32). */
async function insertBound(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: Record<string, unknown>[],
  verb: string,
): Promise<void> {
  const perStatement = Math.min(rowsPerStatement, Math.max(1, Math.floor(30_000 / columns.length)));
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    await db.raw(
      `${verb} INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => row).join(', ')}`,
      batch.flatMap((item) => columns.map((column) => (item[column] ?? null) as Knex.Value)),
    );
  }
}
