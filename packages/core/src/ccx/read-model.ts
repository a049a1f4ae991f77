/**
 * Read model of CCX exports. It reads, with raw SQL, tables other features own: graph_templates,
 * graph_nodes, graph_edges, node_embeddings, node_tags, node_tag_links (graph); sources,
 * document_chunks, chunk_vectors, source_citations, relationship_citations, source_tags,
 * source_tag_links (sources). An export streams every row of a database a page at a time and in the
 * package's shape; going through each feature's service row by row would cost an export minutes at a
 * million rows.
 *
 * The rows of one database as CCX 2.0 records: a full export takes everything; an export by sources
 * takes the entities cited by those sources, the edges with both ends among them, the templates those
 * use or the sources brought, and the sources themselves.
 */
import type { EdgeRow } from '../graph/index.ts';
import type { NodeRow } from '../graph/index.ts';
import type { TemplateRow } from '../graph/index.ts';
import type { EmbeddingIdentity } from '../providers/index.ts';
import { decodeVector, jsonArrayValues, selectRows } from '../storage/index.ts';
import { userVectorModel } from '../graph/index.ts';
import type { Db } from '../storage/index.ts';
import { entityUri, ownIri } from './format-v2.ts';

export interface ExportScope {
  /** null: the whole database. */
  sourceIds: string[] | null;
  /** Node ids of a by-sources export (the entities its sources cite). */
  nodeIds: Set<string> | null;
  /** Node vectors of this identity travel with the nodes; null leaves vectors out. */
  vectors: EmbeddingIdentity | null;
}

const page = 2_000;
const idBatch = 500;
type Row = Record<string, unknown>;

const json = (text: unknown): unknown => {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

export async function citedNodeIds(db: Db, sourceIds: string[]): Promise<Set<string>> {
  const rows = await selectRows<{ id: string }>(
    db,
    `SELECT DISTINCT entity_uri AS id FROM source_citations WHERE source_id IN (${jsonArrayValues(db)})`,
    [JSON.stringify(sourceIds)],
  );
  return new Set(rows.map((row) => row.id));
}

export async function existingSourceIds(db: Db, sourceIds: string[]): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    db,
    `SELECT id FROM sources WHERE id IN (${jsonArrayValues(db)}) ORDER BY rowid`,
    [JSON.stringify(sourceIds)],
  );
  return rows.map((row) => row.id);
}

/** Non-system templates: all of them, or those a by-sources export's items use or its sources brought. */
export async function templateRecords(db: Db, scope: ExportScope, usedTemplateIds: Set<string>): Promise<Row[]> {
  const rows: TemplateRow[] = await db('graph_templates').where({ is_system: false }).orderBy('rowid').select();
  const sources = new Set(scope.sourceIds ?? []);
  return rows
    .filter(
      (row) =>
        !scope.sourceIds || usedTemplateIds.has(row.id) || (row.source_id !== null && sources.has(row.source_id)),
    )
    .map((row) => ({
      id: row.id,
      name: row.name,
      template_type: row.template_type,
      description: row.description,
      properties: json(row.properties) ?? [],
      is_system: false,
      color: row.color,
      icon: row.icon,
      created_at: row.created_at,
      updated_at: row.updated_at,
      source_id: row.source_id,
      ccx_iri: ownIri('template', row.id),
    }));
}

async function linkedSources(
  db: Db,
  table: 'node_sources' | 'edge_sources',
  column: 'node_id' | 'edge_id',
  ids: string[],
): Promise<Map<string, string[]>> {
  const rows = await selectRows<{ id: string; source_id: string }>(
    db,
    `SELECT ${column} AS id, source_id FROM ${table} WHERE ${column} IN (${jsonArrayValues(db)})`,
    [JSON.stringify(ids)],
  );
  const byId = new Map<string, string[]>();
  for (const row of rows) byId.set(row.id, [...(byId.get(row.id) ?? []), row.source_id]);
  return byId;
}

async function nodeVectors(db: Db, ids: string[], identity: EmbeddingIdentity): Promise<Map<string, number[]>> {
  const rows = await selectRows<{ node_id: string; vector: Buffer }>(
    db,
    `SELECT node_id, vector FROM node_embeddings WHERE node_id IN (${jsonArrayValues(db)}) AND model IN (?, ?) AND dimensions = ?`,
    [JSON.stringify(ids), identity.model, userVectorModel, identity.dimensions],
  );
  return new Map(rows.map((row) => [row.node_id, Array.from(decodeVector(row.vector, identity.dimensions))]));
}

/** The entity tags of `ids`, in the shape sources carry theirs; a node without tags has no entry. */
async function nodeTags(db: Db, ids: string[]): Promise<Map<string, Row[]>> {
  const rows = await selectRows<{
    node_id: string;
    id: string;
    name: string;
    color: string | null;
    description: string | null;
  }>(
    db,
    `SELECT l.node_id, t.id, t.name, t.color, t.description FROM node_tag_links l JOIN node_tags t ON t.id = l.tag_id
     WHERE l.node_id IN (${jsonArrayValues(db)}) ORDER BY t.name_key, t.id`,
    [JSON.stringify(ids)],
  );
  const byNode = new Map<string, Row[]>();
  for (const row of rows)
    byNode.set(row.node_id, [
      ...(byNode.get(row.node_id) ?? []),
      { tag_id: row.id, tag_name: row.name, tag_color: row.color, tag_description: row.description ?? null },
    ]);
  return byNode;
}

/** A whole table a page at a time, walking its rowids (`select` reads `rowid` and has no WHERE). */
async function* byRowid<T extends { rowid: number }>(db: Db, select: string, limit: number): AsyncGenerator<T[]> {
  for (let after = -1; ;) {
    const rows = await selectRows<T>(db, `${select} WHERE rowid > ? ORDER BY rowid LIMIT ?`, [after, limit]);
    if (!rows.length) return;
    after = rows[rows.length - 1].rowid;
    yield rows;
  }
}

interface Exported {
  rowid: number;
  ccx_iri: string | null;
  extracted: number;
}

type NodeRowOut = Omit<NodeRow, 'embedding'> & Exported & { name_key: string | null };

const nodeColumns =
  'rowid, id, template_id, label, properties, position_x, position_y, source_id, ccx_iri, name_key, extracted, created_at, updated_at';

async function* nodeRowPages(db: Db, scope: ExportScope): AsyncGenerator<NodeRowOut[]> {
  if (scope.nodeIds) {
    const ids = [...scope.nodeIds];
    for (let start = 0; start < ids.length; start += idBatch) {
      yield await selectRows<NodeRowOut>(
        db,
        `SELECT ${nodeColumns} FROM graph_nodes WHERE id IN (${jsonArrayValues(db)}) ORDER BY rowid`,
        [JSON.stringify(ids.slice(start, start + idBatch))],
      );
    }
    return;
  }
  yield* byRowid<NodeRowOut>(db, `SELECT ${nodeColumns} FROM graph_nodes`, page);
}

/** Nodes as CCX 2.0 node records (with their entity tags), a page at a time. */
export async function* nodeRecords(db: Db, scope: ExportScope): AsyncGenerator<Row[]> {
  for await (const rows of nodeRowPages(db, scope)) {
    const ids = rows.map((row) => row.id);
    const sources = await linkedSources(db, 'node_sources', 'node_id', ids);
    const vectors = scope.vectors ? await nodeVectors(db, ids, scope.vectors) : null;
    const tags = await nodeTags(db, ids);
    yield rows.map((row) => ({
      id: row.id,
      label: row.label,
      template_id: row.template_id,
      entity_type: null,
      properties: json(row.properties) ?? {},
      position: row.position_x === null || row.position_y === null ? null : { x: row.position_x, y: row.position_y },
      source_id: row.source_id,
      source_ids: sources.get(row.id) ?? [],
      ...(vectors ? { embedding: vectors.get(row.id) ?? null } : {}),
      extracted: Boolean(row.extracted),
      name_key: row.name_key,
      // Only tagged nodes carry `tags`: a package of untagged entities reads as it did before entities had tags.
      ...(tags.has(row.id) ? { tags: tags.get(row.id) } : {}),
      ccx_iri: row.ccx_iri ?? ownIri('node', row.id),
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }
}

type EdgeRowOut = EdgeRow & Exported;

const edgeColumns =
  'rowid, id, template_id, source_node_id, target_node_id, label, properties, source_id, ccx_iri, extracted, created_at, updated_at';

async function* edgeRowPages(db: Db, scope: ExportScope): AsyncGenerator<EdgeRowOut[]> {
  if (scope.nodeIds) {
    const kept = scope.nodeIds;
    const ids = [...kept];
    for (let start = 0; start < ids.length; start += idBatch) {
      const rows = await selectRows<EdgeRowOut>(
        db,
        `SELECT ${edgeColumns} FROM graph_edges WHERE source_node_id IN (${jsonArrayValues(db)}) ORDER BY rowid`,
        [JSON.stringify(ids.slice(start, start + idBatch))],
      );
      yield rows.filter((row) => kept.has(row.target_node_id));
    }
    return;
  }
  yield* byRowid<EdgeRowOut>(db, `SELECT ${edgeColumns} FROM graph_edges`, page);
}

/** Edges as CCX 2.0 edge records (with both ends in a by-sources export's node set), a page at a time. */
export async function* edgeRecords(db: Db, scope: ExportScope): AsyncGenerator<Row[]> {
  for await (const rows of edgeRowPages(db, scope)) {
    const sources = await linkedSources(
      db,
      'edge_sources',
      'edge_id',
      rows.map((row) => row.id),
    );
    yield rows.map((row) => ({
      id: row.id,
      template_id: row.template_id,
      source_node_id: row.source_node_id,
      target_node_id: row.target_node_id,
      label: row.label,
      properties: json(row.properties) ?? {},
      source_id: row.source_id,
      source_ids: sources.get(row.id) ?? [],
      extracted: Boolean(row.extracted),
      ccx_iri: row.ccx_iri ?? ownIri('rel', row.id),
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }
}

interface SourceRowOut {
  rowid: number;
  id: string;
  [column: string]: unknown;
}

async function* sourceRowPages(db: Db, scope: ExportScope): AsyncGenerator<SourceRowOut[]> {
  if (scope.sourceIds) {
    yield await selectRows<SourceRowOut>(
      db,
      `SELECT rowid, * FROM sources WHERE id IN (${jsonArrayValues(db)}) ORDER BY rowid`,
      [JSON.stringify(scope.sourceIds)],
    );
    return;
  }
  yield* byRowid<SourceRowOut>(db, 'SELECT rowid, * FROM sources', 100);
}

/**
 * Sources as `sources.jsonl` records with their chunks, citations and tags, one source at a time.
 * `keptEdges` limits a by-sources export's relationship citations to the edges it carries.
 */
export async function* sourceRecords(
  db: Db,
  scope: ExportScope,
  includeVectors: boolean,
  keptEdges: Set<string> | null,
): AsyncGenerator<Row> {
  for await (const rows of sourceRowPages(db, scope)) {
    for (const source of rows) {
      const chunks = await selectRows<Row>(
        db,
        `SELECT c.id, c.chunk_index, c.content, c.page_number, c.section, c.chunk_metadata, c.start_offset, c.end_offset, c.created_at${includeVectors ? ', e.model, e.dimensions, e.vector' : ''}
         FROM document_chunks c ${includeVectors ? 'LEFT JOIN chunk_vectors e ON e.chunk_rowid = c.rowid' : ''} WHERE c.source_id = ? ORDER BY c.chunk_index, c.rowid`,
        [source.id],
      );
      const citations = await selectRows<Row>(
        db,
        `SELECT c.id, c.entity_uri, n.label AS entity_label, t.name AS entity_type, c.chunk_id, c.confidence, c.extraction_method, c.context_snippet, c.citation_metadata, c.created_at
         FROM source_citations c JOIN graph_nodes n ON n.id = c.entity_uri JOIN graph_templates t ON t.id = n.template_id WHERE c.source_id = ? ORDER BY c.rowid`,
        [source.id],
      );
      const relationshipCitations = await selectRows<Row>(
        db,
        'SELECT id, edge_id, chunk_id, confidence, extraction_method, context_snippet, citation_metadata, created_at FROM relationship_citations WHERE source_id = ? ORDER BY rowid',
        [source.id],
      );
      const tags = await selectRows<Row>(
        db,
        'SELECT t.id, t.name, t.color, t.description FROM source_tag_links l JOIN source_tags t ON t.id = l.tag_id WHERE l.source_id = ? ORDER BY t.name',
        [source.id],
      );
      yield {
        id: source.id,
        database_name: null,
        version: 1,
        parent_id: null,
        source_type: source.source_type,
        title: source.title,
        filename: source.filename,
        origin_url: source.origin_url,
        chunk_count: chunks.length,
        total_content_length: chunks.reduce((sum, chunk) => sum + String(chunk.content).length, 0),
        embedding_model: source.embedding_model,
        embedding_dimensions: source.embedding_dimensions,
        status: source.status,
        extraction_domain: source.extraction_domain,
        created_at: source.created_at,
        updated_at: source.updated_at,
        metadata: json(source.user_metadata) ?? {},
        ccx_iri: ownIri('source', source.id),
        chunks: chunks.map((chunk) => ({
          id: chunk.id,
          chunk_index: chunk.chunk_index,
          content: chunk.content,
          page_number: chunk.page_number,
          section: chunk.section,
          status: 'committed',
          embedding_model: chunk.model ?? null,
          embedding_dimensions: chunk.dimensions ?? null,
          metadata: json(chunk.chunk_metadata),
          start_offset: chunk.start_offset,
          end_offset: chunk.end_offset,
          created_at: chunk.created_at,
          ...(includeVectors && chunk.vector ? { embedding: (chunk.vector as Buffer).toString('base64') } : {}),
        })),
        citations: citations.map((citation) => ({
          id: citation.id,
          entity_uri: entityUri(String(citation.entity_uri)),
          entity_label: citation.entity_label,
          entity_type: citation.entity_type,
          chunk_id: citation.chunk_id,
          confidence: citation.confidence,
          extraction_method: citation.extraction_method,
          context_snippet: citation.context_snippet,
          created_at: citation.created_at,
          metadata: json(citation.citation_metadata),
        })),
        relationship_citations: relationshipCitations
          .filter((citation) => !keptEdges || keptEdges.has(String(citation.edge_id)))
          .map((citation) => ({
            id: citation.id,
            edge_id: citation.edge_id,
            chunk_id: citation.chunk_id,
            confidence: citation.confidence,
            extraction_method: citation.extraction_method,
            context_snippet: citation.context_snippet,
            created_at: citation.created_at,
            metadata: json(citation.citation_metadata),
          })),
        tags: tags.map((tag) => ({
          tag_id: tag.id,
          tag_name: tag.name,
          tag_color: tag.color,
          tag_description: tag.description ?? null,
        })),
      };
    }
  }
}

/** Every source id of the database (an import that replaces the contents removes their files). */
export async function allSourceIds(db: Db): Promise<string[]> {
  return db('sources').pluck('id');
}
