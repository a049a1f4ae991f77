import { jsonArrayValues, selectRows, type Db } from '../storage/index.ts';

/**
 * What chat reads of other features' tables, in one place: the sources feature's `sources`,
 * `source_tags`, `source_tag_links` and `document_chunks` (a chat's scope, the passages a turn cites)
 * and the graph feature's `graph_nodes` and `graph_edges` (labels of cited entities, the path tool's
 * hops). Plain SQL by id lists because a turn makes these lookups many times and wants one query each.
 */

export interface ChunkWithSource {
  id: string;
  source_id: string;
  chunk_index: number;
  start_offset: number | null;
  end_offset: number | null;
  content: string;
  page_number: number | null;
  chunk_metadata: string | null;
  /** The source's file name, else its title or address. */
  filename: string;
}

export interface EntityLabel {
  id: string;
  label: string;
  template_id: string;
}

/** Which of `ids` the table has. */
export async function existingIds(
  db: Db,
  table: 'sources' | 'source_tags',
  ids: readonly string[],
): Promise<Set<string>> {
  const rows = await selectRows<{ id: string }>(db, `SELECT id FROM ${table} WHERE id IN (${jsonArrayValues(db)})`, [
    JSON.stringify(ids),
  ]);
  return new Set(rows.map((row) => row.id));
}

/** The sources carrying any of the tags. */
export async function sourcesTagged(db: Db, tagIds: readonly string[]): Promise<string[]> {
  return db('source_tag_links').whereIn('tag_id', tagIds).pluck('source_id');
}

export async function chunksWithSource(db: Db, chunkIds: readonly string[]): Promise<ChunkWithSource[]> {
  return selectRows<ChunkWithSource>(
    db,
    `SELECT c.id, c.source_id, c.chunk_index, c.start_offset, c.end_offset, c.content, c.page_number, c.chunk_metadata, COALESCE(s.filename, s.title, s.origin_url, '') AS filename
     FROM document_chunks c JOIN sources s ON s.id = c.source_id WHERE c.id IN (${jsonArrayValues(db)})`,
    [JSON.stringify(chunkIds)],
  );
}

export async function entityLabels(db: Db, kind: 'node' | 'edge', ids: readonly string[]): Promise<EntityLabel[]> {
  return db(kind === 'node' ? 'graph_nodes' : 'graph_edges')
    .whereIn('id', ids)
    .select('id', 'label', 'template_id');
}

/** The edges with an end among `nodeIds` (either direction), at most `limit`. */
export async function edgesTouching(
  db: Db,
  nodeIds: readonly string[],
  limit: number,
): Promise<{ id: string; label: string; a: string; b: string }[]> {
  const ids = JSON.stringify(nodeIds);
  const values = jsonArrayValues(db);
  return selectRows<{ id: string; label: string; a: string; b: string }>(
    db,
    `SELECT e.id, e.label, e.source_node_id AS a, e.target_node_id AS b FROM graph_edges e
     WHERE e.source_node_id IN (${values}) OR e.target_node_id IN (${values}) LIMIT ?`,
    [ids, ids, limit],
  );
}
