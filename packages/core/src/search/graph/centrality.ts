import type { Db } from '../../storage/index.ts';
import { graphAdjacency } from './adjacency.ts';
import { pageRank, topNodes } from './ppr.ts';

/** The usual PageRank damping (graph search's own walk takes `graphrag.ppr_damping`). */
const damping = 0.85;

/** The `top` most central nodes of the whole graph by PageRank over the cached adjacency, best first. */
export async function centralNodes(db: Db, top: number): Promise<{ id: string; score: number }[]> {
  const adjacency = await graphAdjacency(db);
  const { scores, active } = pageRank(adjacency, null, { damping });
  return topNodes(scores, top, undefined, active).map((v) => ({ id: adjacency.ids[v], score: scores[v] }));
}
