import { NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../storage/index.ts';

const lookupChunk = 500;

/** The ids among `ids` that name no source, in the order given, each once. */
export async function unknownSourceIds(db: Db, ids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  const known = new Set<string>();
  for (let start = 0; start < wanted.length; start += lookupChunk) {
    for (const id of (await db('sources')
      .whereIn('id', wanted.slice(start, start + lookupChunk))
      .pluck('id')) as string[])
      known.add(id);
  }
  return wanted.filter((id) => !known.has(id));
}

/** 404 NOT_FOUND naming every unknown id, so a request about sources never runs silently on fewer of them. */
export async function requireSources(db: Db, ids: readonly string[]): Promise<void> {
  const unknown = await unknownSourceIds(db, ids);
  if (!unknown.length) return;
  const listed = unknown.slice(0, 20).join(', ') + (unknown.length > 20 ? ` and ${unknown.length - 20} more` : '');
  throw new NotFound(`${unknown.length === 1 ? 'source' : 'sources'} not found: ${listed}`, {
    resource_type: 'source',
    identifier: listed,
    unknown_ids: unknown,
  });
}
