/**
 * The graph's read model of the tables other features own, for what the graph API shows beside its own
 * rows: the sources feature's `sources` and `document_chunks` and the extraction's `source_citations` and
 * `relationship_citations`. Reads only, in SQL joined with graph rows where a page needs them together (a
 * node's or an edge's citations, the image sources' entities, the snapshot's per-source counts, which nodes a
 * source scope shows).
 */
import { jsonArrayValues, perDialect, selectRows, type Db } from '../storage/index.ts';
import { parseJsonObject } from './nodes/sql.ts';

export interface Citation {
  id: string;
  source: { id: string; title: string; source_type: string; origin_url: string | null };
  chunk: {
    id: string;
    content: string;
    page_number: number | null;
    section: string | null;
    chunk_metadata: Record<string, unknown> | null;
  } | null;
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

/** The table holding the citations of an item kind, and its column naming the cited item. */
const citationTables = {
  node: { table: 'source_citations', item: 'entity_uri' },
  edge: { table: 'relationship_citations', item: 'edge_id' },
} as const;

/** One page of the node's citations (source_citations ⨝ sources ⨝ document_chunks), oldest first. */
export function citationsPage(db: Db, nodeId: string, window: Window): Promise<{ rows: Citation[]; total: number }> {
  return citationsOf(db, 'node', nodeId, window);
}

/** One page of the edge's citations (relationship_citations ⨝ sources ⨝ document_chunks), oldest first. */
export function edgeCitationsPage(
  db: Db,
  edgeId: string,
  window: Window,
): Promise<{ rows: Citation[]; total: number }> {
  return citationsOf(db, 'edge', edgeId, window);
}

async function citationsOf(
  db: Db,
  kind: keyof typeof citationTables,
  id: string,
  window: Window,
): Promise<{ rows: Citation[]; total: number }> {
  const { table, item } = citationTables[kind];
  const [{ total }] = (await db(table).where(item, id).count({ total: '*' })) as { total: number }[];
  if (!total || window.offset >= Number(total)) return { rows: [], total: Number(total) };
  const rows = (await db(`${table} as c`)
    .join('sources as s', 's.id', 'c.source_id')
    .leftJoin('document_chunks as k', 'k.id', 'c.chunk_id')
    .where(`c.${item}`, id)
    .select(
      'c.id',
      'c.confidence',
      'c.extraction_method',
      'c.context_snippet',
      'c.citation_metadata',
      'c.created_at',
      'c.source_id',
      's.title as source_title',
      's.filename as source_filename',
      's.source_type',
      's.origin_url',
      'k.id as chunk_id',
      'k.content as chunk_content',
      'k.page_number',
      'k.section',
      'k.chunk_metadata',
    )
    .orderBy([{ column: 'c.created_at' }, { column: 'c.rowid' }])
    .limit(window.limit)
    .offset(window.offset)) as CitationRow[];
  return { rows: rows.map(toCitation), total: Number(total) };
}

function toCitation(row: CitationRow): Citation {
  return {
    id: row.id,
    source: {
      id: row.source_id,
      title: row.source_title ?? row.source_filename ?? row.source_id,
      source_type: row.source_type,
      origin_url: row.origin_url,
    },
    chunk:
      row.chunk_id === null
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

/** Whether the source exists. */
export async function sourceExists(db: Db, id: string): Promise<boolean> {
  return (await db('sources').where({ id }).first('id')) !== undefined;
}

/** The ids of the disabled sources. */
export async function disabledSourceIds(db: Db): Promise<string[]> {
  return (await selectRows<{ id: string }>(db, 'SELECT id FROM sources WHERE enabled = FALSE')).map((row) => row.id);
}

/** The ids a SELECT of `id`s yields, as one JSON array (one row, not a row per id). */
const idArray = perDialect<[select: string], string>({
  sqlite: (_db, select) => `SELECT json_group_array(id) AS ids FROM (${select})`,
  postgres: (_db, select) => `SELECT COALESCE(json_agg(id), '[]')::text AS ids FROM (${select}) AS listed`,
});

async function idList(db: Db, sql: string, bindings: string[]): Promise<string[]> {
  const [row] = await selectRows<{ ids: string }>(db, idArray(db, sql), bindings);
  return JSON.parse(row.ids) as string[];
}

/** Nodes of the enabled sources among `sourceIds`: contributed (`node_sources`) or their own `source_id`. */
export function nodesOfSources(db: Db, sourceIds: string[]): Promise<string[]> {
  return idList(
    db,
    `SELECT ns.node_id AS id FROM node_sources ns JOIN sources s ON s.id = ns.source_id
       WHERE ns.source_id IN (${jsonArrayValues(db)}) AND s.enabled = TRUE
     UNION
     SELECT n.id FROM graph_nodes n JOIN sources s ON s.id = n.source_id
       WHERE n.source_id IN (${jsonArrayValues(db)}) AND s.enabled = TRUE`,
    [JSON.stringify(sourceIds), JSON.stringify(sourceIds)],
  );
}

/** Nodes every source of which is disabled (nodes of no source are not among them); cost follows the disabled sources' contributions. */
export function nodesOfDisabledSourcesOnly(db: Db): Promise<string[]> {
  return idList(
    db,
    `WITH off AS (SELECT id FROM sources WHERE enabled = FALSE),
     touched AS (SELECT node_id AS id FROM node_sources WHERE source_id IN (SELECT id FROM off)
                 UNION SELECT id FROM graph_nodes WHERE source_id IN (SELECT id FROM off))
     SELECT t.id FROM touched t
     WHERE NOT EXISTS (SELECT 1 FROM node_sources ns JOIN sources s ON s.id = ns.source_id WHERE ns.node_id = t.id AND s.enabled = TRUE)
       AND NOT EXISTS (SELECT 1 FROM graph_nodes n JOIN sources s ON s.id = n.source_id WHERE n.id = t.id AND s.enabled = TRUE)`,
    [],
  );
}

/** How many sources there are. */
export async function sourceCount(db: Db): Promise<number> {
  return Number((await selectRows<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM sources'))[0].n);
}

/**
 * Every source with the nodes and edges it contributed, most first: those it is linked to as their
 * provenance (everything an extraction commits) and those created naming it as their `source_id`,
 * each counted once — the same items `?source_ids=` lists.
 */
export async function sourceContributions(
  db: Db,
): Promise<{ source_id: string; title: string | null; node_count: number; edge_count: number }[]> {
  return selectRows<{ source_id: string; title: string | null; node_count: number; edge_count: number }>(
    db,
    `SELECT s.id AS source_id, s.title,
            (SELECT COUNT(*) FROM (SELECT node_id FROM node_sources WHERE source_id = s.id
                                   UNION SELECT id FROM graph_nodes WHERE source_id = s.id) AS nodes) AS node_count,
            (SELECT COUNT(*) FROM (SELECT edge_id FROM edge_sources WHERE source_id = s.id
                                   UNION SELECT id FROM graph_edges WHERE source_id = s.id) AS edges) AS edge_count
     FROM sources s ORDER BY node_count DESC, edge_count DESC, s.id`,
  );
}

export interface SourceGroup {
  source_id: string;
  title: string;
  source_type: string;
  filename: string | null;
  extraction_domain: string | null;
  /** No domain catalogue with icons exists yet; null until one does. */
  extraction_domain_icon: string | null;
  entity_count: number;
  entity_node_ids: string[];
}

interface SourceRow {
  id: string;
  title: string | null;
  source_type: string;
  filename: string | null;
  extraction_domain: string | null;
}

/**
 * The entities extracted from each committed image source (the API's SourceGroup): the nodes the
 * source owns (graph_nodes.source_id) plus the nodes it is cited for (source_citations), once each.
 * Sources with no entity are left out.
 */
export async function sourceGroups(db: Db): Promise<{ groups: SourceGroup[] }> {
  const sources = await selectRows<SourceRow>(
    db,
    "SELECT id, title, source_type, filename, extraction_domain FROM sources WHERE source_type = 'image' AND status = 'committed' ORDER BY created_at, id",
  );
  if (!sources.length) return { groups: [] };
  const idsJson = JSON.stringify(sources.map((source) => source.id));
  const links = await selectRows<{ source_id: string; node_id: string }>(
    db,
    `SELECT source_id, id AS node_id FROM graph_nodes WHERE source_id IN (${jsonArrayValues(db)})
     UNION
     SELECT source_id, entity_uri AS node_id FROM source_citations WHERE source_id IN (${jsonArrayValues(db)})
     ORDER BY 1, 2`,
    [idsJson, idsJson],
  );
  const bySource = new Map<string, string[]>();
  for (const link of links) {
    const list = bySource.get(link.source_id);
    if (list) list.push(link.node_id);
    else bySource.set(link.source_id, [link.node_id]);
  }
  const groups: SourceGroup[] = [];
  for (const source of sources) {
    const nodeIds = bySource.get(source.id);
    if (!nodeIds?.length) continue;
    groups.push({
      source_id: source.id,
      title: source.title ?? source.filename ?? source.id,
      source_type: source.source_type,
      filename: source.filename,
      extraction_domain: source.extraction_domain,
      extraction_domain_icon: null,
      entity_count: nodeIds.length,
      entity_node_ids: nodeIds,
    });
  }
  return { groups };
}
