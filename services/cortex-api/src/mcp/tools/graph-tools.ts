import { Type } from '@sinclair/typebox';
import { graphModule, type WalkFilter } from '@rhizome/core/graph';
import { searchModule } from '@rhizome/core/search';
import { sourcesModule } from '@rhizome/core/sources';
import type { RequestScope } from '../../http/request-scope.ts';
import { deprecated, tool } from '../tool.ts';
import { nodeView } from './node-tools.ts';

const NodeId = Type.String({ minLength: 1 });
const Direction = Type.Union([Type.Literal('outgoing'), Type.Literal('incoming'), Type.Literal('both')], {
  default: 'both',
  description: 'follow edges out of, into, or either way (default)',
});
const Types = Type.Array(Type.String({ minLength: 1 }), {
  description: 'follow only these relationship types (edge labels)',
});

const filterOf = (direction: WalkFilter['direction'], types: string[] | undefined): WalkFilter => ({
  direction,
  relationshipTypes: types ?? [],
});

/** The nodes closest in meaning to a node's label and description, the node itself left out. */
async function similarTo(
  scope: RequestScope,
  node: { id: string; label: string; properties: Record<string, unknown> },
  limit: number,
) {
  const description = typeof node.properties.description === 'string' ? node.properties.description : '';
  const result = await (
    await scope.service(searchModule)
  ).similarNodes(`${node.label} ${description}`.trim(), limit + 1);
  const others = result.items.filter((item) => item.id !== node.id).slice(0, limit);
  const named = await (await scope.service(graphModule)).nodeNames(others.map((item) => item.id));
  return {
    similar: others.map((item) => ({
      id: item.id,
      label: named.get(item.id)?.label ?? null,
      template_id: named.get(item.id)?.template_id ?? null,
      score: item.score,
    })),
    fallback: result.fallback,
  };
}

export const graphTools = [
  tool({
    name: 'find_shortest_path',
    kind: 'read',
    description: 'How two nodes are connected: the nodes along the fewest-hops chain of relationships between them.',
    input: Type.Object({ source_id: NodeId, target_id: NodeId }),
    async run({ source_id, target_id }, { scope }) {
      const steps = await (
        await scope.service(graphModule)
      ).shortestPath(source_id, target_id, 6, filterOf('both', []));
      if (!steps) return { success: false, error: 'No path found between nodes', path: [], length: null };
      const first = steps[0];
      const path = first
        ? [{ id: first.from, label: first.from_label }, ...steps.map((step) => ({ id: step.to, label: step.to_label }))]
        : [];
      return { success: true, path, length: steps.length };
    },
  }),
  tool({
    name: 'traverse_path',
    kind: 'read',
    description:
      'Walk out from a node up to max_depth hops, optionally along some relationship types only: every node reached with its hop count and the edge it was reached by.',
    input: Type.Object({
      start_node_id: NodeId,
      edge_types: Type.Optional(Types),
      max_depth: Type.Integer({ minimum: 1, maximum: 4, default: 2 }),
      limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
    }),
    async run({ start_node_id, edge_types, max_depth, limit }, { scope }) {
      const graph = await scope.service(graphModule);
      const start = await nodeView(graph, start_node_id);
      const walk = await graph.traverse(start_node_id, {
        depth: max_depth,
        limit,
        filter: filterOf('both', edge_types),
      });
      return {
        success: true,
        start_node: { id: start.id, label: start.label, template_id: start.template_id },
        edge_types_filter: edge_types ?? null,
        max_depth,
        nodes_found: walk.nodes.length,
        results: walk.nodes,
        truncated: walk.truncated,
      };
    },
  }),
  tool({
    name: 'find_similar_nodes',
    kind: 'read',
    description:
      'Nodes whose meaning is closest to a given node (by label and description), e.g. to spot duplicates or related entities.',
    input: Type.Object({ node_id: NodeId, limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }) }),
    async run({ node_id, limit }, { scope }) {
      const graph = await scope.service(graphModule);
      const node = await nodeView(graph, node_id);
      const { similar } = await similarTo(scope, node, limit);
      return {
        success: true,
        count: similar.length,
        similar_nodes: similar.map(({ id, label, template_id, score }) => ({
          id,
          label,
          similarity: score,
          template_id,
        })),
        source_node: { id: node.id, label: node.label, template_id: node.template_id },
      };
    },
  }),
  deprecated(
    'find_shortest_path',
    tool({
      name: 'shortest_path',
      kind: 'read',
      description:
        'How two nodes are connected: the fewest-hops chain of relationships between them (null when none within max_depth).',
      input: Type.Object({
        from_node_id: NodeId,
        to_node_id: NodeId,
        direction: Direction,
        relationship_types: Type.Optional(Types),
        max_depth: Type.Integer({ minimum: 1, maximum: 8, default: 6 }),
      }),
      async run({ from_node_id, to_node_id, direction, relationship_types, max_depth }, { scope }) {
        const graph = await scope.service(graphModule);
        const path = await graph.shortestPath(
          from_node_id,
          to_node_id,
          max_depth,
          filterOf(direction, relationship_types),
        );
        return path ? { found: true, hops: path.length, path } : { found: false, hops: null, path: [] };
      },
    }),
  ),
  deprecated(
    'traverse_path',
    tool({
      name: 'traverse',
      kind: 'read',
      description:
        'Walk out from a node up to a depth: every node reached with its hop count and the relationship it was reached by; filter by relationship and node type.',
      input: Type.Object({
        node_id: NodeId,
        direction: Direction,
        relationship_types: Type.Optional(Types),
        depth: Type.Integer({ minimum: 1, maximum: 4, default: 2 }),
        template_ids: Type.Optional(
          Type.Array(Type.String({ minLength: 1 }), {
            description: 'report only nodes of these templates (the walk still passes through others)',
          }),
        ),
        limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
      }),
      async run({ node_id, direction, relationship_types, depth, template_ids, limit }, { scope }) {
        const walk = await (
          await scope.service(graphModule)
        ).traverse(node_id, {
          depth,
          limit,
          filter: filterOf(direction, relationship_types),
          templateIds: template_ids,
        });
        return { start: node_id, ...walk };
      },
    }),
  ),
  deprecated(
    'find_similar_nodes',
    tool({
      name: 'similar_nodes',
      kind: 'read',
      description:
        'Nodes whose meaning is closest to a given node (by label and description), e.g. to spot duplicates or related entities.',
      input: Type.Object({ node_id: NodeId, limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }) }),
      async run({ node_id, limit }, { scope }) {
        const node = await nodeView(await scope.service(graphModule), node_id);
        const { similar, fallback } = await similarTo(scope, node, limit);
        return {
          node_id,
          similar: similar.map(({ id, label, template_id, score }) => ({ node_id: id, label, template_id, score })),
          fallback,
        };
      },
    }),
  ),
  tool({
    name: 'graph_statistics',
    kind: 'read',
    description:
      'The shape of the graph: node, edge, source and template counts, nodes and edges per type, degree distribution and the most central nodes by PageRank.',
    input: Type.Object({ top: Type.Integer({ minimum: 1, maximum: 100, default: 10 }) }),
    async run({ top }, { scope }) {
      const graph = await scope.service(graphModule);
      const [shape, sources, central] = await Promise.all([
        graph.statistics(),
        (await scope.service(sourcesModule)).statistics(),
        (await scope.service(searchModule)).centralNodes(top),
      ]);
      const named = await graph.nodeNames(central.map((entry) => entry.id));
      const { nodes, edges, templates } = shape.counts;
      return {
        ...shape,
        counts: { nodes, edges, sources: sources.total_files, templates },
        top_nodes_by_pagerank: central.map(({ id, score }) => ({
          node_id: id,
          ...named.get(id),
          pagerank: Math.round(score * 1e6) / 1e6,
        })),
      };
    },
  }),
  tool({
    name: 'analyze_graph_structure',
    kind: 'read',
    description:
      'The structure of the graph, or of the nodes of some templates: node and edge counts, average degree, isolated nodes, communities (Louvain) with sample members, average clustering and the most central nodes by PageRank.',
    input: Type.Object({
      template_ids: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), { description: 'analyse only nodes of these templates' }),
      ),
    }),
    async run({ template_ids }, { scope }) {
      const structure = await (await scope.service(searchModule)).graphStructure({ templateIds: template_ids });
      const named = await (
        await scope.service(graphModule)
      ).nodeNames([
        ...structure.communities.flatMap((community) => community.members),
        ...structure.top_nodes.map((node) => node.id),
        ...structure.isolated_nodes,
      ]);
      const view = (id: string) => ({
        id,
        label: named.get(id)?.label ?? null,
        template_id: named.get(id)?.template_id ?? null,
      });
      return {
        success: true,
        statistics: structure.statistics,
        communities: structure.communities.map(({ id, size, members }) => ({
          id,
          size,
          sample_members: members.map(view),
        })),
        top_nodes: structure.top_nodes.map(({ id, pagerank }) => ({ ...view(id), pagerank })),
        isolated_nodes: structure.isolated_nodes.map(view),
        ...(template_ids?.length ? { template_filter: template_ids } : {}),
      };
    },
  }),
];
