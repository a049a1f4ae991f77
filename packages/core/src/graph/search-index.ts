import type { Knex } from 'knex';
import { perDialect, selectRows } from '../storage/index.ts';

/**
 * The one indexing hook every node write goes through, inside the write's transaction and after the
 * node row exists, so the full-text index never disagrees with the nodes (vectors join here when
 * embeddings exist). Index rows are keyed by the node's rowid; a trigger drops them when a node goes.
 */
export async function indexNode(
  db: Knex,
  node: { id: string; label: string; properties: Record<string, unknown> },
): Promise<void> {
  await db.raw('DELETE FROM fts_nodes WHERE rowid = (SELECT rowid FROM graph_nodes WHERE id = ?)', [node.id]);
  await db.raw(
    'INSERT INTO fts_nodes (rowid, node_id, label, body) SELECT rowid, id, ?, ? FROM graph_nodes WHERE id = ?',
    [node.label, propertyText(node.properties), node.id],
  );
}

/** Index entries `[id, label, body]` as one JSON array, each joined to its node's rowid. */
const insertEntries = perDialect<[entries: string], Promise<unknown>>({
  sqlite: (db, entries) =>
    db.raw(
      `INSERT INTO fts_nodes (rowid, node_id, label, body)
       SELECT n.rowid, n.id, json_extract(e.value, '$[1]'), json_extract(e.value, '$[2]')
       FROM json_each(?) e JOIN graph_nodes n ON n.id = json_extract(e.value, '$[0]')`,
      [entries],
    ),
  postgres: (db, entries) =>
    db.raw(
      `INSERT INTO fts_nodes (rowid, node_id, label, body)
       SELECT n.rowid, n.id, e.value ->> 1, e.value ->> 2
       FROM json_array_elements(?::json) e JOIN graph_nodes n ON n.id = e.value ->> 0`,
      [entries],
    ),
});

/** Indexes nodes just inserted (none has an entry yet) in one statement: the batch path. */
export async function indexNewNodes(
  db: Knex,
  nodes: { id: string; label: string; properties: Record<string, unknown> }[],
): Promise<void> {
  if (nodes.length === 0) return;
  await insertEntries(db, JSON.stringify(nodes.map((node) => [node.id, node.label, propertyText(node.properties)])));
}

const reindexBatch = 2_000;

/**
 * Re-enters every node into the full-text index from the rows themselves, one rowid range per
 * transaction (an index entry shares its node's rowid), so keyword search keeps answering meanwhile and
 * entries left by nodes deleted behind the triggers go too. Returns how many nodes were indexed.
 */
export async function reindexNodes(db: Knex): Promise<number> {
  let nodes = 0;
  let after = 0;
  for (;;) {
    const rows = await selectRows<{ rowid: number; id: string; label: string; properties: string }>(
      db,
      'SELECT rowid, id, label, properties FROM graph_nodes WHERE rowid > ? ORDER BY rowid LIMIT ?',
      [after, reindexBatch],
    );
    if (!rows.length) break;
    const last = rows[rows.length - 1].rowid;
    await db.transaction(async (trx) => {
      await trx.raw('DELETE FROM fts_nodes WHERE rowid > ? AND rowid <= ?', [after, last]);
      await indexNewNodes(
        trx,
        rows.map((row) => ({
          id: row.id,
          label: row.label,
          properties: JSON.parse(row.properties) as Record<string, unknown>,
        })),
      );
    });
    nodes += rows.length;
    after = last;
  }
  await db.raw('DELETE FROM fts_nodes WHERE rowid > ?', [after]);
  return nodes;
}

/** Every property value as searchable text: strings as they are, everything else as JSON. */
export function propertyText(properties: Record<string, unknown>): string {
  return Object.values(properties)
    .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
    .join(' ');
}
