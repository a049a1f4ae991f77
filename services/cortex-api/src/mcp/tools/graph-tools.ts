import { Type } from '@sinclair/typebox';
import { graphModule } from '@rhizome/core/graph';
import { semanticNodes } from '@rhizome/core/search';
import type { Db } from '@rhizome/core/storage';
import { pageRank, shortestPath, traverse, type WalkFilter } from '../graph-walk.ts';
import { tool } from '../tool.ts';
import { nodeView } from './node-tools.ts';

const NodeId = Type.String({ minLength: 1 });
const Direction = Type.Union([Type.Literal('outgoing'), Type.Literal('incoming'), Type.Literal('both')], {
  default: 'both',
  description: 'follow edges out of, into, or either way (default)',
});
const Types = Type.Array(Type.String({ minLength: 1 }), {
  description: 'follow only these relationship types (edge labels)',
});

async function labels(db: Db, ids: string[]): Promise<Map<string, { label: string; template_id: string }>> {
  const rows = (await db.raw(
    'SELECT id, label, template_id FROM graph_nodes WHERE id IN (SELECT value FROM json_each(?))',
    [JSON.stringify([...new Set(ids)])],
  )) as { id: string; label: string; template_id: string }[];
  return new Map(rows.map((row) => [row.id, { label: row.label, template_id: row.template_id }]));
}

const filterOf = (direction: WalkFilter['direction'], types: string[] | undefined): WalkFilter => ({
  direction,
  relationshipTypes: types ?? [],
});

export const graphTools = [
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
      const { db } = await scope.database();
      const graph = await scope.service(graphModule);
      await Promise.all([nodeView(graph, from_node_id), nodeView(graph, to_node_id)]);
      const path = await shortestPath(db, from_node_id, to_node_id, max_depth, filterOf(direction, relationship_types));
      if (!path) return { found: false, hops: null, path: [] };
      const named = await labels(db, [from_node_id, ...path.map((step) => step.to)]);
      return {
        found: true,
        hops: path.length,
        path: path.map((step) => ({
          ...step,
          from_label: named.get(step.from)?.label ?? null,
          to_label: named.get(step.to)?.label ?? null,
        })),
      };
    },
  }),
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
      const { db } = await scope.database();
      await nodeView(await scope.service(graphModule), node_id);
      const { reached, truncated } = await traverse(db, node_id, depth, limit, filterOf(direction, relationship_types));
      const named = await labels(
        db,
        reached.map((entry) => entry.node_id),
      );
      const wanted = template_ids?.length ? new Set(template_ids) : null;
      const nodes = reached
        .map((entry) => ({ node_id: entry.node_id, ...named.get(entry.node_id), depth: entry.depth, via: entry.via }))
        .filter((entry) => !wanted || (entry.template_id !== undefined && wanted.has(entry.template_id)));
      return { start: node_id, nodes, truncated };
    },
  }),
  tool({
    name: 'similar_nodes',
    kind: 'read',
    description:
      'Nodes whose meaning is closest to a given node (by label and description), e.g. to spot duplicates or related entities.',
    input: Type.Object({ node_id: NodeId, limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }) }),
    async run({ node_id, limit }, { platform, scope }) {
      const { name, db } = await scope.database();
      const node = await nodeView(await scope.service(graphModule), node_id);
      const description = typeof node.properties.description === 'string' ? node.properties.description : '';
      const context = {
        db,
        database: name,
        settings: platform.settings.get(),
        embeddings: platform.providers.embeddings,
      };
      const result = await semanticNodes(
        context,
        `${node.label} ${description}`.trim(),
        { sourceIds: null, templateId: null },
        limit + 1,
      );
      const others = result.items.filter((item) => item.id !== node_id).slice(0, limit);
      const named = await labels(
        db,
        others.map((item) => item.id),
      );
      return {
        node_id,
        similar: others.map((item) => ({ node_id: item.id, ...named.get(item.id), score: item.score })),
        fallback: result.fallback,
      };
    },
  }),
  tool({
    name: 'graph_statistics',
    kind: 'read',
    description:
      'The shape of the graph: node, edge, source and template counts, nodes and edges per type, degree distribution and the most central nodes by PageRank.',
    input: Type.Object({ top: Type.Integer({ minimum: 1, maximum: 100, default: 10 }) }),
    async run({ top }, { scope }) {
      const { db } = await scope.database();
      const count = async (sql: string) => Number(((await db.raw(sql)) as { n: number }[])[0].n);
      const [nodes, edges, sources, templates] = await Promise.all([
        count('SELECT COUNT(*) AS n FROM graph_nodes'),
        count('SELECT COUNT(*) AS n FROM graph_edges'),
        count('SELECT COUNT(*) AS n FROM sources'),
        count('SELECT COUNT(*) AS n FROM graph_templates'),
      ]);
      const nodeTypes = (await db.raw(
        'SELECT t.name AS type, COUNT(*) AS count FROM graph_nodes n LEFT JOIN graph_templates t ON t.id = n.template_id GROUP BY n.template_id ORDER BY count DESC',
      )) as { type: string | null; count: number }[];
      const relationshipTypes = (await db.raw(
        'SELECT label AS type, COUNT(*) AS count FROM graph_edges GROUP BY label ORDER BY count DESC LIMIT 50',
      )) as { type: string; count: number }[];
      const degrees = (await db.raw(
        `SELECT CASE WHEN degree <= 0 THEN '0' WHEN degree = 1 THEN '1' WHEN degree <= 3 THEN '2-3' WHEN degree <= 9 THEN '4-9' WHEN degree <= 99 THEN '10-99' ELSE '100+' END AS bucket,
                COUNT(*) AS count FROM graph_nodes GROUP BY bucket`,
      )) as { bucket: string; count: number }[];
      const ranks = [...(await pageRank(db)).entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
      const named = await labels(
        db,
        ranks.map(([id]) => id),
      );
      return {
        counts: { nodes, edges, sources, templates },
        node_types: nodeTypes,
        relationship_types: relationshipTypes,
        degree_distribution: ['0', '1', '2-3', '4-9', '10-99', '100+'].map((bucket) => ({
          degree: bucket,
          nodes: Number(degrees.find((row) => row.bucket === bucket)?.count ?? 0),
        })),
        top_nodes_by_pagerank: ranks.map(([id, score]) => ({
          node_id: id,
          ...named.get(id),
          pagerank: Math.round(score * 1e6) / 1e6,
        })),
      };
    },
  }),
];
