import { hydrate } from '../../search/index.ts';
import { semanticChunks, semanticNodes, semanticSearch } from '../../search/index.ts';
import type { SearchScope } from '../../search/index.ts';
import { defineTool } from './types.ts';

interface VectorSearchInput {
  query: string;
  limit: number;
  kind: 'all' | 'nodes' | 'chunks';
  template_id?: string;
  source_ids?: string[];
}

/** `ai.vector_search`: semantic search over the database's nodes and chunks (the search feature's own). */
export const aiVectorSearch = defineTool<VectorSearchInput>({
  id: 'ai.vector_search',
  category: 'ai',
  name: 'Vector Search',
  description: 'Finds nodes and chunks similar in meaning to a query, with cosine scores (enabled sources only).',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['query'],
    properties: {
      query: { type: 'string', minLength: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      kind: { type: 'string', enum: ['all', 'nodes', 'chunks'], default: 'all' },
      template_id: { type: 'string' },
      source_ids: { type: 'array', items: { type: 'string' } },
    },
  },
  outputSchema: {
    type: 'object',
    properties: { results: { type: 'array' }, count: { type: 'integer' }, fallback: { type: ['string', 'null'] } },
  },
  async run(input, context) {
    const search = {
      db: context.db,
      database: context.database,
      settings: context.settings,
      embeddings: context.embeddings,
    };
    const scope: SearchScope = { sourceIds: input.source_ids ?? null, templateId: input.template_id ?? null };
    const mode = { all: semanticSearch, nodes: semanticNodes, chunks: semanticChunks }[input.kind];
    const ranked = await mode(search, input.query, scope, input.limit);
    const results = await hydrate(context.db, ranked.items);
    return { results, count: results.length, fallback: ranked.fallback };
  },
});
