import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Nullable } from './common.ts';

const tag = 'search';

const SearchStats = Type.Object({
  fulltext_doc_count: Type.Integer({ description: 'entries of the full-text indexes (nodes and chunks)' }),
  vector_index_size: Type.Integer({
    description: 'vectors of the configured embedder semantic search sees (chunks, nodes, templates)',
  }),
  vector_dimension: Type.Integer({ description: "the configured embedder's dimensions" }),
});
export type SearchStatsBody = Static<typeof SearchStats>;

const IndexStatus = Type.Object({
  needs_rebuild: Type.Boolean({
    description:
      'stored vectors of another model or dimensions than the configured embedder are left; semantic search falls back to keyword until POST /search/indexes re-embeds them',
  }),
  embedding_model: Nullable(Type.String({ description: 'the configured embedding model' })),
  vector_dimensions: Nullable(
    Type.Integer({
      description:
        "the configured embedder's dimensions (a remote model's: of its stored vectors, or search.vector_dimensions until it answers)",
    }),
  ),
  fulltext: Nullable(Type.Object({ document_count: Type.Integer() })),
  vector: Nullable(
    Type.Object(
      {
        vector_count: Type.Integer(),
        dimensions: Type.Integer(),
      },
      { description: 'the stored vectors: those of the model most vectors are of (null when there are none)' },
    ),
  ),
  error: Nullable(Type.String()),
  persisted_model: Nullable(Type.String({ description: 'extension: the model most stored vectors are of' })),
  reason: Nullable(Type.String({ description: 'extension: why a rebuild is needed' })),
});
export type IndexStatusBody = Static<typeof IndexStatus>;

const Rebuilt = Type.Object({
  success: Type.Boolean(),
  total_nodes: Type.Integer(),
  nodes_with_embeddings: Type.Integer({ description: 'nodes with a vector semantic search uses' }),
  chunks_indexed: Type.Integer({ default: 0, description: 'chunks re-entered into the full-text index' }),
  message: Type.String(),
});
export type RebuiltBody = Static<typeof Rebuilt>;

const Regenerating = Type.Object({
  task_id: Type.String(),
  status: Type.Literal('queued'),
  regenerated: Type.Literal(true),
  message: Type.String(),
});
export type RegeneratingBody = Static<typeof Regenerating>;

const NodeEmbeddings = Type.Object({
  success: Type.Boolean({
    description: 'false when some nodes could not be embedded (the reasons are appended to message)',
  }),
  total_nodes: Type.Integer(),
  processed_count: Type.Integer({ description: 'nodes embedded by this call' }),
  message: Type.String(),
});
export type NodeEmbeddingsBody = Static<typeof NodeEmbeddings>;

export const searchIndexEndpoints = {
  stats: endpoint({
    method: 'GET',
    path: '/search/stats',
    tag,
    status: 200,
    summary: 'Sizes of the full-text and vector indexes',
    response: SearchStats,
  }),
  status: endpoint({
    method: 'GET',
    path: '/search/indexes/status',
    tag,
    status: 200,
    summary:
      'Whether the vector indexes need a rebuild (stored vectors of another embedding model or dimensions), with index sizes',
    response: IndexStatus,
  }),
  rebuild: endpoint({
    method: 'POST',
    path: '/search/indexes',
    tag,
    status: 200,
    errors: [503],
    summary:
      'Rebuild the search indexes: 200 after rebuilding the full-text index when the vectors are current; 202 ' +
      '`{task_id, status, regenerated, message}` when the embedding model or dimensions changed, every embedding then being ' +
      'regenerated in the background (task `search.reembed`, llm lane). Auto-detected.',
    response: Type.Union([Rebuilt, Regenerating]),
  }),
  embeddings: endpoint({
    method: 'POST',
    path: '/search/embeddings',
    tag,
    status: 200,
    summary:
      'Embed every node lacking a usable embedding (none, or one of another model), waiting until done; no task is queued',
    response: NodeEmbeddings,
  }),
};
