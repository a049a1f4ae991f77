/**
 * Search's read model of the graph, for graph search. It reads tables other features own:
 * - the graph's `graph_version` (change counters its triggers keep), `graph_nodes`, `graph_edges` and
 *   `node_sources`;
 * - the sources feature's `sources` (title, enabled) and `document_chunks`;
 * - the extraction's `source_citations`.
 * Raw SQL rather than the owners' faces because graph search loads whole tables into memory (a million
 * edges as column arrays, not row objects) and answers each query with a few id-list lookups in
 * milliseconds. Only reads happen here.
 */
import { jsonArrayValues, selectRows, type Db } from '../../storage/index.ts';
import { scanColumns } from './scan.ts';

/** The graph's change counters: `structure` moves with any node or edge write, `scope` with what decides which sources a node belongs to. */
export interface GraphVersion {
  structure: number;
  scope: number;
}

/** The change counters of the graph (one single-row read). */
export async function readGraphVersion(db: Db): Promise<GraphVersion> {
  const rows = await selectRows<GraphVersion>(db, 'SELECT structure, scope FROM graph_version WHERE id = 1');
  return rows[0] ?? { structure: 0, scope: 0 };
}

/** Every node's id and template, in rowid order, a batch at a time. */
export function scanNodeTemplates(db: Db, visit: (ids: string[], templates: string[]) => void): Promise<void> {
  return scanColumns(
    db,
    'SELECT rowid AS r, id, template_id FROM graph_nodes WHERE rowid > ? ORDER BY rowid LIMIT ?',
    ['id', 'template_id'],
    ([ids, templates]) => visit(ids, templates),
  );
}

/** Every edge's ends and label, in rowid order, a batch at a time. */
export function scanEdges(
  db: Db,
  visit: (sources: string[], targets: string[], labels: string[]) => void,
): Promise<void> {
  const edges =
    'SELECT rowid AS r, source_node_id AS s, target_node_id AS t, label AS l FROM graph_edges WHERE rowid > ? ORDER BY rowid LIMIT ?';
  return scanColumns(db, edges, ['s', 't', 'l'], ([sources, targets, labels]) => visit(sources, targets, labels));
}

/** Every citation of a chunk: the cited node, the chunk and the chunk's source, a batch at a time. */
export function scanCitedChunks(
  db: Db,
  visit: (nodes: string[], chunks: string[], sources: string[]) => void,
): Promise<void> {
  const citations = `SELECT c.rowid AS r, c.entity_uri AS e, c.chunk_id AS c, d.source_id AS s
    FROM source_citations c JOIN document_chunks d ON d.id = c.chunk_id WHERE c.rowid > ? ORDER BY c.rowid LIMIT ?`;
  return scanColumns(db, citations, ['e', 'c', 's'], ([nodes, chunks, sources]) => visit(nodes, chunks, sources));
}

/** The newest citation and chunk rowids and the latest change of a source: what the passage graph is built from, beyond the graph's counters. */
export async function passageStamps(
  db: Db,
): Promise<{ cited: number | null; chunks: number | null; sources: string | null }> {
  const [row] = await selectRows<{ cited: number | null; chunks: number | null; sources: string | null }>(
    db,
    'SELECT (SELECT max(rowid) FROM source_citations) AS cited, (SELECT max(rowid) FROM document_chunks) AS chunks, (SELECT max(updated_at) FROM sources) AS sources',
  );
  return row ?? { cited: null, chunks: null, sources: null };
}

/** Each source's first chunk with the source's title (its filename when it has none). */
export async function firstChunksOfSources(db: Db): Promise<{ id: string; source_id: string; title: string }[]> {
  return selectRows<{ id: string; source_id: string; title: string }>(
    db,
    `SELECT * FROM (SELECT (SELECT c.id FROM document_chunks c WHERE c.source_id = s.id ORDER BY c.chunk_index LIMIT 1) AS id,
                           s.id AS source_id, COALESCE(s.title, s.filename, '') AS title FROM sources s) AS firsts
     WHERE id IS NOT NULL`,
  );
}

/** Extracted nodes whose normalised name is one of `keys`. */
export async function extractedNodesNamed(db: Db, keys: string[]): Promise<{ id: string; name_key: string }[]> {
  return selectRows<{ id: string; name_key: string }>(
    db,
    `SELECT id, name_key FROM graph_nodes WHERE extracted = TRUE AND name_key IN (${jsonArrayValues(db)})`,
    [JSON.stringify(keys)],
  );
}

/** Nodes whose normalised name is one of `keys` or whose label is one of `labels`. */
export async function nodesNamed(
  db: Db,
  keys: string[],
  labels: string[],
): Promise<{ id: string; name_key: string | null; label: string }[]> {
  return selectRows<{ id: string; name_key: string | null; label: string }>(
    db,
    `SELECT id, name_key, label FROM graph_nodes WHERE name_key IN (${jsonArrayValues(db)})
     UNION SELECT id, name_key, label FROM graph_nodes WHERE label IN (${jsonArrayValues(db)})`,
    [JSON.stringify(keys), JSON.stringify(labels)],
  );
}

/** Label and template of the nodes among `ids` that exist. */
export async function nodeFacts(db: Db, ids: string[]): Promise<{ id: string; label: string; template_id: string }[]> {
  return selectRows<{ id: string; label: string; template_id: string }>(
    db,
    `SELECT id, label, template_id FROM graph_nodes WHERE id IN (${jsonArrayValues(db)})`,
    [JSON.stringify(ids)],
  );
}

/** The enabled sources, of `sourceIds` only when given. */
export async function enabledSources(db: Db, sourceIds: string[] | null): Promise<string[]> {
  const rows = await (sourceIds
    ? selectRows<{ id: string }>(db, `SELECT id FROM sources WHERE enabled = TRUE AND id IN (${jsonArrayValues(db)})`, [
        JSON.stringify(sourceIds),
      ])
    : selectRows<{ id: string }>(db, 'SELECT id FROM sources WHERE enabled = TRUE'));
  return rows.map((row) => row.id);
}
