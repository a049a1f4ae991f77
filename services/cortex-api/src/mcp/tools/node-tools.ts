import { Invalid, NotFound } from '@rhizome/contracts/errors';
import { Type } from '@sinclair/typebox';
import { graphModule, type GraphService, type NeighborDirection } from '@rhizome/core/graph';
import { deprecated, tool, type ToolContext } from '../tool.ts';
import { search } from './search-tools.ts';

const NodeId = Type.String({
  minLength: 1,
  description: 'a node id (from search_nodes, graphrag_search or resolve_node)',
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

/** The node as agents of the graph read it: no vector, no position, no counts. */
function nodeCard(node: Awaited<ReturnType<typeof nodeView>>) {
  const { id, label, template_id, properties, source_id, created_at, updated_at } = node;
  return { id, label, template_id, properties, source_id, created_at, updated_at };
}

/** The node's edges out and in, each with the label of the node at its other end. */
async function edgesBothWays(graph: GraphService, id: string, limit: number) {
  const window = { offset: 0, limit };
  const [outgoing, incoming] = await Promise.all([
    graph.groundingEdges({ sourceNodeId: id, window }),
    graph.groundingEdges({ targetNodeId: id, window }),
  ]);
  const names = await graph.nodeNames([
    ...outgoing.rows.map((edge) => edge.target_node_id),
    ...incoming.rows.map((edge) => edge.source_node_id),
  ]);
  const end = (nodeId: string) => ({ id: nodeId, label: names.get(nodeId)?.label ?? null });
  return {
    outgoing: outgoing.rows.map((edge) => ({
      edge_id: edge.id,
      label: edge.label,
      template_id: edge.template_id,
      target: end(edge.target_node_id),
    })),
    incoming: incoming.rows.map((edge) => ({
      edge_id: edge.id,
      label: edge.label,
      template_id: edge.template_id,
      source: end(edge.source_node_id),
    })),
    outgoingTotal: outgoing.total,
    incomingTotal: incoming.total,
    neighbours: names.size,
  };
}

const aliasesOf = (properties: Record<string, unknown>): string[] =>
  Array.isArray(properties.aliases) ? properties.aliases.filter((alias) => typeof alias === 'string') : [];

const nameWords = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** A keyword match stands for the name only when its label holds at least half of the name's words. */
function labelCoversName(label: string, name: string): boolean {
  const wanted = nameWords(name);
  const held = nameWords(label);
  let shared = 0;
  for (const word of wanted) if (held.has(word)) shared++;
  return wanted.size > 0 && shared * 2 >= wanted.size;
}

/**
 * The nodes a name may mean, likeliest first: a node labelled so, then one aliased so, then the
 * keyword matches whose label holds most of the name's words, their confidence falling with their
 * score relative to the best one.
 */
async function resolutionCandidates(context: ToolContext, query: string, limit: number) {
  const exact = await (await context.scope.service(graphModule)).resolveName(query, limit);
  const found = exact.map((match) => ({
    id: match.id,
    label: match.label,
    method: match.matched === 'label' ? 'exact_label' : 'alias',
    confidence: match.matched === 'label' ? 1 : 0.95,
  }));
  if (found.length >= limit) return found;
  const { results } = await search(context, 'keyword', query, limit * 4, {});
  const matches = results.flatMap((result) =>
    result.node && labelCoversName(result.node.label, query) ? [{ ...result.node, score: result.score }] : [],
  );
  const best = matches[0]?.score || 1;
  for (const match of matches) {
    if (found.length >= limit) break;
    if (found.some((candidate) => candidate.id === match.id)) continue;
    const confidence = Math.round((800 * match.score) / best) / 1000;
    found.push({ id: match.id, label: match.label, method: 'keyword', confidence });
  }
  return found;
}

export const nodeTools = [
  tool({
    name: 'get_node',
    kind: 'read',
    description:
      'Read one node by id, or the node a name means (query): label, template, properties (aliases, description) and edge and citation counts.',
    input: Type.Object({
      node_id: Type.Optional(NodeId),
      query: Type.Optional(
        Type.String({ minLength: 1, maxLength: 500, description: 'a name, when no node_id is known' }),
      ),
    }),
    async run({ node_id, query }, context) {
      const graph = await context.scope.service(graphModule);
      if (node_id) {
        // The node's own fields at the top, as this tool has always answered, and under `node` as well.
        const node = await nodeView(graph, node_id);
        return { ...node, success: true, node };
      }
      if (!query) throw new Invalid([{ loc: ['node_id'], msg: 'Send node_id, or query with a name', type: 'missing' }]);
      const [best] = await resolutionCandidates(context, query, 1);
      if (!best) throw NotFound.resource('Node named', query);
      return { success: true, node: await nodeView(graph, best.id), search_query: query };
    },
  }),
  deprecated(
    'get_node_context',
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
  ),
  deprecated(
    'get_node_edges',
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
  ),
  deprecated(
    'resolve_node',
    tool({
      name: 'resolve_alias',
      kind: 'read',
      description: 'Find the node a name refers to: its label or one of its aliases, ignoring case.',
      input: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 500 }),
        limit: Type.Integer({ minimum: 1, maximum: 50, default: 5 }),
      }),
      async run({ name, limit }, { scope }) {
        return { name, matches: await (await scope.service(graphModule)).resolveName(name, limit) };
      },
    }),
  ),
  tool({
    name: 'get_node_context',
    kind: 'read',
    description:
      'Everything known about a node in one call: the node, its outgoing and incoming edges with the node at the other end, and (include_chunks) the passages that cite it.',
    input: Type.Object({
      node_id: NodeId,
      include_edges: Type.Boolean({ default: true }),
      include_chunks: Type.Boolean({ default: false, description: 'also the passages citing the node' }),
      edge_limit: Type.Integer({ minimum: 1, maximum: 200, default: 20, description: 'edges per direction' }),
      chunk_limit: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
    }),
    async run({ node_id, include_edges, include_chunks, edge_limit, chunk_limit }, { scope }) {
      const graph = await scope.service(graphModule);
      const node = nodeCard(await nodeView(graph, node_id));
      const edges = include_edges ? await edgesBothWays(graph, node_id, edge_limit) : null;
      const chunks = include_chunks ? await citationsOf(graph, node_id, chunk_limit) : null;
      return {
        success: true,
        node,
        ...(edges && {
          outgoing_edges: edges.outgoing,
          incoming_edges: edges.incoming,
          edge_summary: {
            outgoing_count: edges.outgoingTotal,
            incoming_count: edges.incomingTotal,
            total_related_nodes: edges.neighbours,
          },
        }),
        ...(chunks && { related_chunks: chunks.citations, chunks_count: chunks.total }),
      };
    },
  }),
  tool({
    name: 'get_node_edges',
    kind: 'read',
    description: "A node's relationships: outgoing, incoming or both, optionally only of one relationship type.",
    input: Type.Object({
      node_id: NodeId,
      direction: Direction,
      edge_type: Type.Optional(Type.String({ minLength: 1, description: 'only this relationship type (edge label)' })),
      limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
    }),
    async run({ node_id, direction, edge_type, limit }, { scope }) {
      const types = edge_type === undefined ? undefined : [edge_type];
      const { edges } = await edgesOf(await scope.service(graphModule), node_id, direction, limit, types);
      return { success: true, node_id, direction, edge_type_filter: edge_type ?? null, count: edges.length, edges };
    },
  }),
  tool({
    name: 'list_edges',
    kind: 'read',
    description: 'Edges of the graph in full (ends, label, template, properties); of one node when node_id is given.',
    input: Type.Object({
      node_id: Type.Optional(NodeId),
      limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    }),
    async run({ node_id, limit }, { scope }) {
      const graph = await scope.service(graphModule);
      const window = { offset: 0, limit };
      if (node_id === undefined) {
        const { rows } = await graph.groundingEdges({ window });
        return { success: true, count: rows.length, edges: rows };
      }
      await nodeView(graph, node_id);
      const [outgoing, incoming] = await Promise.all([
        graph.groundingEdges({ sourceNodeId: node_id, window }),
        graph.groundingEdges({ targetNodeId: node_id, window }),
      ]);
      const seen = new Set<string>();
      const edges = [...outgoing.rows, ...incoming.rows]
        .filter((edge) => !seen.has(edge.id) && seen.add(edge.id))
        .slice(0, limit);
      return { success: true, count: edges.length, edges };
    },
  }),
  tool({
    name: 'resolve_node',
    kind: 'read',
    description:
      'Find the node a name refers to: its label or one of its aliases (ignoring case), else the best keyword match; with the likeliest alternatives.',
    input: Type.Object({
      query: Type.String({ minLength: 1, maxLength: 500, description: 'a name, as written in a text or a question' }),
      include_alternatives: Type.Boolean({ default: true }),
      max_alternatives: Type.Integer({ minimum: 0, maximum: 20, default: 3 }),
    }),
    async run({ query, include_alternatives, max_alternatives }, context) {
      const graph = await context.scope.service(graphModule);
      const candidates = await resolutionCandidates(context, query, max_alternatives + 1);
      const [best, ...rest] = candidates;
      if (!best) return { success: false, query, error: `No node is named or aliased '${query}'` };
      const node = nodeCard(await nodeView(graph, best.id));
      return {
        success: true,
        query,
        resolved_node: { id: node.id, label: node.label, template_id: node.template_id, properties: node.properties },
        confidence: best.confidence,
        search_method: best.method,
        aliases: aliasesOf(node.properties),
        alternatives: include_alternatives
          ? rest.slice(0, max_alternatives).map(({ id, label, confidence }) => ({ id, label, confidence }))
          : [],
      };
    },
  }),
];
