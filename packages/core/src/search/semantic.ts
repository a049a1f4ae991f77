import { withEntities } from './graph/ranking.ts';
import type { EmbeddingIdentity } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { chunkLabelScope, labelFilter, nodeLabelScope, type LabelScope } from './read-model/label-scope.ts';
import type { ModeResult, RankedItem, SearchContext, SearchScope } from './types.ts';
import { describeIdentity, hasOrphanedVectors } from './read-model/vector-identity.ts';
import { idsOfLabels } from './read-model/vector-sources.ts';
import type { VectorKind } from './vectors/files.ts';
import { corpusAware } from './vectors/corpus/embed.ts';
import type { VectorHit } from './vectors/port.ts';
import { vectorReaders, type VectorReaders } from './vectors/readers.ts';
import { describeError } from '@rhizome/contracts/errors';

/**
 * Semantic search: the query's embedding (with the database's corpus part, for the builtin embedder:
 * vectors/corpus) against the vector indexes of chunks and nodes, by cosine
 * similarity (hnswlib's cosine space; negative similarities, which text embeddings hardly produce, are
 * floored at 0 so scores lie in 0–1, comparable with `search.min_similarity_threshold`). The scope and
 * the enabled sources are applied inside the index walk by its filter callback (`read-model/label-scope.ts`); a
 * scope of at most `exactScopeLimit` items is searched exactly instead. Each index also covers, by an
 * exact scan, the vectors SQLite has and it lacks yet (`readers.ts`, decision 0010).
 *
 * Falls back (no items, `fallback` saying why, the caller then runs keyword search) when vector search
 * is disabled, when the query cannot be embedded, and when stored vectors of another model or dimensions
 * are left (the index needs a rebuild: `POST /search/indexes`).
 */

/** A query: text to embed, or a vector the caller already embedded with the configured embedder (one embedding for several searches). */
export type SemanticQuery = string | Float32Array;

export interface TemplateHit {
  id: string;
  score: number;
}

export interface SemanticSearch {
  /** The `semantic` search mode: chunks and nodes merged by similarity, at most `limit`. */
  search(context: SearchContext, query: string, scope: SearchScope, limit: number): Promise<ModeResult>;
  /** Chunks only (graph search's vector chunks). */
  chunks(context: SearchContext, query: SemanticQuery, scope: SearchScope, k: number): Promise<ModeResult>;
  /** Nodes only (graph search's seed entities). */
  nodes(context: SearchContext, query: SemanticQuery, scope: SearchScope, k: number): Promise<ModeResult>;
  /** Templates by meaning (they have no sources, so no scope). */
  templates(
    context: SearchContext,
    query: SemanticQuery,
    k: number,
  ): Promise<{ items: TemplateHit[]; fallback: string | null }>;
}

export const vectorSearchDisabled = 'vector_search_disabled: search.enable_vector_search is off';

/** Scopes up to this many items are searched exactly, from SQLite, instead of by a filtered HNSW walk. */
const exactScopeLimit = 2_048;
const maxLimit = 1_000;

type Prepared = { vector: Float32Array; identity: EmbeddingIdentity } | { fallback: string | null };

export function createSemanticSearch(readers: VectorReaders = vectorReaders): SemanticSearch {
  /** The query's vector and identity, or why there is nothing to search. */
  async function prepare(context: SearchContext, query: SemanticQuery): Promise<Prepared> {
    if (!context.settings.search.enable_vector_search) return { fallback: vectorSearchDisabled };
    let vector: Float32Array;
    if (typeof query === 'string') {
      if (!query.trim()) return { fallback: null };
      try {
        const embed = corpusAware(
          context.db,
          () => context.embeddings.identity(),
          (texts) => context.embeddings.embed(texts, { context: { database: context.database } }),
        );
        [vector] = await embed([query]);
      } catch (error) {
        return { fallback: `embedding_failed: the query could not be embedded (${message(error)})` };
      }
    } else {
      vector = query;
    }
    const { provider, model } = context.embeddings.identity();
    const identity = { provider, model, dimensions: vector.length };
    if (await hasOrphanedVectors(context.db, identity)) {
      return {
        fallback: `index_needs_rebuild: stored embeddings were made by another model or have other dimensions than ${describeIdentity(identity)}; POST /search/indexes re-embeds them`,
      };
    }
    return { vector, identity };
  }

  /** The `k` most similar items of one kind within the scope, as ids. */
  async function rank(
    context: SearchContext,
    kind: 'chunks' | 'nodes',
    vector: Float32Array,
    identity: EmbeddingIdentity,
    scope: SearchScope,
    k: number,
  ): Promise<RankedItem[]> {
    const labels =
      kind === 'chunks' ? await chunkLabelScope(context.db, scope) : await nodeLabelScope(context.db, scope);
    if (labels.empty) return [];
    const itemKind = kind === 'chunks' ? 'chunk' : 'node';
    const hits = await nearest(context.db, kind, vector, identity, labels, k);
    return hits.map((hit) => ({ kind: itemKind, id: hit.id, score: hit.score }));
  }

  /** Hits mapped to item ids; labels whose row is gone (an index lagging a delete) are dropped and the search widened. */
  async function nearest(
    db: Db,
    kind: VectorKind,
    vector: Float32Array,
    identity: EmbeddingIdentity,
    labels: LabelScope,
    k: number,
  ): Promise<TemplateHit[]> {
    const reader = readers.reader(db, kind, identity);
    const allowed =
      labels.denied && labels.allowed ? labels.allowed.filter((label) => !labels.denied!.has(label)) : labels.allowed;
    if (allowed && allowed.length <= exactScopeLimit)
      return idsOf(db, kind, await reader.searchAmong(vector, allowed, k), k);
    const filter = labelFilter(labels);
    let wanted = Math.ceil(k * 1.2) + 8;
    for (let attempt = 0; ; attempt += 1) {
      const hits = await reader.search(vector, wanted, filter);
      const found = await idsOf(db, kind, hits, k);
      if (found.length >= k || hits.length < wanted || attempt === 2) return found;
      wanted *= 4;
    }
  }

  /** Runs `run` on the query's vector, or answers why there is nothing to search. */
  async function prepared<I>(
    context: SearchContext,
    query: SemanticQuery,
    run: (vector: Float32Array, identity: EmbeddingIdentity) => Promise<I[]>,
  ): Promise<{ items: I[]; fallback: string | null }> {
    const ready = await prepare(context, query);
    if (!('vector' in ready)) return { items: [], fallback: ready.fallback };
    try {
      return { items: await run(ready.vector, ready.identity), fallback: null };
    } catch (error) {
      return { items: [], fallback: `vector_search_failed: ${message(error)}` };
    }
  }

  return {
    search: (context, query, scope, limit) =>
      prepared(context, query, async (vector, identity) => {
        const size = clamp(limit);
        const nodes = await rank(context, 'nodes', vector, identity, scope, size);
        const chunks = await rank(context, 'chunks', vector, identity, scope, size);
        // An entity's vector is made from a few words and lies close to many queries; passages answer.
        return withEntities(chunks, nodes, size);
      }),
    chunks: (context, query, scope, k) =>
      prepared(context, query, (vector, identity) => rank(context, 'chunks', vector, identity, scope, clamp(k))),
    nodes: (context, query, scope, k) =>
      prepared(context, query, (vector, identity) => rank(context, 'nodes', vector, identity, scope, clamp(k))),
    templates: (context, query, k) =>
      prepared(context, query, (vector, identity) =>
        nearest(context.db, 'templates', vector, identity, { empty: false, allowed: null, denied: null }, clamp(k)),
      ),
  };
}

/** Item ids of the hits, best first, at most `k`; cosine floored at 0. */
async function idsOf(db: Db, kind: VectorKind, hits: VectorHit[], k: number): Promise<TemplateHit[]> {
  if (!hits.length) return [];
  const ids = await idsOfLabels(
    db,
    kind,
    hits.map((hit) => hit.label),
  );
  const found: TemplateHit[] = [];
  for (const hit of hits) {
    const id = ids.get(hit.label);
    if (id !== undefined) found.push({ id, score: Math.min(1, Math.max(0, hit.similarity)) });
    if (found.length === k) break;
  }
  return found;
}

function clamp(limit: number): number {
  return Math.min(maxLimit, Math.max(1, Math.floor(limit) || 1));
}

function message(error: unknown): string {
  return describeError(error);
}

const shared = createSemanticSearch();

/** The `semantic` search mode of this process: register it as `searchModes.semantic`. */
export const semanticSearch = shared.search;
/** The chunks most similar to `query` within the scope (graph search's vector chunks). */
export const semanticChunks = shared.chunks;
/** The nodes most similar to `query` within the scope (graph search's seeds). */
export const semanticNodes = shared.nodes;
/** The templates most similar to `query`. */
export const semanticTemplates = shared.templates;
