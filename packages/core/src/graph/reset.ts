import type { Db } from '../storage/index.ts';

export interface ClearedGraph {
  nodes_deleted: number;
  edges_deleted: number;
}

/**
 * Empties the graph's contents in the caller's transaction: nodes, edges, their sources and vectors, the
 * merge journal, remembered duplicate rejections and snapshots. Templates stay.
 */
export async function clearGraphContents(trx: Db): Promise<ClearedGraph> {
  const count = async (table: 'graph_nodes' | 'graph_edges') =>
    Number(((await trx(table).count({ n: '*' }).first()) as { n: number | string } | undefined)?.n ?? 0);
  const cleared = { nodes_deleted: await count('graph_nodes'), edges_deleted: await count('graph_edges') };
  // Edges first: their delete triggers adjust node degrees, cheaper while the nodes still exist one by one.
  for (const table of [
    'edge_sources',
    'node_sources',
    'template_sources',
    'graph_edges',
    'node_embeddings',
    'node_merges',
    'duplicate_rejections',
    'graph_nodes',
    'graph_snapshots',
  ] as const)
    await trx(table).delete();
  return cleared;
}

/** Deletes every template but the system ones, as a new database has them. */
export function clearUserTemplates(trx: Db): Promise<number> {
  return trx('graph_templates').where({ is_system: false }).delete();
}
