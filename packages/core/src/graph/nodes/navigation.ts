import type { Db } from '../../storage/index.ts';
import { parseJsonObject } from './sql.ts';

export type ConnectionSort = 'edge_count' | 'label' | 'relationship';

export interface Connection {
  id: string;
  label: string;
  template_id: string;
  edge_count: number;
  relationship: string;
  direction: 'incoming' | 'outgoing';
}

export interface Citation {
  id: string;
  source: { id: string; title: string; source_type: string; origin_url: string | null };
  chunk: { id: string; content: string; page_number: number | null; section: string | null; chunk_metadata: Record<string, unknown> | null } | null;
  confidence: number;
  extraction_method: string;
  context_snippet: string | null;
  citation_metadata: Record<string, unknown> | null;
  created_at: string;
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

const orderings: Record<ConnectionSort, string> = {
  edge_count: 'edge_count DESC, n.label COLLATE NOCASE, t.relationship COLLATE NOCASE, t.edge_id',
  label: 'n.label COLLATE NOCASE, t.relationship COLLATE NOCASE, t.edge_id',
  relationship: 't.relationship COLLATE NOCASE, n.label COLLATE NOCASE, t.edge_id',
};

/**
 * One page of the node's connections in one statement. The degree of each connected node (edge_count:
 * its incoming plus its outgoing edges, so a self-loop counts in both, as in graph degree) comes from
 * two index-only counts per distinct neighbour, never a query per neighbour from here: about 15 ms for a
 * 1,000-degree hub whose neighbours have hundreds of edges each (excluding self-loops instead would need
 * a table lookup per counted edge and costs ten times as much).
 */
export async function connectionsPage(db: Db, nodeId: string, sort: ConnectionSort, window: Window): Promise<{ rows: Connection[]; total: number }> {
  const [{ total }] = (await db.raw(`SELECT COUNT(*) AS total FROM (${touching})`, { node: nodeId })) as { total: number }[];
  if (!total || window.offset >= total) return { rows: [], total: Number(total) };
  const rows = (await db.raw(
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
      ORDER BY ${orderings[sort]}
      LIMIT :limit OFFSET :offset`,
    { node: nodeId, limit: window.limit, offset: window.offset },
  )) as Connection[];
  return { rows: rows.map((row) => ({ ...row, edge_count: Number(row.edge_count) })), total: Number(total) };
}

interface CitationRow {
  id: string;
  confidence: number;
  extraction_method: string;
  context_snippet: string | null;
  citation_metadata: string | null;
  created_at: string;
  source_id: string;
  source_title: string | null;
  source_filename: string | null;
  source_type: string;
  origin_url: string | null;
  chunk_id: string | null;
  chunk_content: string | null;
  page_number: number | null;
  section: string | null;
  chunk_metadata: string | null;
}

/** One page of the node's citations (source_citations ⨝ sources ⨝ document_chunks), oldest first. */
export async function citationsPage(db: Db, nodeId: string, window: Window): Promise<{ rows: Citation[]; total: number }> {
  const [{ total }] = (await db('source_citations').where({ entity_uri: nodeId }).count({ total: '*' })) as { total: number }[];
  if (!total || window.offset >= Number(total)) return { rows: [], total: Number(total) };
  const rows = (await db('source_citations as c')
    .join('sources as s', 's.id', 'c.source_id')
    .leftJoin('document_chunks as k', 'k.id', 'c.chunk_id')
    .where('c.entity_uri', nodeId)
    .select(
      'c.id', 'c.confidence', 'c.extraction_method', 'c.context_snippet', 'c.citation_metadata', 'c.created_at', 'c.source_id',
      's.title as source_title', 's.filename as source_filename', 's.source_type', 's.origin_url',
      'k.id as chunk_id', 'k.content as chunk_content', 'k.page_number', 'k.section', 'k.chunk_metadata',
    )
    .orderBy([{ column: 'c.created_at' }, { column: 'c.rowid' }])
    .limit(window.limit)
    .offset(window.offset)) as CitationRow[];
  return { rows: rows.map(toCitation), total: Number(total) };
}

function toCitation(row: CitationRow): Citation {
  return {
    id: row.id,
    source: { id: row.source_id, title: row.source_title ?? row.source_filename ?? row.source_id, source_type: row.source_type, origin_url: row.origin_url },
    chunk: row.chunk_id === null
      ? null
      : {
          id: row.chunk_id,
          content: row.chunk_content ?? '',
          page_number: row.page_number,
          section: row.section,
          chunk_metadata: parseJsonObject(row.chunk_metadata),
        },
    confidence: Number(row.confidence),
    extraction_method: row.extraction_method,
    context_snippet: row.context_snippet,
    citation_metadata: parseJsonObject(row.citation_metadata),
    created_at: row.created_at,
  };
}
