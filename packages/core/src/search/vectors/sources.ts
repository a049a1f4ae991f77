import type { Db } from '../../storage/connection.ts';
import type { EmbeddingIdentity } from '../../providers/embeddings/port.ts';
import type { VectorItem } from './port.ts';

/**
 * How one item kind's vectors are read back from SQLite, the source of truth an index is rebuilt and
 * reconciled from. Only rows of the identity's model and dimensions count.
 */
export interface VectorSource {
  count(db: Db, identity: EmbeddingIdentity): Promise<number>;
  /** Rows with a label above `after`, ascending by label, at most `limit`. */
  scan(db: Db, identity: EmbeddingIdentity, after: number, limit: number): Promise<VectorItem[]>;
  /** The rows of these labels that exist. */
  fetch(db: Db, identity: EmbeddingIdentity, labels: number[]): Promise<VectorItem[]>;
  /** Every label, ascending. */
  labels(db: Db, identity: EmbeddingIdentity): Promise<number[]>;
}

/** SQL expressions locating the vectors of one kind; they are trusted constants, never user input. */
export interface SqlVectorColumns {
  /** Table or join holding one row per item with a vector. */
  from: string;
  /** Integer expression stable for the row's life (a rowid). */
  label: string;
  /** A BLOB of float32 values (`encodeVector`). */
  vector: string;
  model: string;
  dimensions: string;
}

/** A vector as stored in SQLite: its float32 values in platform order (little-endian wherever Node runs here). */
export function encodeVector(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function decodeVector(blob: Buffer, dimensions: number): Float32Array {
  if (blob.byteLength !== dimensions * 4) throw new Error(`stored vector has ${blob.byteLength} bytes, expected ${dimensions * 4}`);
  // A Float32Array view needs 4-byte alignment, which pooled Buffers do not promise.
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

const fetchBatch = 500;

export function sqlVectorSource(columns: SqlVectorColumns): VectorSource {
  const { from, label, vector, model, dimensions } = columns;
  const where = `${model} = ? and ${dimensions} = ?`;
  const toItems = (rows: { label: number; vector: Buffer }[], identity: EmbeddingIdentity): VectorItem[] =>
    rows.map((row) => ({ label: row.label, vector: decodeVector(row.vector, identity.dimensions) }));
  return {
    async count(db, identity) {
      const rows = (await db.raw(`select count(*) as count from ${from} where ${where}`, [identity.model, identity.dimensions])) as { count: number }[];
      return rows[0].count;
    },
    async scan(db, identity, after, limit) {
      const rows = (await db.raw(
        `select ${label} as label, ${vector} as vector from ${from} where ${where} and ${label} > ? order by ${label} limit ?`,
        [identity.model, identity.dimensions, after, limit],
      )) as { label: number; vector: Buffer }[];
      return toItems(rows, identity);
    },
    async fetch(db, identity, labels) {
      const items: VectorItem[] = [];
      for (let start = 0; start < labels.length; start += fetchBatch) {
        const batch = labels.slice(start, start + fetchBatch);
        const rows = (await db.raw(
          `select ${label} as label, ${vector} as vector from ${from} where ${where} and ${label} in (${batch.map(() => '?').join(', ')})`,
          [identity.model, identity.dimensions, ...batch],
        )) as { label: number; vector: Buffer }[];
        items.push(...toItems(rows, identity));
      }
      return items;
    },
    async labels(db, identity) {
      const rows = (await db.raw(`select ${label} as label from ${from} where ${where} order by ${label}`, [identity.model, identity.dimensions])) as { label: number }[];
      return rows.map((row) => row.label);
    },
  };
}

/** Chunk vectors: `chunk_embeddings`, labelled by the chunk row's rowid (the FTS index uses it too). */
export const chunkVectorSource = sqlVectorSource({
  from: 'chunk_embeddings join document_chunks on document_chunks.id = chunk_embeddings.chunk_id',
  label: 'document_chunks.rowid',
  vector: 'chunk_embeddings.vector',
  model: 'chunk_embeddings.model',
  dimensions: 'chunk_embeddings.dimensions',
});
