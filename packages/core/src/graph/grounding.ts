import { NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../storage/index.ts';
import { toEdge, type EdgeRow, type GraphEdge } from './edges/repo.ts';
import { toNode, type NodeRow } from './nodes/repo.ts';
import { parseJsonObject } from './nodes/sql.ts';
import { withStats, type NodeResponse } from './nodes/service.ts';

/**
 * Read-only graph access for external agents (spec Part B "Grounding"). Lists are in insertion order
 * (rowid), which every index used here already yields, so no page needs a sort.
 */

export interface Window {
  offset: number;
  limit: number;
}

export type NeighborDirection = 'outgoing' | 'incoming' | 'both';
export const neighborDirections: readonly NeighborDirection[] = ['outgoing', 'incoming', 'both'];

const nodeColumns = 'n.id, n.template_id, n.label, n.properties, n.position_x, n.position_y, n.embedding, n.source_id, n.created_at, n.updated_at';
const edgeColumns = 'e.id, e.template_id, e.source_node_id, e.target_node_id, e.label, e.properties, e.source_id, e.created_at, e.updated_at';

const groundingNode = (row: NodeRow): NodeResponse => withStats(toNode(row));

/**
 * One page of nodes (optionally of one template), then `q` applied to that page only: the spec makes
 * `total` reflect the template filter alone, so an agent iterates pages until has_next is false.
 */
export async function groundingNodes(db: Db, options: { templateId?: string; q?: string; window: Window }): Promise<{ rows: NodeResponse[]; total: number }> {
  const where = options.templateId !== undefined ? 'WHERE n.template_id = ?' : '';
  const filter = options.templateId !== undefined ? [options.templateId] : [];
  const total = Number(((await db.raw(`SELECT COUNT(*) AS n FROM graph_nodes n ${where}`, filter)) as { n: number }[])[0].n);
  const rows = (await db.raw(`SELECT ${nodeColumns} FROM graph_nodes n ${where} ORDER BY n.rowid LIMIT ? OFFSET ?`, [
    ...filter,
    options.window.limit,
    options.window.offset,
  ])) as NodeRow[];
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
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).some((item) => valueMatches(item, needle));
  return String(value).toLowerCase().includes(needle);
}

async function requireNode(db: Db, id: string): Promise<NodeRow> {
  const rows = (await db.raw(`SELECT ${nodeColumns} FROM graph_nodes n WHERE n.id = ?`, [id])) as NodeRow[];
  if (!rows.length) throw NotFound.resource('node', id);
  return rows[0];
}

/** A node with its edges each way (lists capped at `edgeLimit`, totals uncounted by the cap). */
export async function groundingNodeDetail(db: Db, id: string, edgeLimit: number) {
  const node = groundingNode(await requireNode(db, id));
  const side = async (column: 'source_node_id' | 'target_node_id') => {
    const total = Number(((await db.raw(`SELECT COUNT(*) AS n FROM graph_edges WHERE ${column} = ?`, [id])) as { n: number }[])[0].n);
    const rows = (await db.raw(`SELECT ${edgeColumns} FROM graph_edges e WHERE e.${column} = ? ORDER BY e.rowid LIMIT ?`, [id, edgeLimit])) as EdgeRow[];
    return { edges: rows.map(toEdge), total };
  };
  const outgoing = await side('source_node_id');
  const incoming = await side('target_node_id');
  return { node, outgoing_edges: outgoing.edges, incoming_edges: incoming.edges, total_outgoing: outgoing.total, total_incoming: incoming.total };
}

/** Edges, optionally from one node and/or to one node, a page at a time. */
export async function groundingEdges(
  db: Db,
  options: { sourceNodeId?: string; targetNodeId?: string; window: Window },
): Promise<{ rows: GraphEdge[]; total: number }> {
  const conditions: string[] = [];
  const bindings: string[] = [];
  if (options.sourceNodeId !== undefined) {
    conditions.push('e.source_node_id = ?');
    bindings.push(options.sourceNodeId);
  }
  if (options.targetNodeId !== undefined) {
    conditions.push('e.target_node_id = ?');
    bindings.push(options.targetNodeId);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const total = Number(((await db.raw(`SELECT COUNT(*) AS n FROM graph_edges e ${where}`, bindings)) as { n: number }[])[0].n);
  const rows = (await db.raw(`SELECT ${edgeColumns} FROM graph_edges e ${where} ORDER BY e.rowid LIMIT ? OFFSET ?`, [
    ...bindings,
    options.window.limit,
    options.window.offset,
  ])) as EdgeRow[];
  return { rows: rows.map(toEdge), total };
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
  await requireNode(db, id);
  const sides: { direction: 'outgoing' | 'incoming'; own: string; other: string }[] = [];
  if (direction !== 'incoming') sides.push({ direction: 'outgoing', own: 'source_node_id', other: 'target_node_id' });
  if (direction !== 'outgoing') sides.push({ direction: 'incoming', own: 'target_node_id', other: 'source_node_id' });
  let total = 0;
  const neighbors: Neighbor[] = [];
  for (const side of sides) {
    total += Number(((await db.raw(`SELECT COUNT(*) AS n FROM graph_edges WHERE ${side.own} = ?`, [id])) as { n: number }[])[0].n);
    const room = limit - neighbors.length;
    if (room <= 0) continue;
    const rows = (await db.raw(
      `SELECT ${nodeColumns}, e.id AS edge_id, e.label AS edge_label, e.properties AS edge_properties
       FROM graph_edges e JOIN graph_nodes n ON n.id = e.${side.other}
       WHERE e.${side.own} = ? ORDER BY e.rowid LIMIT ?`,
      [id, room],
    )) as (NodeRow & { edge_id: string; edge_label: string; edge_properties: string })[];
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
