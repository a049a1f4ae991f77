import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import type { Remote } from '../remote.ts';

/** The ids of the tags named, creating the ones that do not exist yet. */
export async function tagIds(remote: Remote, names: readonly string[]): Promise<string[]> {
  if (!names.length) return [];
  const { tags } = await remote.client.call(sourceEndpoints.listTags);
  const ids: string[] = [];
  for (const name of new Set(names)) {
    const found = tags.find((tag) => tag.name === name);
    ids.push(found ? found.id : (await remote.client.call(sourceEndpoints.createTag, { body: { name } })).id);
  }
  return ids;
}
