/**
 * Graph search, GraphRAG (prior-art §4.7; issue 8 scope 4): from the entities most similar to the
 * query, follow the graph to the passages that support what they are connected to.
 *
 * 1. Seeds: `seedNodes(query, seedLimit × graphrag.vector_overfetch_multiplier)`, node items with a
 *    similarity ≥ `graphrag.seed_similarity_threshold`, in scope, best `seedLimit` kept. None: the
 *    vector chunks alone, with `fallback` saying so.
 * 2. Personalized PageRank (`ppr.ts`) over the cached adjacency (`adjacency.ts`) masked to the scope
 *    (`scope.ts`), personalised by the seeds' similarities, damping `graphrag.ppr_damping`; when the
 *    scope has more than `graphrag.max_graph_nodes` nodes, over that many nearest the seeds.
 * 3. Top `graphrag.ppr_top_k` entities (of `scope.templateId` when set); their 1-hop triples, at most
 *    `batching.graphrag_edge_query_limit` per direction and `graphrag.max_triples` in all.
 * 4. Three rankings fused by reciprocal rank fusion (k = 60) into one list of `limit` items:
 *    - provenance chunks of the top entities (`chunks.ts`), 2 × limit;
 *    - vector chunks, `vectorChunks(query, 2 × limit)`, in scope;
 *    - the top entities themselves as node items, in PPR order.
 *    A chunk both cited by a top entity and similar to the query gets two terms and leads; then chunks
 *    and entities interleave by their position in their own list (the entity PPR ranked r-th ties with
 *    the r-th provenance or vector chunk; ties keep that order: provenance, vector, entity). So
 *    entities show up among the passages instead of all before or after them, and every score is on
 *    the one RRF scale.
 */
import type { RankedItem, SearchContext, SearchScope, ModeResult } from '../types.ts';
import { reciprocalRankFusion } from '../rrf.ts';
import { graphAdjacency, readGraphVersion, type GraphAdjacency } from './adjacency.ts';
import { chunksInScope, provenanceChunks } from './chunks.ts';
import { personalizedPageRank, seedRegion, topNodes } from './ppr.ts';
import { scopeMask } from './scope.ts';
import { collectTriples, hydrateTriples } from './triples.ts';

export { graphAdjacency, readGraphVersion, loadAdjacency, buildAdjacencyGraph, forgetAdjacency, labelOf, isOutgoing } from './adjacency.ts';
export type { GraphAdjacency, AdjacencyGraph, GraphVersion } from './adjacency.ts';
export { personalizedPageRank, seedRegion, topNodes } from './ppr.ts';
export type { PprOptions, PprResult } from './ppr.ts';
export { scopeMask } from './scope.ts';
export type { ScopeMask } from './scope.ts';

/** The retrieval graph search builds on (vector search; the lead wires the real ones). */
export interface GraphSearchDeps {
  /** Nodes most similar to the query, best first, score = cosine similarity in 0–1. */
  seedNodes(context: SearchContext, query: string, k: number, scope?: SearchScope): Promise<RankedItem[]>;
  /** Chunks most similar to the query, best first. Filtered to the scope again here. */
  vectorChunks(context: SearchContext, query: string, k: number, scope?: SearchScope): Promise<RankedItem[]>;
}

export interface GraphSearchOptions {
  /** Seeds kept after the threshold (prior-art `seed_limit`, default 10). */
  seedLimit?: number;
}

export type GraphSearchMode = (context: SearchContext, query: string, scope: SearchScope, limit: number) => Promise<ModeResult>;

export const noSeedsFallback = 'no seed entities: vector chunks only';

/** Seeds as dense indices → similarity: node items above the threshold, in scope, best `limit`. */
function pickSeeds(items: readonly RankedItem[], adjacency: GraphAdjacency, mask: Uint8Array | null, threshold: number, limit: number): Map<number, number> {
  const seeds = new Map<number, number>();
  const ranked = items.filter((item) => item.kind === 'node' && item.score >= threshold).sort((a, b) => b.score - a.score);
  for (const item of ranked) {
    if (seeds.size >= limit) break;
    const v = adjacency.index.get(item.id);
    if (v === undefined || (mask && !mask[v]) || seeds.has(v)) continue;
    seeds.set(v, item.score);
  }
  return seeds;
}

export function createGraphSearch(deps: GraphSearchDeps, options: GraphSearchOptions = {}): GraphSearchMode {
  const seedLimit = options.seedLimit ?? 10;
  return async (context, query, scope, limit) => {
    if (limit <= 0) return { items: [], fallback: null, triples: [] };
    const { db, settings } = context;
    const graphrag = settings.graphrag;
    const [seedItems, vectorItems, version] = await Promise.all([
      deps.seedNodes(context, query, seedLimit * graphrag.vector_overfetch_multiplier, scope),
      deps.vectorChunks(context, query, 2 * limit, scope),
      readGraphVersion(db),
    ]);
    const adjacency = await graphAdjacency(db, version);
    const { mask } = await scopeMask(db, adjacency, scope, version.scope);
    const vector = await chunksInScope(db, vectorItems, scope);
    const seeds = pickSeeds(seedItems, adjacency, mask, graphrag.seed_similarity_threshold, seedLimit);
    if (!seeds.size) return { items: vector.slice(0, limit), fallback: noSeedsFallback, triples: [] };

    const region = seedRegion(adjacency, [...seeds.keys()], mask, graphrag.max_graph_nodes);
    const { scores } = personalizedPageRank(adjacency, seeds, region, { damping: graphrag.ppr_damping });
    const template = scope.templateId === null ? null : adjacency.templates.indexOf(scope.templateId);
    const entities = topNodes(scores, graphrag.ppr_top_k, template === null ? undefined : (v) => adjacency.nodeTemplates[v] === template);

    const ranked = entities.map((v) => ({ id: adjacency.ids[v], score: scores[v] }));
    const [triples, provenance] = await Promise.all([
      hydrateTriples(db, adjacency, collectTriples(adjacency, entities, scores, mask, { perDirection: settings.batching.graphrag_edge_query_limit, total: graphrag.max_triples })),
      provenanceChunks(db, ranked, scope, 2 * limit),
    ]);
    const nodes: RankedItem[] = ranked.map((entity) => ({ kind: 'node', id: entity.id, score: entity.score }));
    return { items: reciprocalRankFusion([provenance, vector, nodes], limit), fallback: null, triples };
  };
}
