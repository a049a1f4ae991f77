import type { EmbeddingIdentity } from '../providers/index.ts';
import { encodeVector, insertRows, type Db } from '../storage/index.ts';

/**
 * Chunk vectors for a feature that embeds chunks again (a change of embedder): which chunks lack one, the
 * vectors themselves (`chunk_embeddings`, the source of truth) and the sources' record of their model.
 */

export interface ChunkToEmbed {
  /** Labels the chunk's entry in the vector index. */
  rowid: number;
  id: string;
  content: string;
}

export interface ChunkVector {
  chunkId: string;
  model: string;
  vector: Float32Array;
}

/** Up to `limit` chunks after rowid `after` without a vector of `identity` (none, or one of another model or dimensions), in rowid order. */
export async function chunksLackingVectors(
  db: Db,
  identity: EmbeddingIdentity,
  after: number,
  limit: number,
): Promise<ChunkToEmbed[]> {
  return (await db.raw(
    `SELECT c.rowid AS rowid, c.id AS id, c.content AS content FROM document_chunks c LEFT JOIN chunk_embeddings e ON e.chunk_id = c.id
     WHERE c.rowid > ? AND (e.chunk_id IS NULL OR e.model <> ? OR e.dimensions <> ?) ORDER BY c.rowid LIMIT ?`,
    [after, identity.model, identity.dimensions, limit],
  )) as ChunkToEmbed[];
}

/** Stores chunks' vectors in multi-row statements, replacing any they had; run it in a transaction. */
export async function storeChunkVectors(db: Db, vectors: ChunkVector[]): Promise<void> {
  await insertRows(
    db,
    'chunk_embeddings',
    ['chunk_id', 'model', 'dimensions', 'vector'],
    vectors.map((row) => ({
      chunk_id: row.chunkId,
      model: row.model,
      dimensions: row.vector.length,
      vector: encodeVector(row.vector),
    })),
    'INSERT OR REPLACE',
  );
}

/** Records on every source with chunks that they are embedded by `identity`. */
export async function markChunksEmbedded(db: Db, identity: EmbeddingIdentity): Promise<void> {
  await db('sources')
    .where('chunk_count', '>', 0)
    .update({ embedding_model: identity.model, embedding_dimensions: identity.dimensions });
}
