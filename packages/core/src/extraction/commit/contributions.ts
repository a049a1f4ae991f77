import type { Knex } from 'knex';
import { releaseSourceTemplates } from './template-ownership.ts';

const inBatches = async <T>(items: T[], size: number, work: (batch: T[]) => Promise<unknown>) => {
  for (let start = 0; start < items.length; start += size) await work(items.slice(start, start + size));
};

/**
 * Takes back everything a source contributed to the graph (before a re-commit, and when the source is
 * deleted): its entity and relationship citations; the extracted nodes and edges no other source
 * contributed; and its use of the shared templates, a template going once nothing uses it. Returns
 * the ids of the nodes and edges deleted.
 */
export async function removeContribution(
  trx: Knex.Transaction,
  sourceId: string,
): Promise<{ nodes: string[]; edges: string[] }> {
  await trx('source_citations').where({ source_id: sourceId }).delete();
  await trx('relationship_citations').where({ source_id: sourceId }).delete();
  const edges = await dropOwned(trx, sourceId, 'edge');
  const nodes = await dropOwned(trx, sourceId, 'node');
  await releaseSourceTemplates(trx, sourceId);
  return { nodes, edges };
}

async function dropOwned(trx: Knex.Transaction, sourceId: string, kind: 'node' | 'edge'): Promise<string[]> {
  const links = `${kind}_sources`;
  const column = `${kind}_id`;
  const table = kind === 'node' ? 'graph_nodes' : 'graph_edges';
  const touched = ((await trx(links).where({ source_id: sourceId }).select(column)) as Record<string, string>[]).map(
    (row) => row[column],
  );
  await trx(links).where({ source_id: sourceId }).delete();
  const owned: string[] = [];
  await inBatches(touched, 500, async (ids) => {
    const rows = (await trx(table)
      .whereIn('id', ids)
      .where({ extracted: true })
      .whereNotExists(trx(links).whereRaw(`${links}.${column} = ${table}.id`))
      .select('id')) as { id: string }[];
    owned.push(...rows.map((row) => row.id));
  });
  await inBatches(owned, 500, (ids) => trx(table).whereIn('id', ids).delete());
  return owned;
}
