import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import type { Remote } from '../remote.ts';

/** The ids of the tags named; creating a tag whose name exists (in any case) answers the existing one. */
export async function tagIds(remote: Remote, names: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of new Set(names))
    ids.push((await remote.client.call(sourceEndpoints.createTag, { body: { name } })).id);
  return ids;
}
