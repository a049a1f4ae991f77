/**
 * Graph search, GraphRAG in the manner of HippoRAG 2: passages and entities in one graph
 * (`passages.ts`), Personalized PageRank from what the query names and what it retrieves, passages
 * ranked by the mass they collect.
 *
 * 1. Seeds, the personalization (`seeds.ts`):
 *    - the entities the query names (`link.ts`, exact names), each weighted by its specificity
 *      (1 / the passages mentioning it); when it names none, the entities most similar to it by
 *      vector (`seedNodes`, ≥ `graphrag.seed_similarity_threshold`, best `seedLimit`);
 *    - the passages keyword (`keywordChunks`) and vector search (`vectorChunks`) find, best
 *      `passageSeeds` of each, keyword's by score relative to its best, vector's spread between the
 *      list's lowest and best similarity (`spread`; the builtin embedder's only when keyword search
 *      finds none); and the first passage of every source whose title such a passage
 *      names.
 *    The entities share `entityShare` of the mass and the passages the rest (either side takes it all
 *    when the other has none): a fifth, as a name matched word for word is as often a generic one
 *    ("Software", "Files") as the subject of the question, and mass given to a generic entity spreads
 *    to every passage mentioning it. No seed at all: the vector chunks, with `fallback` saying so.
 * 2. Personalized PageRank (`ppr.ts`, damping `graphrag.ppr_damping`) over the passage graph masked
 *    to the scope (`scope.ts`); over the `graphrag.max_graph_nodes` nodes nearest the seeds when the
 *    scope is larger.
 * 3. Passages by their mass (`ranking.ts`): relative to the best passage, and, when the query names no
 *    entity as a name (a query typed without capitals links runs of words, guesses), fused with the
 *    seeding retrieval's own scores, so a walk without good seeds keeps the retrieval's order instead
 *    of burying it; the first `keywordLead` keyword passages ahead of them all. The top `graphrag.ppr_top_k` entities (of `scope.templateId` when set), relative
 *    to the best entity, follow a lead of `passageLead` passages. A template filter returns entities
 *    only, as keyword search does. The top entities' 1-hop triples come along (at most
 *    `batching.graphrag_edge_query_limit` per direction and `graphrag.max_triples` in all).
 */
import type { RankedItem, SearchContext, SearchScope, ModeResult } from '../types.ts';
import { chunksInScope } from '../read-model/chunks.ts';
import { readGraphVersion } from '../read-model/graph-rows.ts';
import { graphAdjacency } from './adjacency.ts';
import { linkEntities } from './link.ts';
import { passageGraph, type PassageGraph } from './passages.ts';
import { personalizedPageRank, seedRegion, topNodes, type PprResult } from './ppr.ts';
import { passageMask, scopeMask } from './scope.ts';
import { fusedPassages, keywordLead, withEntities, withKeywordLead } from './ranking.ts';
import { entitySeeds, passageSeeds, relative, retrievalScores, spread } from './seeds.ts';
import { collectTriples, hydrateTriples } from './triples.ts';

export {
  graphAdjacency,
  loadAdjacency,
  buildAdjacencyGraph,
  forgetAdjacency,
  labelOf,
  isOutgoing,
} from './adjacency.ts';
export type { GraphAdjacency, AdjacencyGraph } from './adjacency.ts';
export { readGraphVersion, type GraphVersion } from '../read-model/graph-rows.ts';
export { pageRank, personalizedPageRank, seedRegion, topNodes } from './ppr.ts';
export type { PprOptions, PprResult } from './ppr.ts';
export { passageMask, scopeMask } from './scope.ts';
export type { ScopeMask } from './scope.ts';
export { passageGraph } from './passages.ts';
export type { PassageGraph } from './passages.ts';

/** The retrievals graph search builds on (the modes module wires the real ones). */
export interface GraphSearchDeps {
  /** Nodes most similar to the query, best first, score = cosine similarity in 0–1. */
  seedNodes(context: SearchContext, query: string, k: number, scope?: SearchScope): Promise<RankedItem[]>;
  /** Chunks most similar to the query, best first. Filtered to the scope again here. */
  vectorChunks(context: SearchContext, query: string, k: number, scope?: SearchScope): Promise<RankedItem[]>;
  /** Chunks matching the query's words, best first, score relative to the best (0–1]. Filtered to the scope again here. */
  keywordChunks(context: SearchContext, query: string, k: number, scope?: SearchScope): Promise<RankedItem[]>;
}

export interface GraphSearchOptions {
  /** Vector seed entities kept after the threshold (default 10). */
  seedLimit?: number;
  /** Passages each of keyword and vector search contribute as seeds (default 20). */
  passageSeeds?: number;
  /** The entity seeds' share of the personalization when there are passage seeds too (default 0.2). */
  entityShare?: number;
  /**
   * When vector hits seed the walk: `always`, or `unless-builtin` (default): the builtin embedder ranks
   * passages poorly (a fraction of keyword search on multi-hop questions), so its hits seed the walk
   * only when keyword search finds nothing.
   */
  vectorPassages?: 'always' | 'unless-builtin';
  /**
   * The weight of the seeding retrieval's own score beside the walk's in the passage ranking of a
   * query that links no entity by name (default 4, see `fusedPassages`): mostly the retrieval's
   * order, the walk lifting a passage only where it gives it much more mass than the others.
   */
  retrievalWeight?: number;
  /** Keyword passages placed first, in keyword order, ahead of the walk's ranking (default `keywordLead`). */
  keywordLead?: number;
}

export type GraphSearchMode = (
  context: SearchContext,
  query: string,
  scope: SearchScope,
  limit: number,
) => Promise<ModeResult>;

export const noSeedsFallback = 'no seeds: nothing in the graph matched the query, vector chunks only';

/** Weights scaled to sum to `share`; nothing when they sum to 0. */
function scaled(weights: Map<number, number>, share: number): Map<number, number> {
  let total = 0;
  for (const weight of weights.values()) total += weight;
  const out = new Map<number, number>();
  if (total > 0) for (const [v, weight] of weights) out.set(v, (weight / total) * share);
  return out;
}

export function createGraphSearch(deps: GraphSearchDeps, options: GraphSearchOptions = {}): GraphSearchMode {
  const seedLimit = options.seedLimit ?? 10;
  const passageCount = options.passageSeeds ?? 20;
  const entityShare = options.entityShare ?? 0.2;
  const vectorPassages = options.vectorPassages ?? 'unless-builtin';
  const retrievalWeight = options.retrievalWeight ?? 4;
  const leadCount = options.keywordLead ?? keywordLead;
  return async (context, query, scope, limit) => {
    if (limit <= 0) return { items: [], fallback: null, triples: [] };
    const { db, settings } = context;
    const graphrag = settings.graphrag;
    const [seedItems, vectorItems, keywordItems, linked, version] = await Promise.all([
      deps.seedNodes(context, query, seedLimit * graphrag.vector_overfetch_multiplier, scope),
      deps.vectorChunks(context, query, Math.max(passageCount, 2 * limit), scope),
      deps.keywordChunks(context, query, passageCount, scope),
      linkEntities(db, query),
      readGraphVersion(db),
    ]);
    const adjacency = await graphAdjacency(db, version);
    const graph = await passageGraph(db, adjacency, version);
    const entityScope = await scopeMask(db, adjacency, scope, version.scope);
    const mask = await passageMask(db, graph, entityScope, scope, version.scope);
    const inScope = (v: number | undefined): v is number => v !== undefined && (!mask || mask[v] === 1);

    const similar = seedItems
      .filter((item) => item.kind === 'node' && item.score >= graphrag.seed_similarity_threshold)
      .sort((a, b) => b.score - a.score);
    const entityWeights = entitySeeds(graph, linked, similar, inScope, seedLimit);
    const contents = await chunksInScope(db, [...vectorItems, ...keywordItems], scope);
    const vector = shownChunks(vectorItems, contents);
    const keyword = shownChunks(keywordItems, contents);
    const vectorWanted = vectorPassages === 'always' || settings.embedding.provider !== 'builtin' || !keyword.length;
    const vectorSeeds = vectorWanted ? vector.slice(0, passageCount) : [];
    const retrieved = retrievalScores([keyword.slice(0, passageCount), spread(vectorSeeds)]);
    const passageWeights = passageSeeds(graph, retrieved, contents);
    if (!entityWeights.size && !passageWeights.size)
      return { items: vector.slice(0, limit), fallback: noSeedsFallback, triples: [] };

    // A passage seed outside the graph (a later chunk no entity cites) gets an index past its nodes.
    const outside: string[] = [];
    const passageIndexWeights = new Map<number, number>();
    for (const [id, weight] of passageWeights) {
      const chunk = graph.chunkIndex.get(id);
      if (chunk === undefined) {
        passageIndexWeights.set(graph.nodeCount + outside.length, weight);
        outside.push(id);
      } else if (inScope(graph.entityCount + chunk)) passageIndexWeights.set(graph.entityCount + chunk, weight);
    }
    const named = linked.some((entity) => entity.named);
    const entityPart = passageIndexWeights.size ? (entityWeights.size ? entityShare : 0) : 1;
    const personalization = new Map([
      ...scaled(entityWeights, entityPart),
      ...scaled(passageIndexWeights, 1 - entityPart),
    ]);

    const inGraph = [...personalization.keys()].filter((v) => v < graph.nodeCount);
    const region = seedRegion(graph, inGraph, mask, graphrag.max_graph_nodes);
    const walk = personalizedPageRank(graph, personalization, region, { damping: graphrag.ppr_damping });
    const { scores } = walk;

    const template = scope.templateId === null ? null : adjacency.templates.indexOf(scope.templateId);
    const entities = topNodes(
      scores,
      graphrag.ppr_top_k,
      (v) => v < graph.entityCount && (template === null || adjacency.nodeTemplates[v] === template),
      walk.active,
    );
    const nodes = relative(entities.map((v) => ({ kind: 'node', id: adjacency.ids[v], score: scores[v] })));
    const triples = await hydrateTriples(
      db,
      adjacency,
      collectTriples(adjacency, entities, scores, entityScope.mask, {
        perDirection: settings.batching.graphrag_edge_query_limit,
        total: graphrag.max_triples,
      }),
    );
    if (scope.templateId !== null) return { items: nodes.slice(0, limit), fallback: null, triples };

    // The walk normalises the seeds it holds to 1; an outside seed holds what an isolated node would.
    const held = inGraph.reduce((sum, v) => sum + (region && !region[v] ? 0 : personalization.get(v)!), 0);
    const passages = rankPassages(
      graph,
      walk,
      held,
      limit,
      outside.map((id, i) => ({ id, score: walk.restart * personalization.get(graph.nodeCount + i)! })),
    );
    // A query naming no entity gave the walk only guesses to start from: its retrieval keeps its say.
    const fused = fusedPassages(passages, retrieved, named ? 0 : retrievalWeight, limit);
    const items = withEntities(withKeywordLead(fused, keyword, limit, leadCount), nodes, limit);
    return { items, fallback: null, triples };
  };
}

/** The chunks of a ranking that may be shown (`shown` has them), order kept, duplicates dropped. */
function shownChunks(items: readonly RankedItem[], shown: ReadonlyMap<string, string>): RankedItem[] {
  const seen = new Set<string>();
  return items.filter(
    (item) => item.kind === 'chunk' && shown.has(item.id) && !seen.has(item.id) && (seen.add(item.id), true),
  );
}

/** The `limit` passages with the most mass, outside seeds included, best first. */
function rankPassages(
  graph: PassageGraph,
  { scores, active }: PprResult,
  held: number,
  limit: number,
  outside: { id: string; score: number }[],
): RankedItem[] {
  const inside = topNodes(scores, limit, (v) => v >= graph.entityCount, active).map((v) => ({
    kind: 'chunk' as const,
    id: graph.chunkIds[v - graph.entityCount],
    score: scores[v] * held,
  }));
  const ranked: RankedItem[] = [
    ...inside,
    ...outside.filter((item) => item.score > 0).map((item) => ({ kind: 'chunk' as const, ...item })),
  ];
  return ranked.sort((a, b) => b.score - a.score).slice(0, limit);
}
