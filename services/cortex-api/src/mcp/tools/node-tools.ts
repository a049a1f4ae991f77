import { Type } from '@sinclair/typebox';
import { graphModule, type GraphService, type NeighborDirection } from '@rhizome/core/graph';
import { tool } from '../tool.ts';

const NodeId = Type.String({
  minLength: 1,
  description: 'a node id (from search_nodes, graph_search or resolve_alias)',
});
const Direction = Type.Union([Type.Literal('outgoing'), Type.Literal('incoming'), Type.Literal('both')], {
  default: 'both',
});

/** A node without its vector, which no agent reads. */
export async function nodeView(graph: GraphService, id: string) {
  const { embedding: _vector, ...node } = await graph.getNode(id);
  return node;
}

/** The node's edges one hop away, in a direction and of the named relationship types. */
async function edgesOf(graph: GraphService, id: string, direction: NeighborDirection, limit: number, types?: string[]) {
  const wanted = types?.length ? new Set(types.map((type) => type.toLowerCase())) : null;
  // Filtered by type after reading: read every neighbour the direction has, then keep the wanted ones.
  const { neighbors, total } = await graph.groundingNeighbors(id, direction, wanted ? Number.MAX_SAFE_INTEGER : limit);
  const kept = wanted
    ? neighbors.filter((neighbor) => wanted.has(neighbor.relationship_type.toLowerCase()))
    : neighbors;
  return {
    total: wanted ? kept.length : total,
    edges: kept.slice(0, limit).map((neighbor) => ({
      edge_id: neighbor.edge_id,
      relationship: neighbor.relationship_type,
      direction: neighbor.direction,
      properties: neighbor.edge_properties,
      node: { id: neighbor.node.id, label: neighbor.node.label, template_id: neighbor.node.template_id },
    })),
  };
}

/** Citations as quotable passages: source, chunk, page, the sentence the extractor kept. */
async function citationsOf(graph: GraphService, id: string, limit: number) {
  const { rows, total } = await graph.nodeCitations(id, { offset: 0, limit });
  return {
    total,
    citations: rows.map((citation) => ({
      source_id: citation.source.id,
      source: citation.source.title,
      chunk_id: citation.chunk?.id ?? null,
      page: citation.chunk?.page_number ?? null,
      sentence: citation.context_snippet,
      passage: citation.chunk?.content ?? null,
      confidence: citation.confidence,
    })),
  };
}

export const nodeTools = [
  tool({
    name: 'get_node',
    kind: 'read',
    description: 'Read one node: label, template, properties (aliases, description) and edge and citation counts.',
    input: Type.Object({ node_id: NodeId }),
    async run({ node_id }, { scope }) {
      return nodeView(await scope.service(graphModule), node_id);
    },
  }),
  tool({
    name: 'node_context',
    kind: 'read',
    description:
      'Everything known about a node in one call: the node, its edges one hop away and the passages that cite it, to answer with quotes.',
    input: Type.Object({
      node_id: NodeId,
      edge_limit: Type.Integer({ minimum: 1, maximum: 200, default: 25 }),
      citation_limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    }),
    async run({ node_id, edge_limit, citation_limit }, { scope }) {
      const graph = await scope.service(graphModule);
      const [node, edges, citations] = await Promise.all([
        nodeView(graph, node_id),
        edgesOf(graph, node_id, 'both', edge_limit),
        citationsOf(graph, node_id, citation_limit),
      ]);
      return {
        node,
        edges: edges.edges,
        edge_total: edges.total,
        citations: citations.citations,
        citation_total: citations.total,
      };
    },
  }),
  tool({
    name: 'node_edges',
    kind: 'read',
    description: "A node's relationships: outgoing, incoming or both, optionally only of some relationship types.",
    input: Type.Object({
      node_id: NodeId,
      direction: Direction,
      relationship_types: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), { description: 'only these relationship types (edge labels)' }),
      ),
      limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
    }),
    async run({ node_id, direction, relationship_types, limit }, { scope }) {
      return edgesOf(await scope.service(graphModule), node_id, direction, limit, relationship_types);
    },
  }),
  tool({
    name: 'resolve_alias',
    kind: 'read',
    description: 'Find the node a name refers to: its label or one of its aliases, ignoring case.',
    input: Type.Object({
      name: Type.String({ minLength: 1, maxLength: 500 }),
      limit: Type.Integer({ minimum: 1, maximum: 50, default: 5 }),
    }),
    async run({ name, limit }, { scope }) {
      const { db } = await scope.database();
      const rows = (await db.raw(
        `SELECT n.id, n.label, n.template_id, CASE WHEN lower(n.label) = lower(?) THEN 'label' ELSE 'alias' END AS matched
         FROM graph_nodes n
         WHERE lower(n.label) = lower(?)
            OR EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(n.properties) AND json_type(n.properties, '$.aliases') = 'array' THEN json_extract(n.properties, '$.aliases') ELSE '[]' END) a
                       WHERE lower(a.value) = lower(?))
         ORDER BY matched = 'alias', n.degree DESC LIMIT ?`,
        [name.trim(), name.trim(), name.trim(), limit],
      )) as { id: string; label: string; template_id: string; matched: 'label' | 'alias' }[];
      return { name, matches: rows };
    },
  }),
];
