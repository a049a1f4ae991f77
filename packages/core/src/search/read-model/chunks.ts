/**
 * Search's read model of cited chunks: the provenance of entities (the chat's node tool) and the scope
 * filter graph search applies to the passages keyword and vector search hand it. Reads the extraction's
 * `source_citations` and the sources feature's `document_chunks` and `sources` (enabled, in scope) in
 * one statement each, as ranking needs them joined.
 */
import { jsonArrayValues, perDialect, selectRows, type Db } from '../../storage/index.ts';
import type { RankedItem, SearchScope } from '../types.ts';

export interface RankedEntity {
  id: string;
  score: number;
}

const scopeClause = (db: Db, scope: Pick<SearchScope, 'sourceIds'>) =>
  scope.sourceIds ? `AND d.source_id IN (${jsonArrayValues(db)})` : '';
const scopeBindings = (scope: Pick<SearchScope, 'sourceIds'>) =>
  scope.sourceIds ? [JSON.stringify(scope.sourceIds)] : [];

/** The elements of one bound JSON array of ids with their positions from 0, as `id` and `rank`. */
const rankedIds = perDialect({
  sqlite: () => 'SELECT value AS id, key AS rank FROM json_each(?)',
  postgres: () =>
    'SELECT value AS id, position - 1 AS rank FROM json_array_elements_text(?::json) WITH ORDINALITY AS ids (value, position)',
});

/**
 * Chunks citing the top entities, of enabled sources in scope: ordered by the citing entity's PPR rank,
 * then citation confidence (a chunk's confidence for an entity is its best citation of it). So that
 * one heavily cited entity cannot fill the list, each entity first gets an equal share of the `size`
 * slots (`ceil(size / entities)`, its most confident chunks), in rank order; the slots left go to the
 * entities' further chunks, again in rank order. A chunk citing several entities keeps its best place.
 * Score: the entity's PPR score × the citation confidence (RRF uses the order only).
 */
export async function provenanceChunks(
  db: Db,
  entities: readonly RankedEntity[],
  scope: Pick<SearchScope, 'sourceIds'>,
  size: number,
): Promise<RankedItem[]> {
  if (!entities.length || size <= 0) return [];
  const share = Math.ceil(size / entities.length);
  const rows = await selectRows<{ rank: number; chunk_id: string; confidence: number }>(
    db,
    `WITH top AS (${rankedIds(db)}),
     cited AS (
       SELECT top.rank AS rank, c.chunk_id AS chunk_id, MAX(c.confidence) AS confidence
       FROM top
       JOIN source_citations c ON c.entity_uri = top.id
       JOIN document_chunks d ON d.id = c.chunk_id
       JOIN sources s ON s.id = d.source_id
       WHERE s.enabled = TRUE ${scopeClause(db, scope)}
       GROUP BY top.rank, c.chunk_id),
     numbered AS (
       SELECT rank, chunk_id, confidence, ROW_NUMBER() OVER (PARTITION BY rank ORDER BY confidence DESC, chunk_id) AS n FROM cited),
     placed AS (
       SELECT rank, chunk_id, confidence, n, n > ? AS overflow,
              ROW_NUMBER() OVER (PARTITION BY chunk_id ORDER BY n > ?, rank, n) AS place
       FROM numbered WHERE n <= ?)
     SELECT rank, chunk_id, confidence FROM placed WHERE place = 1 ORDER BY overflow, rank, n LIMIT ?`,
    [JSON.stringify(entities.map((entity) => entity.id)), ...scopeBindings(scope), share, share, size, size],
  );
  return rows.map((row) => ({ kind: 'chunk', id: row.chunk_id, score: entities[row.rank].score * row.confidence }));
}

/**
 * The content of the chunks among the rankings' that may be shown: of enabled sources, in scope,
 * existing. One statement for every list a search ranks (the injected vector search may not know the
 * scope; this makes sure).
 */
export async function chunksInScope(
  db: Db,
  items: readonly RankedItem[],
  scope: Pick<SearchScope, 'sourceIds'>,
): Promise<Map<string, string>> {
  const ids = [...new Set(items.filter((item) => item.kind === 'chunk').map((item) => item.id))];
  if (!ids.length) return new Map();
  const rows = await selectRows<{ id: string; content: string }>(
    db,
    `SELECT d.id, d.content FROM document_chunks d JOIN sources s ON s.id = d.source_id
     WHERE d.id IN (${jsonArrayValues(db)}) AND s.enabled = TRUE ${scopeClause(db, scope)}`,
    [JSON.stringify(ids), ...scopeBindings(scope)],
  );
  return new Map(rows.map((row) => [row.id, row.content]));
}

/** The text and source of each of these chunks, by id. */
export async function chunkContents(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { content: string; sourceId: string }>> {
  if (!ids.length) return new Map();
  const rows = await selectRows<{ id: string; content: string; source_id: string }>(
    db,
    `SELECT id, content, source_id FROM document_chunks WHERE id IN (${jsonArrayValues(db)})`,
    [JSON.stringify(ids)],
  );
  return new Map(rows.map((row) => [row.id, { content: row.content, sourceId: row.source_id }]));
}
