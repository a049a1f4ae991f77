import { insertRows, type Db } from '../../storage/index.ts';
import { updateEdgeRow } from '../edges/repo.ts';

/** An edge to insert, written in the caller's transaction. */
export interface NewEdge {
  id: string;
  template_id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  properties: Record<string, unknown>;
  extracted: boolean;
  created_at: string;
  updated_at: string;
  source_id?: string | null;
  ccx_iri?: string | null;
}

/** An existing edge written again; a label is given only when it changes (a new label changes the graph's structure). */
export interface EdgeRewrite {
  id: string;
  properties: Record<string, unknown>;
  label?: string;
}

const edgeColumns = [
  'id',
  'template_id',
  'source_node_id',
  'target_node_id',
  'label',
  'properties',
  'source_id',
  'ccx_iri',
  'extracted',
  'created_at',
  'updated_at',
] as const;
const idSlice = 500;

/** Inserts edges in multi-row statements. */
export async function insertEdges(trx: Db, edges: NewEdge[]): Promise<void> {
  await insertRows(
    trx,
    'graph_edges',
    edgeColumns,
    edges.map((edge) => ({ ...edge, properties: JSON.stringify(edge.properties) })),
  );
}

/** Stores new properties (and labels, where given) of existing edges: one statement per edge. */
export async function rewriteEdges(trx: Db, edges: EdgeRewrite[], now: string): Promise<void> {
  for (const edge of edges)
    await updateEdgeRow(trx, edge.id, {
      ...(edge.label === undefined ? {} : { label: edge.label }),
      properties: JSON.stringify(edge.properties),
      updated_at: now,
    });
}

/** The stored properties of those of `ids` that are edges, by id. */
export async function edgePropertiesById(trx: Db, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < ids.length; start += idSlice) {
    const rows = (await trx('graph_edges')
      .whereIn('id', ids.slice(start, start + idSlice))
      .select('id', 'properties')) as { id: string; properties: string }[];
    for (const row of rows) found.set(row.id, JSON.parse(row.properties) as Record<string, unknown>);
  }
  return found;
}
