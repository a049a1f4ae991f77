import type { Db } from '../storage/index.ts';

async function rowCount(db: Db, table: 'graph_templates' | 'graph_nodes' | 'graph_edges'): Promise<number> {
  const row = await db(table).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export const countNodes = (db: Db) => rowCount(db, 'graph_nodes');

/** What GET /databases and the statistics report of the graph, by count name. */
export const graphCounts = {
  templates: (db: Db) => rowCount(db, 'graph_templates'),
  knowledge_nodes: countNodes,
  links: (db: Db) => rowCount(db, 'graph_edges'),
};
