import { perDialect, selectRows, type Db } from '../../storage/index.ts';

export type ConnectionSort = 'edge_count' | 'label' | 'relationship';

export interface Connection {
  id: string;
  label: string;
  template_id: string;
  edge_count: number;
  relationship: string;
  direction: 'incoming' | 'outgoing';
}

interface Window {
  offset: number;
  limit: number;
}

/**
 * Every edge touching the node, as seen from it: outgoing edges give their target, incoming ones their
 * source (a self-loop appears once, as outgoing). Both branches use the endpoint indexes.
 */
const touching = `
  SELECT e.id AS edge_id, e.label AS relationship, e.target_node_id AS other, 'outgoing' AS direction
    FROM graph_edges e WHERE e.source_node_id = :node
  UNION ALL
  SELECT e.id, e.label, e.source_node_id, 'incoming'
    FROM graph_edges e WHERE e.target_node_id = :node AND e.source_node_id <> :node`;

/** The orderings of a page, names compared regardless of case by `caseless`. */
const orderingsBy = (caseless: (column: string) => string): Record<ConnectionSort, string> => {
  const [label, relationship] = [caseless('n.label'), caseless('t.relationship')];
  return {
    edge_count: `edge_count DESC, ${label}, ${relationship}, t.edge_id`,
    label: `${label}, ${relationship}, t.edge_id`,
    relationship: `${relationship}, ${label}, t.edge_id`,
  };
};
const sqliteOrderings = orderingsBy((column) => `${column} COLLATE NOCASE`);
const postgresOrderings = orderingsBy((column) => `lower(${column})`);
const orderings = perDialect({ sqlite: () => sqliteOrderings, postgres: () => postgresOrderings });

/**
 * One page of the node's connections in one statement. The degree of each connected node (edge_count:
 * its incoming plus its outgoing edges, so a self-loop counts in both, as in graph degree) comes from
 * two index-only counts per distinct neighbour, never a query per neighbour from here: about 15 ms for a
 * 1,000-degree hub whose neighbours have hundreds of edges each (excluding self-loops instead would need
 * a table lookup per counted edge and costs ten times as much).
 */
export async function connectionsPage(
  db: Db,
  nodeId: string,
  sort: ConnectionSort,
  window: Window,
): Promise<{ rows: Connection[]; total: number }> {
  const [{ total }] = await selectRows<{ total: number }>(
    db,
    `SELECT COUNT(*) AS total FROM (${touching}) AS touching`,
    {
      node: nodeId,
    },
  );
  if (!total || window.offset >= total) return { rows: [], total: Number(total) };
  const rows = await selectRows<Connection>(
    db,
    `WITH t AS (${touching}),
     degree AS (
       SELECT nb.id AS node_id,
              (SELECT COUNT(*) FROM graph_edges e WHERE e.source_node_id = nb.id)
            + (SELECT COUNT(*) FROM graph_edges e WHERE e.target_node_id = nb.id) AS edge_count
         FROM (SELECT DISTINCT other AS id FROM t) nb
     )
     SELECT t.other AS id, n.label AS label, n.template_id AS template_id, COALESCE(d.edge_count, 0) AS edge_count,
            t.relationship AS relationship, t.direction AS direction
       FROM t JOIN graph_nodes n ON n.id = t.other LEFT JOIN degree d ON d.node_id = t.other
      ORDER BY ${orderings(db)[sort]}
      LIMIT :limit OFFSET :offset`,
    { node: nodeId, limit: window.limit, offset: window.offset },
  );
  return { rows: rows.map((row) => ({ ...row, edge_count: Number(row.edge_count) })), total: Number(total) };
}
