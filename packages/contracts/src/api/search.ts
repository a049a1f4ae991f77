import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Nullable, OneOf } from './common.ts';

const tag = 'search';

/** The `search_type` values; `graph` is Rhizome's addition to the usual three. */
export const searchTypes = ['keyword', 'semantic', 'hybrid', 'graph'] as const;
export type SearchType = (typeof searchTypes)[number];

/** Search `limit`: default 50, maximum 1000, a larger value clamped, not refused (docs/api-conventions.md#limits). */
export const searchLimitDefault = 50;
export const searchLimitMax = 1000;

/** The search answer's objects. */
export const SearchNodeHit = Type.Object({
  id: Type.String(),
  label: Type.String(),
  template_id: Nullable(Type.String()),
  edge_count: Type.Integer({ description: 'incoming plus outgoing edges (a self-loop counts twice)' }),
});

export const ChunkResult = Type.Object({
  chunk_id: Type.String(),
  source_id: Type.String(),
  chunk_index: Type.Integer(),
  content: Type.String(),
  page_number: Nullable(Type.Integer()),
  section: Nullable(Type.String()),
  filename: Type.String({ description: "the source's filename (its title or URL when it has none)" }),
});

export const SearchResult = Type.Object({
  result_type: OneOf(['node', 'chunk'] as const),
  score: Type.Number({
    description:
      'relevance in 0–1 in every mode, higher is better: keyword, BM25 relative to the best hit of its kind (the best node and the best chunk score 1); ' +
      'semantic, cosine similarity (absolute, comparable across queries); graph and hybrid, personalised PageRank mass relative to the best passage and the best entity',
  }),
  node: Nullable(SearchNodeHit),
  chunk: Nullable(ChunkResult),
});
export type SearchResultBody = Static<typeof SearchResult>;

const TripleEnd = Type.Object({ id: Type.String(), label: Type.String(), template_id: Type.String() });
export const SearchTriple = Type.Object({ source: TripleEnd, relationship: Type.String(), target: TripleEnd });

const modes = [
  'keyword (default): BM25 full text over node labels (weighted 3) and properties and over chunk text, each kind scored',
  'relative to its best hit, then merged; `"exact phrase"` and a trailing `term*` (2+ characters) are honoured, any other',
  'query syntax is searched as plain words; terms are ANDed, and when nothing contains them all the search retries with any',
  'term and says so in `fallback`. semantic: vector similarity. graph (extension): GraphRAG over passages and entities in one',
  'graph, personalised PageRank seeded by the entities the query names and the passages keyword search finds (and those they',
  'name by title), passages ranked by the mass they collect, with the traversed `triples`. hybrid: the same walk seeded by',
  'keyword and vector hits alike (keyword alone, and why, when there is no vector result)',
].join(' ');

export const searchEndpoints = {
  search: endpoint({
    method: 'GET',
    path: '/search',
    tag,
    status: 200,
    errors: [422],
    summary:
      'Search nodes and the chunks of enabled sources by keyword (default), semantic, hybrid or graph (extension); extensions: ' +
      '`source_ids` and `template_id` filters, `fallback` (why a mode fell back) and `triples` (graph mode) in the response',
    query: Type.Object({
      q: Type.String({ description: 'the query; input without a searchable word gives no results' }),
      search_type: Type.Optional(
        Type.Unsafe<SearchType>({ type: 'string', enum: [...searchTypes], default: 'keyword', description: modes }),
      ),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, default: searchLimitDefault, description: `clamped to ${searchLimitMax}` }),
      ),
      source_ids: Type.Optional(
        Type.Union([Type.Array(Type.String()), Type.String()], {
          description:
            'extension: only chunks of these sources and nodes they contributed; comma-separated, or repeat the parameter',
        }),
      ),
      template_id: Type.Optional(
        Type.String({ minLength: 1, description: 'extension: only nodes of this template (no chunks)' }),
      ),
    }),
    response: Type.Object({
      data: Type.Array(SearchResult),
      type: Type.String({ description: 'the search_type that ran' }),
      fallback: Nullable(
        Type.String({
          description: 'extension: why the mode fell back (e.g. hybrid to keyword, keyword to any term), else null',
        }),
      ),
      triples: Type.Optional(
        Type.Array(SearchTriple, { description: 'extension: graph mode only, the node–edge–node steps traversed' }),
      ),
    }),
  }),
};
