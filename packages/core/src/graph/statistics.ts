import { perDialect, selectRows, type Db } from '../storage/index.ts';

/** The degree buckets of the distribution, in order. */
export const degreeBuckets = ['0', '1', '2-3', '4-9', '10-99', '100+'] as const;

export interface GraphStatistics {
  counts: { nodes: number; edges: number; templates: number };
  node_types: { type: string | null; count: number }[];
  /** The 50 most used edge labels. */
  relationship_types: { type: string; count: number }[];
  degree_distribution: { degree: (typeof degreeBuckets)[number]; nodes: number }[];
}

const countOf = async (db: Db, table: string) => Number((await db(table).count({ n: '*' }).first())?.n ?? 0);
const rowsOf = <T>(db: Db, sql: string) => selectRows<T>(db, sql);

/** Nodes per template name; PostgreSQL wants the name grouped too (it follows from the template id). */
const nodeTypesSql = perDialect<[], string>({
  sqlite: () =>
    'SELECT t.name AS type, COUNT(*) AS count FROM graph_nodes n LEFT JOIN graph_templates t ON t.id = n.template_id GROUP BY n.template_id ORDER BY count DESC',
  postgres: () =>
    'SELECT t.name AS type, COUNT(*) AS count FROM graph_nodes n LEFT JOIN graph_templates t ON t.id = n.template_id GROUP BY n.template_id, t.name ORDER BY count DESC',
});

/** The shape of the graph: how many nodes, edges and templates, nodes per template, edges per label, degrees. */
export async function graphStatistics(db: Db): Promise<GraphStatistics> {
  const [nodes, edges, templates, nodeTypes, relationshipTypes, degrees] = await Promise.all([
    countOf(db, 'graph_nodes'),
    countOf(db, 'graph_edges'),
    countOf(db, 'graph_templates'),
    rowsOf<{ type: string | null; count: number }>(db, nodeTypesSql(db)),
    rowsOf<{ type: string; count: number }>(
      db,
      'SELECT label AS type, COUNT(*) AS count FROM graph_edges GROUP BY label ORDER BY count DESC LIMIT 50',
    ),
    rowsOf<{ bucket: string; count: number }>(
      db,
      `SELECT CASE WHEN degree <= 0 THEN '0' WHEN degree = 1 THEN '1' WHEN degree <= 3 THEN '2-3' WHEN degree <= 9 THEN '4-9' WHEN degree <= 99 THEN '10-99' ELSE '100+' END AS bucket,
              COUNT(*) AS count FROM graph_nodes GROUP BY bucket`,
    ),
  ]);
  return {
    counts: { nodes, edges, templates },
    node_types: nodeTypes,
    relationship_types: relationshipTypes,
    degree_distribution: degreeBuckets.map((degree) => ({
      degree,
      nodes: Number(degrees.find((row) => row.bucket === degree)?.count ?? 0),
    })),
  };
}
