import type { Db } from '../../storage/index.ts';
import { deleteItemRow, edgeTable, findItemRow, itemPage, itemsQuery, updateItemRow, type Window } from '../items.ts';
import { parseJsonObject, placeholders } from '../nodes/sql.ts';

/** A row of graph_edges as SQLite returns it. */
export interface EdgeRow {
  id: string;
  template_id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  properties: string;
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

/** An edge as the API shows it (EdgeResponse has no source_id). */
export interface GraphEdge {
  id: string;
  template_id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  properties: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export type MinimalEdge = Pick<GraphEdge, 'id' | 'source_node_id' | 'target_node_id' | 'label' | 'template_id'>;

export interface EdgeFilter {
  sourceNodeId?: string;
  targetNodeId?: string;
  /** The relationship type: edges whose label is exactly this. */
  label?: string;
  sourceIds?: string[];
}

const columns = [
  'id',
  'template_id',
  'source_node_id',
  'target_node_id',
  'label',
  'properties',
  'source_id',
  'created_at',
  'updated_at',
] as const;
const minimalColumns = ['id', 'source_node_id', 'target_node_id', 'label', 'template_id'] as const;
const insertChunk = 500;

export function toEdge(row: EdgeRow): GraphEdge {
  return {
    id: row.id,
    template_id: row.template_id,
    source_node_id: row.source_node_id,
    target_node_id: row.target_node_id,
    label: row.label,
    properties: parseJsonObject(row.properties) ?? {},
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toMinimalEdge(row: MinimalEdge): MinimalEdge {
  return {
    id: row.id,
    source_node_id: row.source_node_id,
    target_node_id: row.target_node_id,
    label: row.label,
    template_id: row.template_id,
  };
}

/** Multi-row INSERTs of many edges (one statement per 500). */
export async function insertEdgeRows(db: Db, rows: EdgeRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += insertChunk) {
    const chunk = rows.slice(start, start + insertChunk);
    const values = chunk.map(() => `(${placeholders(columns.length)})`).join(', ');
    await db.raw(
      `INSERT INTO graph_edges (${columns.join(', ')}) VALUES ${values}`,
      chunk.flatMap((row) => columns.map((column) => row[column])),
    );
  }
}

export function findEdgeRow(db: Db, id: string): Promise<EdgeRow | undefined> {
  return findItemRow<EdgeRow>(db, edgeTable, id, columns);
}

function filtered(db: Db, filter: EdgeFilter) {
  const query = itemsQuery(db, edgeTable, filter.sourceIds);
  if (filter.sourceNodeId !== undefined) query.where('source_node_id', filter.sourceNodeId);
  if (filter.targetNodeId !== undefined) query.where('target_node_id', filter.targetNodeId);
  if (filter.label !== undefined) query.where('label', filter.label);
  return query;
}

/** One page of edges in creation (rowid) order, and how many match. */
export function listEdgeRows(db: Db, filter: EdgeFilter, window: Window, minimal: boolean) {
  return itemPage<EdgeRow>(() => filtered(db, filter), minimal ? minimalColumns : columns, window);
}

/** Every relationship type in use with how many edges have it, the most used first. */
export async function edgeLabelCounts(db: Db): Promise<{ label: string; count: number }[]> {
  const rows = (await db(edgeTable.name)
    .select('label')
    .count({ count: '*' })
    .groupBy('label')
    .orderBy([{ column: 'count', order: 'desc' }, { column: 'label' }])) as { label: string; count: number | string }[];
  return rows.map((row) => ({ label: row.label, count: Number(row.count) }));
}

export function updateEdgeRow(
  db: Db,
  id: string,
  changes: Partial<Pick<EdgeRow, 'label' | 'properties' | 'updated_at'>>,
): Promise<void> {
  return updateItemRow(db, edgeTable, id, changes);
}

export function deleteEdgeRow(db: Db, id: string): Promise<boolean> {
  return deleteItemRow(db, edgeTable, id);
}
