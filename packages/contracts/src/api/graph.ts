import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Nullable, Page, Pagination, QueuedTask, PageNumber } from './common.ts';
import { EdgeResponse, NodeResponse, Position, RepeatedIds } from './graph-nodes.ts';

/** Graph maintenance, canvas, snapshot and grounding. */

const tag = 'graph';
const groundingTag = 'grounding';
const NodeIdParam = Type.Object({ node_id: Type.String({ minLength: 1 }) });
const PageQuery = {
  page: Type.Optional(PageNumber),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'default from settings (pagination.default_page_size), capped at pagination.max_page_size',
    }),
  ),
};

export const CanvasNode = Type.Object({
  id: Type.String(),
  template_id: Type.String(),
  label: Type.String(),
  position: Nullable(Position),
  source_id: Nullable(Type.String()),
});
export const CanvasEdge = Type.Object({
  id: Type.String(),
  source_node_id: Type.String(),
  target_node_id: Type.String(),
  template_id: Type.String(),
  label: Type.String(),
});
export const CanvasTemplate = Type.Object({
  id: Type.String(),
  name: Type.String(),
  template_type: Type.String(),
  icon: Nullable(Type.String()),
  color: Nullable(Type.String()),
  description: Nullable(Type.String()),
});
export const CanvasData = Type.Object({
  nodes: Type.Array(CanvasNode),
  edges: Type.Array(CanvasEdge),
  templates: Type.Array(CanvasTemplate, { description: 'the templates of the returned nodes and edges' }),
  total_nodes: Type.Integer({ description: 'visible nodes before the cap' }),
  total_edges: Type.Integer({ description: 'edges between visible nodes before the cap' }),
  truncated: Type.Boolean({ description: 'true when pagination.canvas_max_nodes or canvas_max_edges was exceeded' }),
});

export const SourceGroup = Type.Object({
  source_id: Type.String(),
  title: Type.String(),
  source_type: Type.String(),
  filename: Nullable(Type.String()),
  extraction_domain: Nullable(Type.String()),
  extraction_domain_icon: Nullable(Type.String()),
  entity_count: Type.Integer(),
  entity_node_ids: Type.Array(Type.String()),
});

const TemplateCount = Type.Object({
  template_id: Type.String(),
  name: Nullable(Type.String()),
  color: Nullable(Type.String()),
  icon: Nullable(Type.String()),
  count: Type.Integer(),
});
/** The snapshot body, as Rhizome defines it. */
export const GraphBreakdown = Type.Object({
  generated_at: Type.String({ format: 'date-time' }),
  totals: Type.Object({
    nodes: Type.Integer(),
    edges: Type.Integer(),
    templates: Type.Integer(),
    sources: Type.Integer(),
  }),
  node_templates: Type.Array(TemplateCount, { description: 'nodes per template in use, largest first' }),
  edge_templates: Type.Array(TemplateCount, { description: 'edges per template in use, largest first' }),
  sources: Type.Array(
    Type.Object({
      source_id: Type.String(),
      title: Nullable(Type.String()),
      node_count: Type.Integer(),
      edge_count: Type.Integer(),
    }),
  ),
  degree: Type.Object(
    {
      min: Type.Integer(),
      max: Type.Integer(),
      mean: Type.Number(),
      median: Type.Number(),
      p90: Type.Integer(),
      isolated_nodes: Type.Integer(),
    },
    { description: 'incoming + outgoing edges per node' },
  ),
  top_hubs: Type.Array(
    Type.Object({ id: Type.String(), label: Type.String(), template_id: Type.String(), degree: Type.Integer() }),
    {
      description: 'the ten nodes with the most edges',
    },
  ),
});

export const graphEndpoints = {
  cleanup: endpoint({
    method: 'POST',
    path: '/graph/cleanup',
    tag,
    status: 202,
    errors: [503],
    summary: 'Remove corrupt nodes and edges in the background (result {nodes_removed, edges_removed})',
    response: Type.Object({
      task_id: Type.String(),
      status: Type.Literal('queued'),
      operation_type: Type.Literal('graph_cleanup'),
      message: Type.String(),
    }),
  }),
  sourceGroups: endpoint({
    method: 'GET',
    path: '/graph/source_groups',
    tag,
    status: 200,
    summary: 'Committed image sources with the entities extracted from each',
    response: Type.Object({ groups: Type.Array(SourceGroup) }),
  }),
  canvas: endpoint({
    method: 'GET',
    path: '/graph/canvas',
    tag,
    status: 200,
    errors: [422],
    summary:
      'Nodes and edges for drawing (no properties, embeddings or timestamps), capped at pagination.canvas_max_nodes/edges; the best-connected nodes are kept',
    query: Type.Object({ source_ids: Type.Optional(RepeatedIds) }),
    response: CanvasData,
  }),
  snapshot: endpoint({
    method: 'GET',
    path: '/graph/snapshot',
    tag,
    status: 200,
    errors: [503],
    summary:
      'The pre-computed graph breakdown; 204 with no body (and a build queued) when none exists yet; a stale one (older than 1 h or node count drifted > 10 %) is returned while a rebuild is queued',
    response: GraphBreakdown,
  }),
  refreshSnapshot: endpoint({
    method: 'POST',
    path: '/graph/snapshot/refresh',
    tag,
    status: 202,
    errors: [503],
    summary: 'Rebuild the snapshot in the background',
    response: QueuedTask,
  }),
  groundingNodes: endpoint({
    method: 'GET',
    path: '/graph/grounding/nodes',
    tag: groundingTag,
    status: 200,
    errors: [422],
    summary:
      'Nodes a page at a time; q filters the fetched page only, so pagination.total reflects template_id alone: iterate until has_next is false',
    query: Type.Object({
      q: Type.Optional(Type.String({ description: 'case-insensitive match on label and every property value' })),
      template_id: Type.Optional(Type.String()),
      ...PageQuery,
    }),
    response: Page(NodeResponse),
  }),
  groundingNode: endpoint({
    method: 'GET',
    path: '/graph/grounding/nodes/{node_id}',
    tag: groundingTag,
    status: 200,
    errors: [404],
    summary:
      'A node with its outgoing and incoming edges (each list capped at pagination.max_page_size; totals uncapped)',
    params: NodeIdParam,
    response: Type.Object({
      node: NodeResponse,
      outgoing_edges: Type.Array(EdgeResponse),
      incoming_edges: Type.Array(EdgeResponse),
      total_outgoing: Type.Integer(),
      total_incoming: Type.Integer(),
    }),
  }),
  groundingEdges: endpoint({
    method: 'GET',
    path: '/graph/grounding/edges',
    tag: groundingTag,
    status: 200,
    errors: [422],
    summary: 'Edges a page at a time, optionally from and/or to one node',
    query: Type.Object({
      source_node_id: Type.Optional(Type.String()),
      target_node_id: Type.Optional(Type.String()),
      ...PageQuery,
    }),
    response: Type.Object({ data: Type.Array(EdgeResponse), pagination: Pagination }),
  }),
  groundingNeighbors: endpoint({
    method: 'GET',
    path: '/graph/grounding/nodes/{node_id}/neighbors',
    tag: groundingTag,
    status: 200,
    errors: [400, 404, 422],
    summary:
      'The nodes one edge away (outgoing first), with the relationship; 400 for a direction other than outgoing, incoming or both',
    params: NodeIdParam,
    query: Type.Object({
      // Checked by the handler: an unknown direction is 400 VALIDATION_ERROR, not 422.
      direction: Type.Optional(Type.String({ description: 'outgoing, incoming or both (default)' })),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, default: 50, description: 'capped at pagination.max_page_size' }),
      ),
    }),
    response: Type.Object({
      node_id: Type.String(),
      neighbors: Type.Array(
        Type.Object({
          node: NodeResponse,
          relationship_type: Type.String({ description: 'the label of the edge' }),
          edge_id: Type.String(),
          direction: Type.Union([Type.Literal('outgoing'), Type.Literal('incoming')]),
          edge_properties: AnyObject,
        }),
      ),
      total: Type.Integer({ description: 'neighbour relations in the direction asked, before the limit' }),
      direction: Type.String(),
    }),
  }),
};
