import type { Knex } from 'knex';
import type { ChunkRow } from './chunks.ts';
import type { SourceRow, TagRow } from './repo.ts';

/** Flag columns are stored as 0/1; a write may give them as booleans, which SQLite stores as 1 and 0. */
type Writable<Row> = { [Column in keyof Row]: number extends Row[Column] ? Row[Column] | boolean : Row[Column] };
/** A row as stored; an insert names the required columns and may leave the rest to their defaults. */
type Stored<Row, Required extends keyof Row> = Knex.CompositeTableType<
  Row,
  Pick<Row, Required> & Partial<Writable<Row>>,
  Partial<Writable<Row>>
>;

/**
 * `chunk_vectors`: the source of truth of chunk vectors (float32 BLOBs), one per chunk, keyed by the chunk
 * row's rowid; a trigger deletes it with the chunk (migration 0012).
 */
export interface ChunkVectorRow {
  chunk_rowid: number;
  model: string;
  dimensions: number;
  vector: Buffer;
}

/** `chunk_groups`: the fixed windows of consecutive chunks extraction plans its groups from. */
export interface ChunkGroupRow {
  source_id: string;
  group_index: number;
  first_chunk_index: number;
  last_chunk_index: number;
}

/** The tables the sources module owns (migrations 0002, 0003, 0012). */
declare module 'knex/types/tables.js' {
  interface Tables {
    sources: Stored<SourceRow, 'id' | 'created_at' | 'updated_at'>;
    document_chunks: ChunkRow;
    chunk_groups: ChunkGroupRow;
    chunk_vectors: ChunkVectorRow;
    source_tags: TagRow & { description: string | null; created_at: string; updated_at: string };
    source_tag_links: { source_id: string; tag_id: string };
    custom_domains: { name: string; definition: string };
  }
}
