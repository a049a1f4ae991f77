import type { EmbeddingIdentity } from '../providers/index.ts';
import { encodeVector, perDialect, selectRows, type Db } from '../storage/index.ts';

/**
 * Chunk vectors: which chunks lack one (for a feature that embeds chunks again, on a change of embedder),
 * the vectors themselves (`chunk_vectors`, the source of truth, keyed by the chunk row's rowid: the label
 * of the chunk in the vector index and in `fts_chunks`) and the sources' record of their model. A trigger
 * deletes a chunk's vector with the chunk (migration 0012).
 */

export interface ChunkToEmbed {
  /** Labels the chunk's entry in the vector index, and keys its vector. */
  rowid: number;
  id: string;
  content: string;
}

export interface ChunkVector {
  /** The chunk row's rowid. */
  rowid: number;
  model: string;
  vector: Float32Array;
}

/** A chunk vector for a chunk known by its id (an import, which inserts chunk rows without reading their rowids back). */
export interface ChunkVectorById {
  chunkId: string;
  model: string;
  vector: Float32Array;
}

/**
 * Rows a statement carries: their vectors travel as one BLOB parameter (2 MB at 100 dimensions), their
 * keys as one JSON array, so a statement costs one bind of each whatever its row count.
 */
const rowsPerStatement = 5_000;

/** Up to `limit` chunks after rowid `after` without a vector of `identity` (none, or one of another model or dimensions), in rowid order. */
export async function chunksLackingVectors(
  db: Db,
  identity: EmbeddingIdentity,
  after: number,
  limit: number,
): Promise<ChunkToEmbed[]> {
  return selectRows<ChunkToEmbed>(
    db,
    `SELECT c.rowid AS rowid, c.id AS id, c.content AS content FROM document_chunks c LEFT JOIN chunk_vectors v ON v.chunk_rowid = c.rowid
     WHERE c.rowid > ? AND (v.chunk_rowid IS NULL OR v.model <> ? OR v.dimensions <> ?) ORDER BY c.rowid LIMIT ?`,
    [after, identity.model, identity.dimensions, limit],
  );
}

/**
 * Stores chunks' vectors, replacing any they had; run it in a transaction. The vectors of one call have
 * one dimension count. Each statement writes up to `rowsPerStatement` rows of one model: their vectors
 * concatenated in one BLOB that SQL cuts back into rows (a slice per element of the JSON array of their
 * keys). A vector of a chunk that no longer exists (deleted while it was being embedded) is left out.
 */
export async function storeChunkVectors(db: Db, vectors: ChunkVector[]): Promise<void> {
  await storePacked(db, vectors, (row) => row.rowid, 'rowid');
}

/** `storeChunkVectors` for chunks known by their id; a vector of an unknown chunk id is left out. */
export async function storeChunkVectorsById(db: Db, vectors: ChunkVectorById[]): Promise<void> {
  await storePacked(db, vectors, (row) => row.chunkId, 'id');
}

/** The chunk column the keys of a packed batch name. */
type ChunkKey = 'rowid' | 'id';

interface PackedBatch {
  model: string;
  dimensions: number;
  /** The batch's vectors, one after another, `bytes` each. */
  packed: Buffer;
  bytes: number;
  /** JSON array of the chunks' keys, in the order of their vectors. */
  keys: string;
}

/** Writes one packed batch, replacing the vectors its chunks had. */
const storeBatch = perDialect<[ChunkKey, PackedBatch], Promise<unknown>>({
  // CROSS JOIN keeps the keys the outer loop: one seek into document_chunks per row.
  sqlite: (db, key, { model, dimensions, packed, bytes, keys }) =>
    db.raw(
      `INSERT OR REPLACE INTO chunk_vectors (chunk_rowid, model, dimensions, vector)
       SELECT c.rowid, ?, ?, substr(?, keys.key * ? + 1, ?) FROM json_each(?) AS keys CROSS JOIN document_chunks c ON c.${key} = keys.value`,
      [model, dimensions, packed, bytes, bytes, keys],
    ),
  postgres: (db, key, { model, dimensions, packed, bytes, keys }) =>
    db.raw(
      `INSERT INTO chunk_vectors (chunk_rowid, model, dimensions, vector)
       SELECT c.rowid, ?, ?::bigint, substring(?::bytea FROM ((keys.position - 1) * ?::int + 1)::int FOR ?::int)
       FROM json_array_elements_text(?::json) WITH ORDINALITY AS keys (value, position)
       JOIN document_chunks c ON c.${key} = keys.value${key === 'rowid' ? '::bigint' : ''}
       ON CONFLICT (chunk_rowid) DO UPDATE SET model = excluded.model, dimensions = excluded.dimensions, vector = excluded.vector`,
      [model, dimensions, packed, bytes, bytes, keys],
    ),
});

async function storePacked<Row extends { model: string; vector: Float32Array }>(
  db: Db,
  rows: Row[],
  keyOf: (row: Row) => number | string,
  key: ChunkKey,
): Promise<void> {
  if (!rows.length) return;
  const dimensions = rows[0].vector.length;
  if (dimensions === 0) throw new Error('a chunk vector has no dimensions');
  const byModel = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.vector.length !== dimensions)
      throw new Error(
        `chunk vectors of one call have one dimension count: ${row.vector.length} found among vectors of ${dimensions}`,
      );
    const group = byModel.get(row.model);
    if (group) group.push(row);
    else byModel.set(row.model, [row]);
  }
  const bytes = dimensions * 4;
  for (const [model, group] of byModel) {
    for (let start = 0; start < group.length; start += rowsPerStatement) {
      const batch = group.slice(start, start + rowsPerStatement);
      const packed = Buffer.concat(
        batch.map((row) => encodeVector(row.vector)),
        batch.length * bytes,
      );
      await storeBatch(db, key, { model, dimensions, packed, bytes, keys: JSON.stringify(batch.map(keyOf)) });
    }
  }
}

/** Records on every source with chunks that they are embedded by `identity`. */
export async function markChunksEmbedded(db: Db, identity: EmbeddingIdentity): Promise<void> {
  await db('sources')
    .where('chunk_count', '>', 0)
    .update({ embedding_model: identity.model, embedding_dimensions: identity.dimensions });
}
