import { selectRows, type Db } from '../../storage/index.ts';
import { deleteItemRow, findItemRow, itemPage, itemsQuery, nodeTable, updateItemRow, type Window } from '../items.ts';
import { normalizeNameKey } from '../names.ts';
import { parseJsonArray, parseJsonObject, placeholders } from './sql.ts';

/** A row of graph_nodes as SQLite returns it. */
export interface NodeRow {
  id: string;
  template_id: string;
  label: string;
  properties: string;
  position_x: number | null;
  position_y: number | null;
  embedding: string | null;
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface Position {
  x: number;
  y: number;
}

export interface GraphNode {
  id: string;
  template_id: string;
  label: string;
  properties: Record<string, unknown>;
  position: Position | null;
  embedding: number[] | null;
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface NodeStats {
  edge_count: number;
  incoming_edge_count: number;
  outgoing_edge_count: number;
  citation_count: number;
  relationship_type_count: number;
}

export type MinimalNode = Pick<GraphNode, 'id' | 'label' | 'template_id' | 'position'>;

export interface NodeFilter {
  templateId?: string;
  sourceIds?: string[];
  /** Only nodes carrying this entity tag. */
  tagId?: string;
}

const columns = [
  'id',
  'template_id',
  'label',
  'properties',
  'position_x',
  'position_y',
  'embedding',
  'source_id',
  'created_at',
  'updated_at',
] as const;
const minimalColumns = ['id', 'label', 'template_id', 'position_x', 'position_y'] as const;
/** Rows per multi-row INSERT (10 columns each, well under SQLite's bound-parameter limit). */
const insertChunk = 500;

export function toNode(row: NodeRow): GraphNode {
  return {
    id: row.id,
    template_id: row.template_id,
    label: row.label,
    properties: parseJsonObject(row.properties) ?? {},
    position: toPosition(row),
    embedding: parseJsonArray(row.embedding) as number[] | null,
    source_id: row.source_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toMinimalNode(row: Pick<NodeRow, (typeof minimalColumns)[number]>): MinimalNode {
  return { id: row.id, label: row.label, template_id: row.template_id, position: toPosition(row) };
}

export function toRow(node: GraphNode): NodeRow {
  return {
    id: node.id,
    template_id: node.template_id,
    label: node.label,
    properties: JSON.stringify(node.properties),
    position_x: node.position?.x ?? null,
    position_y: node.position?.y ?? null,
    embedding: node.embedding ? JSON.stringify(node.embedding) : null,
    source_id: node.source_id,
    created_at: node.created_at,
    updated_at: node.updated_at,
  };
}

function toPosition(row: { position_x: number | null; position_y: number | null }): Position | null {
  return row.position_x === null || row.position_y === null ? null : { x: row.position_x, y: row.position_y };
}

/**
 * Multi-row INSERTs of many nodes (one statement per 500). Each gets the name key of its label, by which
 * a later extraction finds the node when it names the same entity.
 */
export async function insertNodeRows(db: Db, rows: NodeRow[]): Promise<void> {
  const written = [...columns, 'name_key'];
  for (let start = 0; start < rows.length; start += insertChunk) {
    const chunk = rows.slice(start, start + insertChunk);
    const values = chunk.map(() => `(${placeholders(written.length)})`).join(', ');
    await db.raw(
      `INSERT INTO graph_nodes (${written.join(', ')}) VALUES ${values}`,
      chunk.flatMap((row) => [...columns.map((column) => row[column]), normalizeNameKey(row.label)]),
    );
  }
}

export function findNodeRow(db: Db, id: string): Promise<NodeRow | undefined> {
  return findItemRow<NodeRow>(db, nodeTable, id, columns);
}

/** Which of `ids` exist, with their template ids. */
export async function nodeTemplates(db: Db, ids: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += insertChunk) {
    const rows = await db('graph_nodes')
      .whereIn('id', unique.slice(start, start + insertChunk))
      .select('id', 'template_id');
    for (const row of rows) found.set(row.id, row.template_id);
  }
  return found;
}

function filtered(db: Db, filter: NodeFilter) {
  const query = itemsQuery(db, nodeTable, filter.sourceIds);
  if (filter.templateId !== undefined) query.where('template_id', filter.templateId);
  if (filter.tagId !== undefined)
    query.whereIn('id', db('node_tag_links').where('tag_id', filter.tagId).select('node_id'));
  return query;
}

/** One page of nodes in creation (rowid) order, and how many match. */
export function listNodeRows(db: Db, filter: NodeFilter, window: Window, minimal: boolean) {
  return itemPage<NodeRow>(() => filtered(db, filter), minimal ? minimalColumns : columns, window);
}

/**
 * The five counts of include_stats for a page of nodes, in one statement. edge_count is the degree,
 * incoming plus outgoing (a self-loop counts in both), the same figure the connections list shows.
 */
export async function nodeStats(db: Db, ids: string[]): Promise<Map<string, NodeStats>> {
  const stats = new Map<string, NodeStats>();
  if (!ids.length) return stats;
  const rows = await selectRows<{ id: string } & Omit<NodeStats, 'edge_count'>>(
    db,
    `SELECT n.id AS id,
       (SELECT COUNT(*) FROM graph_edges e WHERE e.target_node_id = n.id) AS incoming_edge_count,
       (SELECT COUNT(*) FROM graph_edges e WHERE e.source_node_id = n.id) AS outgoing_edge_count,
       (SELECT COUNT(*) FROM source_citations c WHERE c.entity_uri = n.id) AS citation_count,
       (SELECT COUNT(DISTINCT e.label) FROM graph_edges e WHERE e.source_node_id = n.id OR e.target_node_id = n.id) AS relationship_type_count
     FROM graph_nodes n WHERE n.id IN (${placeholders(ids.length)})`,
    ids,
  );
  for (const { id, ...counts } of rows)
    stats.set(id, { edge_count: counts.incoming_edge_count + counts.outgoing_edge_count, ...counts });
  return stats;
}

export async function updateNodeRow(
  db: Db,
  id: string,
  changes: Partial<Omit<NodeRow, 'id' | 'created_at'>>,
): Promise<void> {
  const nameKey = changes.label === undefined ? {} : { name_key: normalizeNameKey(changes.label) };
  await updateItemRow(db, nodeTable, id, { ...changes, ...nameKey });
}

/** Deletes a node; its edges and citations go with it (ON DELETE CASCADE). */
export function deleteNodeRow(db: Db, id: string): Promise<boolean> {
  return deleteItemRow(db, nodeTable, id);
}
