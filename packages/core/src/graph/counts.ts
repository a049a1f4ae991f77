import { countRows, type Db } from '../storage/index.ts';

export const countNodes = (db: Db) => countRows(db, 'graph_nodes');

/** What GET /databases and the statistics report of the graph, by count name. */
export const graphCounts = {
  templates: (db: Db) => countRows(db, 'graph_templates'),
  knowledge_nodes: countNodes,
  links: (db: Db) => countRows(db, 'graph_edges'),
};
