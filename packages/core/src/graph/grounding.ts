import { selectRows, type Db } from '../storage/index.ts';
import { listEdgeRows, toEdge } from './edges/repo.ts';
import { listNodeRows, toNode, type NodeRow } from './nodes/repo.ts';
import { parseJsonObject } from './nodes/sql.ts';
import { requireNodeRow, withStats, type NodeResponse } from './nodes/service.ts';

/**
 * Read-only graph access for external agents (`/graph/grounding/*`). Lists are in insertion order
 * (rowid), which every index used here already yields, so no page needs a sort.
 */

export interface Window {
  offset: number;
  limit: number;
}

export type NeighborDirection = 'outgoing' | 'incoming' | 'both';
export const neighborDirections: readonly NeighborDirection[] = ['outgoing', 'incoming', 'both'];

const nodeColumns =
  'n.id, n.template_id, n.label, n.properties, n.position_x, n.position_y, n.embedding, n.source_id, n.created_at, n.updated_at';

const groundingNode = (row: NodeRow): NodeResponse => withStats(toNode(row));

/**
 * One page of nodes (optionally of one template), then `q` applied to that page only: `total` reflects
 * the template filter alone, so an agent iterates pages until has_next is false.
 */
export async function groundingNodes(
  db: Db,
  options: { templateId?: string; q?: string; window: Window },
): Promise<{ rows: NodeResponse[]; total: number }> {
  const { rows, total } = await listNodeRows(db, { templateId: options.templateId }, options.window, false);
  const nodes = rows.map(groundingNode);
  const needle = options.q?.toLowerCase();
  return { rows: needle ? nodes.filter((node) => matches(node, needle)) : nodes, total };
}

/** Case-insensitive substring of the label or of any property value (nested values included). */
function matches(node: NodeResponse, needle: string): boolean {
  if (node.label.toLowerCase().includes(needle)) return true;
  return Object.values(node.properties).some((value) => valueMatches(value, needle));
}

function valueMatches(value: unknown, needle: string): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.some((item) => valueMatches(item, needle));
  if (typeof value === 'object')
    return Object.values(value as Record<string, unknown>).some((item) => valueMatches(item, needle));
  return String(value).toLowerCase().includes(needle);
}

/** A node with its edges each way (lists capped at `edgeLimit`, totals uncounted by the cap). */
export async function groundingNodeDetail(db: Db, id: string, edgeLimit: number) {
  const node = groundingNode(await requireNodeRow(db, id));
  const firstPage = { offset: 0, limit: edgeLimit };
  const outgoing = await listEdgeRows(db, { sourceNodeId: id }, firstPage, false);
  const incoming = await listEdgeRows(db, { targetNodeId: id }, firstPage, false);
  return {
    node,
    outgoing_edges: outgoing.rows.map(toEdge),
    incoming_edges: incoming.rows.map(toEdge),
    total_outgoing: outgoing.total,
    total_incoming: incoming.total,
  };
}

export interface Neighbor {
  node: NodeResponse;
  relationship_type: string;
  edge_id: string;
  direction: 'outgoing' | 'incoming';
  edge_properties: Record<string, unknown>;
}

/**
 * The nodes one edge away, outgoing ones first, up to `limit`; `total` counts every neighbour relation
 * in the direction asked (a self-loop is both an outgoing and an incoming one).
 */
export async function groundingNeighbors(db: Db, id: string, direction: NeighborDirection, limit: number) {
  await requireNodeRow(db, id);
  const sides: { direction: 'outgoing' | 'incoming'; own: string; other: string }[] = [];
  if (direction !== 'incoming') sides.push({ direction: 'outgoing', own: 'source_node_id', other: 'target_node_id' });
  if (direction !== 'outgoing') sides.push({ direction: 'incoming', own: 'target_node_id', other: 'source_node_id' });
  let total = 0;
  const neighbors: Neighbor[] = [];
  for (const side of sides) {
    total += Number(
      (await selectRows<{ n: number }>(db, `SELECT COUNT(*) AS n FROM graph_edges WHERE ${side.own} = ?`, [id]))[0].n,
    );
    const room = limit - neighbors.length;
    if (room <= 0) continue;
    const rows = await selectRows<NodeRow & { edge_id: string; edge_label: string; edge_properties: string }>(
      db,
      `SELECT ${nodeColumns}, e.id AS edge_id, e.label AS edge_label, e.properties AS edge_properties
       FROM graph_edges e JOIN graph_nodes n ON n.id = e.${side.other}
       WHERE e.${side.own} = ? ORDER BY e.rowid LIMIT ?`,
      [id, room],
    );
    for (const row of rows) {
      neighbors.push({
        node: groundingNode(row),
        relationship_type: row.edge_label,
        edge_id: row.edge_id,
        direction: side.direction,
        edge_properties: parseJsonObject(row.edge_properties) ?? {},
      });
    }
  }
  return { node_id: id, neighbors, total, direction };
}
