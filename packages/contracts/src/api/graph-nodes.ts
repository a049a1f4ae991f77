import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable, Page, Timestamp, QueuedTask, PageNumber } from './common.ts';

/** Nodes, edges and their navigation. */

const Id = Type.String({ minLength: 1 });
const NodeIdParam = Type.Object({ node_id: Id });
const EdgeIdParam = Type.Object({ edge_id: Id });

export const Position = Type.Object({ x: Type.Number(), y: Type.Number() }, { additionalProperties: false });
const Embedding = Type.Array(Type.Number());
const Stat = Nullable(Type.Integer());

/** A repeated query parameter (`?source_ids=a&source_ids=b`): one value arrives as a string, several as an array. */
export const RepeatedIds = Type.Union([Type.Array(Type.String()), Type.String()], {
  description: 'repeat the parameter for several values',
});

const PageQuery = {
  page: Type.Optional(PageNumber),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'default from settings (pagination.default_page_size), capped at pagination.max_page_size',
    }),
  ),
};

/** What GET /nodes and GET /edges sort by: creation order unless asked. */
export const nodeSortFields = [
  'created_at',
  'label',
  'template_id',
  'source_count',
  'degree',
  'confidence',
  'updated_at',
] as const;
export const edgeSortFields = ['created_at', 'label', 'source_count', 'confidence', 'updated_at'] as const;
export type NodeSortField = (typeof nodeSortFields)[number];
export type EdgeSortField = (typeof edgeSortFields)[number];
export type SortOrder = 'asc' | 'desc';

/** The order of a graph list, with the same parameters as the quality analysis list. */
function SortQuery<const Fields extends string>(fields: readonly Fields[]) {
  return {
    sort_by: Type.Optional(
      Type.Unsafe<Fields>({
        type: 'string',
        enum: [...fields],
        description: `${fields.join(', ')}; created_at (creation order) by default. source_count counts the sources an item was found in, confidence is the extraction's (items without one come last)`,
      }),
    ),
    sort_order: Type.Optional(
      Type.Unsafe<SortOrder>({
        type: 'string',
        enum: ['asc', 'desc'],
        description:
          'asc by default for created_at, label and template_id; desc for the counts, confidence and updated_at',
      }),
    ),
  };
}

/** What a node shows of each entity tag it carries. */
export const NodeTagRef = Type.Object({ id: Type.String(), name: Type.String(), color: Nullable(Type.String()) });

export const NodeResponse = Type.Object({
  id: Type.String(),
  template_id: Type.String(),
  label: Type.String(),
  properties: AnyObject,
  position: Nullable(Position),
  embedding: Nullable(Embedding),
  source_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  edge_count: Nullable(
    Type.Integer({ description: 'incoming_edge_count + outgoing_edge_count (a self-loop counts in both)' }),
  ),
  incoming_edge_count: Stat,
  outgoing_edge_count: Stat,
  citation_count: Stat,
  relationship_type_count: Stat,
  tags: Type.Optional(
    Type.Array(NodeTagRef, { description: 'the entity tags it carries, by name (a node read alone or listed)' }),
  ),
});
export const MinimalNode = Type.Object({
  id: Type.String(),
  label: Type.String(),
  template_id: Type.String(),
  position: Nullable(Position),
});

export const EdgeResponse = Type.Object({
  id: Type.String(),
  template_id: Type.String(),
  source_node_id: Type.String(),
  target_node_id: Type.String(),
  label: Type.String(),
  properties: AnyObject,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const MinimalEdge = Type.Object({
  id: Type.String(),
  source_node_id: Type.String(),
  target_node_id: Type.String(),
  label: Type.String(),
  template_id: Type.String(),
});

export const Connection = Type.Object({
  id: Type.String({ description: 'the connected node' }),
  label: Type.String(),
  template_id: Type.String(),
  edge_count: Type.Integer({
    description: 'all edges of the connected node, incoming plus outgoing (a self-loop counts in both)',
  }),
  relationship: Type.String({ description: 'the label of the edge' }),
  direction: Type.Union([Type.Literal('incoming'), Type.Literal('outgoing')], {
    description: 'relative to the queried node',
  }),
});

export const Citation = Type.Object({
  id: Type.String(),
  source: Type.Object({
    id: Type.String(),
    title: Type.String(),
    source_type: Type.String(),
    origin_url: Nullable(Type.String()),
  }),
  chunk: Type.Union(
    [
      Type.Object({
        id: Type.String(),
        content: Type.String(),
        page_number: Nullable(Type.Integer()),
        section: Nullable(Type.String()),
        chunk_metadata: Nullable(AnyObject),
      }),
      Type.Null(),
    ],
    { description: 'null only for a citation written without a chunk (source_citations.chunk_id is nullable)' },
  ),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  extraction_method: Type.String(),
  context_snippet: Nullable(Type.String()),
  citation_metadata: Nullable(AnyObject),
  created_at: Timestamp,
});

/** Fields of POST /nodes; a batch `create` operation's data has the same shape. */
export const nodeCreateFields = {
  template_id: Id,
  label: Type.String({ minLength: 1 }),
  properties: Type.Optional(AnyObject),
  position: Type.Optional(Nullable(Position)),
  embedding: Type.Optional(Nullable(Embedding)),
  source_id: Type.Optional(Nullable(Type.String())),
};
/** Fields of PATCH /nodes/{id}; a batch `update` operation adds `id`. */
export const nodeUpdateFields = {
  template_id: Type.Optional(Id),
  label: Type.Optional(Type.String({ minLength: 1 })),
  properties: Type.Optional(AnyObject),
  position: Type.Optional(Nullable(Position)),
  embedding: Type.Optional(Nullable(Embedding)),
};
export const edgeCreateFields = {
  template_id: Id,
  source_node_id: Id,
  target_node_id: Id,
  label: Type.String({ minLength: 1 }),
  properties: Type.Optional(AnyObject),
  source_id: Type.Optional(Nullable(Type.String())),
};
export const edgeUpdateFields = {
  label: Type.Optional(Type.String({ minLength: 1 })),
  properties: Type.Optional(AnyObject),
};

/** The data of batch operations, checked one by one by the worker (a bad one fails alone). */
export const batchDataSchemas = {
  nodes: { create: Body(nodeCreateFields), update: Body({ id: Id, ...nodeUpdateFields }), delete: Body({ id: Id }) },
  edges: { create: Body(edgeCreateFields), update: Body({ id: Id, ...edgeUpdateFields }), delete: Body({ id: Id }) },
};

export const maxBatchOperations = 10_000;
const BatchBody = Body({
  operations: Type.Array(
    Body({
      operation: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]),
      data: AnyObject,
    }),
    { minItems: 1, maxItems: maxBatchOperations },
  ),
});

/** `{results, succeeded, failed}`: the result of a batch task. */
export const BatchResult = Type.Object({
  results: Type.Array(
    Type.Object({
      index: Type.Integer(),
      operation: Type.String(),
      success: Type.Boolean(),
      id: Type.Optional(Type.String()),
      error: Type.Optional(Type.String()),
    }),
  ),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
});

export const nodeEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/nodes',
    tag: 'nodes',
    status: 200,
    errors: [422],
    summary: 'Nodes of the active database, oldest first unless sorted',
    query: Type.Object({
      template_id: Type.Optional(Type.String()),
      source_ids: Type.Optional(RepeatedIds),
      tag_id: Type.Optional(Type.String({ minLength: 1, description: 'only nodes carrying this entity tag' })),
      ...PageQuery,
      ...SortQuery(nodeSortFields),
      minimal: Type.Optional(Type.Boolean({ default: false, description: 'only id, label, template_id, position' })),
      include_stats: Type.Optional(
        Type.Boolean({ default: false, description: 'edge and citation counts; null otherwise' }),
      ),
    }),
    response: Page(Type.Union([NodeResponse, MinimalNode])),
  }),
  create: endpoint({
    method: 'POST',
    path: '/nodes',
    tag: 'nodes',
    status: 201,
    errors: [404, 422],
    summary: 'Create a node; properties are validated against its template and the node is indexed for search',
    body: Body(nodeCreateFields),
    response: NodeResponse,
  }),
  batch: endpoint({
    method: 'POST',
    path: '/nodes/batch',
    tag: 'nodes',
    status: 202,
    errors: [422, 503],
    summary:
      'Create, update and delete nodes in order on the operations queue; a failure does not stop later operations',
    body: BatchBody,
    response: QueuedTask,
  }),
  get: endpoint({
    method: 'GET',
    path: '/nodes/{node_id}',
    tag: 'nodes',
    status: 200,
    errors: [404],
    summary: 'One node',
    params: NodeIdParam,
    response: NodeResponse,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/nodes/{node_id}',
    tag: 'nodes',
    status: 200,
    errors: [404, 422],
    summary: 'Update a node (properties are replaced, not merged)',
    params: NodeIdParam,
    body: Body(nodeUpdateFields),
    response: NodeResponse,
  }),
  position: endpoint({
    method: 'PATCH',
    path: '/nodes/{node_id}/position',
    tag: 'nodes',
    status: 200,
    errors: [404, 422],
    summary: 'Move a node on the canvas (publishes no event)',
    params: NodeIdParam,
    body: Body({ position: Position }),
    response: NodeResponse,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/nodes/{node_id}',
    tag: 'nodes',
    status: 204,
    errors: [404],
    summary: 'Delete a node with its edges and citations; it leaves the search index',
    params: NodeIdParam,
  }),
  connections: endpoint({
    method: 'GET',
    path: '/nodes/{node_id}/connections',
    tag: 'nodes',
    status: 200,
    errors: [404, 422],
    summary: 'One item per edge touching the node: the node at the other end, the relationship and its direction',
    params: NodeIdParam,
    query: Type.Object({
      sort_by: Type.Optional(
        Type.Union([Type.Literal('edge_count'), Type.Literal('label'), Type.Literal('relationship')], {
          default: 'edge_count',
        }),
      ),
      ...PageQuery,
    }),
    response: Page(Connection),
  }),
  citations: endpoint({
    method: 'GET',
    path: '/nodes/{node_id}/citations',
    tag: 'nodes',
    status: 200,
    errors: [404, 422],
    summary: 'Where the node was found in the sources (page size capped at 100)',
    params: NodeIdParam,
    query: Type.Object({ ...PageQuery }),
    response: Page(Citation),
  }),
};

const NodeTagFields = {
  name: Type.String({ minLength: 1, maxLength: 64 }),
  color: Type.Optional(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
};
export const NodeTag = Type.Object({
  id: Type.String(),
  database_name: Type.String(),
  name: Type.String(),
  color: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: Type.String(),
});
const TagIdParam = Type.Object({ tag_id: Id });
const NodeTagParams = Type.Object({ node_id: Id, tag_id: Id });
/** The most nodes one tagging request takes. */
export const maxTaggedNodes = 10_000;

/** Entity tags: named labels on nodes, one name per database whatever its case. */
export const nodeTagEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/nodes/tags',
    tag: 'nodes',
    status: 200,
    summary: 'Entity tags, by name, with how many nodes carry each',
    response: Type.Array(Type.Intersect([NodeTag, Type.Object({ node_count: Type.Integer() })])),
  }),
  create: endpoint({
    method: 'POST',
    path: '/nodes/tags',
    tag: 'nodes',
    status: 201,
    errors: [422],
    summary: 'Create an entity tag; a name that exists (in any case) answers that tag instead',
    body: Body(NodeTagFields),
    response: NodeTag,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/nodes/tags/{tag_id}',
    tag: 'nodes',
    status: 200,
    errors: [404, 409, 422],
    summary: 'Rename, recolour or describe an entity tag',
    params: TagIdParam,
    body: Body({
      name: Type.Optional(NodeTagFields.name),
      color: NodeTagFields.color,
      description: NodeTagFields.description,
    }),
    response: NodeTag,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/nodes/tags/{tag_id}',
    tag: 'nodes',
    status: 204,
    errors: [404],
    summary: 'Delete an entity tag (its nodes keep everything else)',
    params: TagIdParam,
  }),
  tagMany: endpoint({
    method: 'POST',
    path: '/nodes/tags/{tag_id}/nodes',
    tag: 'nodes',
    status: 200,
    errors: [404, 422],
    summary: `Put the tag on up to ${maxTaggedNodes.toLocaleString('en')} nodes; each is reported on its own in the order given (a missing one fails alone, one tagged already succeeds)`,
    params: TagIdParam,
    body: Body({ node_ids: Type.Array(Id, { minItems: 1, maxItems: maxTaggedNodes }) }),
    response: BatchResult,
  }),
  assign: endpoint({
    method: 'POST',
    path: '/nodes/{node_id}/tags/{tag_id}',
    tag: 'nodes',
    status: 204,
    errors: [404],
    summary: 'Put the tag on the node (again is a no-op)',
    params: NodeTagParams,
  }),
  unassign: endpoint({
    method: 'DELETE',
    path: '/nodes/{node_id}/tags/{tag_id}',
    tag: 'nodes',
    status: 204,
    errors: [404],
    summary: 'Take the tag off the node; 404 when it does not carry it',
    params: NodeTagParams,
  }),
};

export const edgeEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/edges',
    tag: 'edges',
    status: 200,
    errors: [422],
    summary: 'Edges of the active database, oldest first unless sorted',
    query: Type.Object({
      source_node_id: Type.Optional(Type.String({ description: 'edges originating at that node' })),
      label: Type.Optional(
        Type.String({ minLength: 1, description: 'only edges of this relationship type (the exact label)' }),
      ),
      source_ids: Type.Optional(RepeatedIds),
      page: PageQuery.page,
      page_size: Type.Optional(Type.Integer({ minimum: 1, description: 'default from settings (50), at most 1000' })),
      ...SortQuery(edgeSortFields),
      minimal: Type.Optional(
        Type.Boolean({ default: false, description: 'only id, source_node_id, target_node_id, label, template_id' }),
      ),
    }),
    response: Page(Type.Union([EdgeResponse, MinimalEdge])),
  }),
  create: endpoint({
    method: 'POST',
    path: '/edges',
    tag: 'edges',
    status: 201,
    errors: [404, 422],
    summary: 'Create an edge between two existing nodes; properties are validated against its template',
    body: Body(edgeCreateFields),
    response: EdgeResponse,
  }),
  batch: endpoint({
    method: 'POST',
    path: '/edges/batch',
    tag: 'edges',
    status: 202,
    errors: [422, 503],
    summary:
      'Create, update and delete edges in order on the operations queue; a failure does not stop later operations',
    body: BatchBody,
    response: QueuedTask,
  }),
  labels: endpoint({
    method: 'GET',
    path: '/edges/labels',
    tag: 'edges',
    status: 200,
    summary: 'Every relationship type (edge label) in use with its edge count, the most used first',
    response: Type.Object({ data: Type.Array(Type.Object({ label: Type.String(), count: Type.Integer() })) }),
  }),
  citations: endpoint({
    method: 'GET',
    path: '/edges/{edge_id}/citations',
    tag: 'edges',
    status: 200,
    errors: [404, 422],
    summary: 'Where the edge was found in the sources: the sentences stating it (page size capped at 100)',
    params: EdgeIdParam,
    query: Type.Object({ ...PageQuery }),
    response: Page(Citation),
  }),
  get: endpoint({
    method: 'GET',
    path: '/edges/{edge_id}',
    tag: 'edges',
    status: 200,
    errors: [404],
    summary: 'One edge',
    params: EdgeIdParam,
    response: EdgeResponse,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/edges/{edge_id}',
    tag: 'edges',
    status: 200,
    errors: [404, 422],
    summary: 'Update an edge (properties are replaced, not merged)',
    params: EdgeIdParam,
    body: Body(edgeUpdateFields),
    response: EdgeResponse,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/edges/{edge_id}',
    tag: 'edges',
    status: 204,
    errors: [404],
    summary: 'Delete an edge',
    params: EdgeIdParam,
  }),
};
