import type { Db } from '../../storage/index.ts';

/**
 * Empties the graph in the caller's transaction (an import that replaces a database): nodes, edges, their
 * sources and vectors, snapshots and every template but the system ones.
 */
export async function clearGraph(trx: Db): Promise<void> {
  // Edges first: their delete triggers adjust node degrees, cheaper while the nodes still exist one by one.
  for (const table of ['edge_sources', 'node_sources', 'graph_edges', 'node_embeddings', 'graph_nodes'] as const)
    await trx(table).delete();
  await trx('graph_templates').where({ is_system: false }).delete();
  await trx('graph_snapshots').delete();
}
