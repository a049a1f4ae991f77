import type { Knex } from 'knex';
import { placeholders } from '../graph/index.ts';
import type { Db } from '../storage/index.ts';

const jsonBatch = 5_000;

/**
 * Multi-row INSERTs of `rows` (objects keyed by `columns`). Rows travel as one JSON array per batch
 * unpacked by `json_each`: binding tens of thousands of parameters one by one costs the sqlite3
 * driver more than SQLite spends parsing the JSON. Rows holding BLOBs (vectors) are bound instead.
 */
export async function insertRows(db: Db, table: string, columns: readonly string[], rows: Record<string, unknown>[], verb = 'INSERT'): Promise<void> {
  const hasBlobs = rows.some((row) => columns.some((column) => Buffer.isBuffer(row[column])));
  if (hasBlobs) return insertBound(db, table, columns, rows, verb);
  const values = columns.map((_, index) => `json_extract(value, '$[${index}]')`).join(', ');
  for (let start = 0; start < rows.length; start += jsonBatch) {
    const batch = rows.slice(start, start + jsonBatch).map((row) => columns.map((column) => row[column] ?? null));
    await db.raw(`${verb} INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM json_each(?)`, [JSON.stringify(batch)]);
  }
}

async function insertBound(db: Db, table: string, columns: readonly string[], rows: Record<string, unknown>[], verb: string): Promise<void> {
  const perStatement = Math.max(1, Math.floor(30_000 / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    const values = batch.map(() => `(${placeholders(columns.length)})`).join(', ');
    await db.raw(`${verb} INTO ${table} (${columns.join(', ')}) VALUES ${values}`, batch.flatMap((row) => columns.map((column) => (row[column] ?? null) as Knex.Value)));
  }
}

/** `values` in slices small enough for one `json_each` binding each, the results concatenated. */
export async function inSlices<T, R>(values: T[], work: (slice: T[]) => Promise<R[]>, size = 2_000): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < values.length; start += size) results.push(...(await work(values.slice(start, start + size))));
  return results;
}
