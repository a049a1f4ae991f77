import type { Knex } from 'knex';
import { removeSourceGraph } from '../../graph/index.ts';

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
  return removeSourceGraph(trx, sourceId);
}
