import { Type } from '@sinclair/typebox';
import { searchLimitMax } from '@rhizome/contracts/api/search';
import { allTemplates } from '@rhizome/core/graph';
import { searchModule, semanticTemplates, type SearchContext, type SearchType } from '@rhizome/core/search';
import { tool, type ToolContext } from '../tool.ts';

const Query = Type.String({ minLength: 1, maxLength: 2000, description: 'what to look for, in plain words' });
const Limit = (fallback: number) =>
  Type.Integer({ minimum: 1, maximum: 100, default: fallback, description: `how many results (default ${fallback})` });
const SourceIds = Type.Array(Type.String({ minLength: 1 }), {
  description: 'only these sources (default: every enabled source)',
});

async function searchContext({ platform, scope }: ToolContext): Promise<SearchContext> {
  const { name, db } = await scope.database();
  return { db, database: name, settings: platform.settings.get(), embeddings: platform.providers.embeddings };
}

/** One mode's ranking, hydrated: what GET /search answers. */
async function search(
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

export const searchTools = [
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
  tool({
    name: 'search_nodes',
    kind: 'read',
    description:
      'Find entities (nodes) by name or meaning; returns ids, labels, templates and edge counts to pass to get_node or node_context.',
    input: Type.Object({
      query: Query,
      limit: Limit(20),
      mode: Type.Union([Type.Literal('keyword'), Type.Literal('semantic')], {
        default: 'keyword',
        description: 'keyword (names, BM25) or semantic (meaning)',
      }),
      template_id: Type.Optional(Type.String({ minLength: 1, description: 'only nodes of this template' })),
    }),
    async run({ query, limit, mode, template_id }, context) {
      const { results, fallback } = await search(context, mode, query, limit * 4, { templateId: template_id });
      return {
        nodes: results
          .flatMap((result) => (result.node ? [{ ...result.node, score: result.score }] : []))
          .slice(0, limit),
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
      limit: Limit(10),
      source_ids: Type.Optional(SourceIds),
      mode: Type.Union([Type.Literal('keyword'), Type.Literal('semantic'), Type.Literal('hybrid')], {
        default: 'hybrid',
        description: 'keyword, semantic or hybrid (both, default)',
      }),
    }),
    async run({ query, limit, mode, source_ids }, context) {
      const { results, fallback } = await search(context, mode, query, limit * 4, { sourceIds: source_ids });
      return {
        passages: results
          .flatMap((result) => (result.chunk ? [passage(result.chunk, result.score)] : []))
          .slice(0, limit),
        fallback,
      };
    },
  }),
  tool({
    name: 'search_templates',
    kind: 'read',
    description:
      'Find node and edge templates (entity and relationship types) by name or meaning, to filter by type or create nodes and edges.',
    input: Type.Object({ query: Query, limit: Limit(10) }),
    async run({ query, limit }, context) {
      const search = await searchContext(context);
      const templates = await allTemplates(search.db);
      const byId = new Map(templates.map((template) => [template.id, template]));
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const named = templates.filter((template) =>
        words.some((word) => `${template.name} ${template.description ?? ''}`.toLowerCase().includes(word)),
      );
      const similar = await semanticTemplates(search, query, limit);
      const ranked = [...named, ...similar.items.flatMap((hit) => byId.get(hit.id) ?? [])];
      const unique = [...new Map(ranked.map((template) => [template.id, template])).values()].slice(0, limit);
      return {
        templates: unique.map((template) => ({
          id: template.id,
          name: template.name,
          template_type: template.template_type,
          description: template.description,
        })),
        fallback: similar.fallback,
      };
    },
  }),
];
