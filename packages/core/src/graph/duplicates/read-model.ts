import type { Db } from '../../storage/index.ts';

/** Which of `sourceIds` no longer exist (deleted since a merge recorded them). */
export async function missingSources(db: Db, sourceIds: string[]): Promise<string[]> {
  if (!sourceIds.length) return [];
  const present = new Set((await db('sources').whereIn('id', sourceIds).select('id')).map((row) => row.id as string));
  return sourceIds.filter((id) => !present.has(id));
}
