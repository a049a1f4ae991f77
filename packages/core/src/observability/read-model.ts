/**
 * Read model of the change feed behind GET /events: it reads `sources.id` and `sources.updated_at` of the
 * sources feature twice a second while someone listens, to tell which sources changed or went away. One
 * indexed query per tick for every listener; the changed rows are then shown through the sources service.
 */
import type { SourceRow } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';

/** `updated_at` of every source, by id. */
export async function sourceStamps(db: Db): Promise<Map<string, string>> {
  const rows = await db('sources').select('id', 'updated_at');
  return new Map(rows.map((row) => [row.id, row.updated_at]));
}

/** Sources written at or after `cursor` (an `updated_at`): `>=`, so two writes within one millisecond are both seen. */
export async function sourcesUpdatedSince(db: Db, cursor: string): Promise<SourceRow[]> {
  return db('sources').where('updated_at', '>=', cursor);
}

export async function sourceCount(db: Db): Promise<number> {
  const row = await db('sources').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function sourceIds(db: Db): Promise<Set<string>> {
  return new Set(await db('sources').pluck('id'));
}
