/**
 * What the node vector sweep reads of tables other features own: the graph's `graph_nodes` and
 * `node_embeddings`, and automation's `triggers` and `workflows`. Only reads happen here.
 */
import { selectRows, type Db } from '../../storage/index.ts';

/**
 * Whether a system trigger on node.create (the seeded auto-embed trigger) is enabled with its workflow
 * active: while it is, every new node is meant to get a vector.
 */
export async function autoEmbedArmed(db: Db): Promise<boolean> {
  const rows = await selectRows<unknown>(
    db,
    `SELECT 1 FROM triggers t JOIN workflows w ON w.id = t.workflow_id
     WHERE t.is_system = TRUE AND t.event_source = 'node.create' AND t.enabled = TRUE AND w.is_active = TRUE LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Whether some node has no vector row at all. A vector row belongs to exactly one node (its key, deleted
 * with the node), so equal counts mean none lacks one: two counts over the tables' smallest indexes,
 * far cheaper than looking for the nodes themselves.
 */
export async function someNodeLacksVector(db: Db): Promise<boolean> {
  const [row] = await selectRows<{ lacking: number }>(
    db,
    'SELECT (SELECT COUNT(*) FROM graph_nodes) - (SELECT COUNT(*) FROM node_embeddings) AS lacking',
  );
  return row.lacking > 0;
}

/** Ids of nodes created before `createdBefore` (ISO time) that have no vector row, after `after` (rowid). */
export async function nodesWithoutVector(
  db: Db,
  createdBefore: string,
  after: number,
  limit: number,
): Promise<{ rowid: number; id: string }[]> {
  return selectRows<{ rowid: number; id: string }>(
    db,
    `SELECT n.rowid AS rowid, n.id AS id FROM graph_nodes n
     WHERE n.rowid > ? AND n.created_at < ? AND NOT EXISTS (SELECT 1 FROM node_embeddings e WHERE e.node_id = n.id)
     ORDER BY n.rowid LIMIT ?`,
    [after, createdBefore, limit],
  );
}
