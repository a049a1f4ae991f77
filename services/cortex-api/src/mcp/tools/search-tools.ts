import { Type } from '@sinclair/typebox';
import { searchLimitMax } from '@rhizome/contracts/api/search';
import { searchModule, type SearchType } from '@rhizome/core/search';
import { deprecated, tool, type ToolContext } from '../tool.ts';

const Query = Type.String({ minLength: 1, maxLength: 2000, description: 'what to look for, in plain words' });
const Limit = (fallback: number) =>
  Type.Integer({ minimum: 1, maximum: 100, default: fallback, description: `how many results (default ${fallback})` });
const SourceIds = Type.Array(Type.String({ minLength: 1 }), {
  description: 'only these sources (default: every enabled source)',
});

/** One mode's ranking, hydrated: what GET /search answers. */
export async function search(
  { scope }: ToolContext,
  type: SearchType,
  query: string,
  limit: number,
  narrow: { sourceIds?: string[]; templateId?: string },
) {
  const within = {
    sourceIds: narrow.sourceIds?.length ? narrow.sourceIds : null,
    templateId: narrow.templateId ?? null,
  };
  const answer = await (await scope.service(searchModule)).search(type, query, within, Math.min(limit, searchLimitMax));
  return { results: answer.data, fallback: answer.fallback, triples: answer.triples ?? [] };
}

/** A chunk hit as a citation an agent can quote: where it comes from and what it says. */
const passage = (
  chunk: {
    chunk_id: string;
    source_id: string;
    filename: string;
    chunk_index: number;
    page_number: number | null;
    section: string | null;
    content: string;
  },
  score: number,
) => ({
  chunk_id: chunk.chunk_id,
  source_id: chunk.source_id,
  source: chunk.filename,
  chunk_index: chunk.chunk_index,
  page: chunk.page_number,
  section: chunk.section,
  score,
  text: chunk.content,
});

/**
 * Up to `limit` passages taken in turns from each source, best first within a source, so a summary
 * hears every document that matches; a passage repeating most of the words of one already taken is
 * skipped.
 */
function spreadOverSources<T extends { source_id: string; text: string }>(ranked: T[], limit: number): T[] {
  const bySource = new Map<string, T[]>();
  for (const chunk of ranked) bySource.set(chunk.source_id, [...(bySource.get(chunk.source_id) ?? []), chunk]);
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const taken: { chunk: T; words: Set<string> }[] = [];
  const repeats = (candidate: Set<string>) =>
    taken.some(({ words: seen }) => {
      let shared = 0;
      for (const word of candidate) if (seen.has(word)) shared++;
      return shared >= 0.8 * Math.min(candidate.size, seen.size);
    });
  const queues = [...bySource.values()];
  while (taken.length < limit && queues.some((queue) => queue.length)) {
    for (const queue of queues) {
      const chunk = queue.shift();
      if (!chunk || taken.length >= limit) continue;
      const chunkWords = words(chunk.text);
      if (!repeats(chunkWords)) taken.push({ chunk, words: chunkWords });
    }
  }
  return taken.map(({ chunk }) => chunk);
}

export const searchTools = [
  tool({
    name: 'graphrag_search',
    kind: 'read',
    description:
      'Answer a question from the knowledge graph (GraphRAG): the passages that best support it with their citations (chunks), and the entities and relationships the walk went through (graph_context).',
    input: Type.Object({
      query: Query,
      limit: Limit(10),
      seed_limit: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 10,
        description: 'how many of the entities the walk reached to list in graph_context (default 10)',
      }),
      source_ids: Type.Optional(SourceIds),
    }),
    async run({ query, limit, seed_limit, source_ids }, context) {
      const { results, fallback, triples } = await search(context, 'graph', query, limit + seed_limit, {
        sourceIds: source_ids,
      });
      const chunks = results.flatMap((result) => (result.chunk ? [passage(result.chunk, result.score)] : []));
      const entities = results.flatMap((result) => (result.node ? [{ ...result.node, score: result.score }] : []));
      return {
        success: true,
        query,
        graph_context: { entities: entities.slice(0, seed_limit), relationships: triples },
        chunks: chunks.slice(0, limit),
        retrieval_stats: {
          mode: 'graph',
          chunks_returned: Math.min(chunks.length, limit),
          entities_returned: Math.min(entities.length, seed_limit),
          relationships_returned: triples.length,
          fallback,
        },
      };
    },
  }),
  tool({
    name: 'get_summary_context',
    kind: 'read',
    description:
      'Passages for summarising a topic across the documents: the best matches, spread over as many sources as possible, with near-repeats left out.',
    input: Type.Object({ query: Query, limit: Limit(20) }),
    async run({ query, limit }, context) {
      const { results } = await search(context, 'hybrid', query, Math.min(limit * 3, searchLimitMax), {});
      const analyzed = results.flatMap((result) => (result.chunk ? [passage(result.chunk, result.score)] : []));
      const chunks = spreadOverSources(analyzed, limit);
      return {
        success: true,
        strategy: 'diverse_sources',
        chunks_analyzed: analyzed.length,
        chunks_selected: chunks.length,
        sources_used: new Set(chunks.map((chunk) => chunk.source_id)).size,
        chunks,
      };
    },
  }),
  deprecated(
    'graphrag_search',
    tool({
      name: 'graph_search',
      kind: 'read',
      description:
        'Answer a question from the knowledge graph (GraphRAG): the passages that best support it with their citations, the entities involved and the relationships traversed.',
      input: Type.Object({ query: Query, limit: Limit(10), source_ids: Type.Optional(SourceIds) }),
      async run({ query, limit, source_ids }, context) {
        const { results, fallback, triples } = await search(context, 'graph', query, limit, { sourceIds: source_ids });
        return {
          passages: results.flatMap((result) => (result.chunk ? [passage(result.chunk, result.score)] : [])),
          entities: results.flatMap((result) => (result.node ? [{ ...result.node, score: result.score }] : [])),
          triples,
          fallback,
        };
      },
    }),
  ),
  tool({
    name: 'search_nodes',
    kind: 'read',
    description:
      'Find entities (nodes) by name or meaning; returns ids, labels, templates and edge counts to pass to get_node or get_node_context.',
    input: Type.Object({
      query: Query,
      limit: Limit(10),
      template_ids: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), { description: 'only nodes of these templates' }),
      ),
      mode: Type.Union([Type.Literal('keyword'), Type.Literal('semantic')], {
        default: 'keyword',
        description: 'keyword (names, BM25) or semantic (meaning)',
      }),
      template_id: Type.Optional(
        Type.String({ minLength: 1, description: 'Deprecated: use template_ids. Only nodes of this template' }),
      ),
    }),
    async run({ query, limit, mode, template_ids, template_id }, context) {
      const wanted = [...(template_ids ?? []), ...(template_id === undefined ? [] : [template_id])];
      const narrow = wanted.length === 1 ? { templateId: wanted[0] } : {};
      const { results, fallback } = await search(context, mode, query, limit * 4, narrow);
      const found = results.flatMap((result) => (result.node ? [{ ...result.node, score: result.score }] : []));
      const kept = found.filter(
        (node) => wanted.length <= 1 || (node.template_id !== null && wanted.includes(node.template_id)),
      );
      const nodes = kept.slice(0, limit);
      return {
        success: true,
        count: nodes.length,
        nodes,
        chunks_found: results.filter((result) => result.chunk).length,
        filtered_out: found.length - kept.length,
        query,
        template_filter: wanted.length ? wanted : null,
        result_types: ['node'],
        hint: nodes.length
          ? 'Pass a node id to get_node_context for its edges and citations.'
          : 'No entity matched: try search_chunks for passages, or other words.',
        fallback,
      };
    },
  }),
  tool({
    name: 'search_chunks',
    kind: 'read',
    description:
      'Find passages of the documents by words or meaning; each carries its source, chunk id, page and text to quote.',
    input: Type.Object({
      query: Query,
      limit: Limit(5),
      source_id: Type.Optional(Type.String({ minLength: 1, description: 'only this source' })),
      source_ids: Type.Optional(SourceIds),
      mode: Type.Union([Type.Literal('keyword'), Type.Literal('semantic'), Type.Literal('hybrid')], {
        default: 'hybrid',
        description: 'keyword, semantic or hybrid (both, default)',
      }),
    }),
    async run({ query, limit, mode, source_id, source_ids }, context) {
      const sourceIds = [...(source_ids ?? []), ...(source_id === undefined ? [] : [source_id])];
      const { results, fallback } = await search(context, mode, query, limit * 4, { sourceIds });
      const chunks = results
        .flatMap((result) => (result.chunk ? [passage(result.chunk, result.score)] : []))
        .slice(0, limit);
      return { success: true, count: chunks.length, chunks, query, fallback };
    },
  }),
  tool({
    name: 'search_templates',
    kind: 'read',
    description:
      'Find node and edge templates (entity and relationship types) by name or meaning, to filter by type or create nodes and edges.',
    input: Type.Object({ query: Query, limit: Limit(10) }),
    async run({ query, limit }, { scope }) {
      const { templates, fallback } = await (await scope.service(searchModule)).templates(query, limit);
      return {
        templates: templates.map((template) => ({
          id: template.id,
          name: template.name,
          template_type: template.template_type,
          description: template.description,
        })),
        fallback,
      };
    },
  }),
];
