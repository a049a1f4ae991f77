import type { Db } from '../storage/index.ts';

/** A document_chunks row as stored (its rowid labels the chunk's vector and full-text index rows). */
export interface ChunkRow {
  id: string;
  source_id: string;
  chunk_index: number;
  content: string;
  page_number: number | null;
  section: string | null;
  start_offset: number | null;
  end_offset: number | null;
  original_start: number | null;
  original_end: number | null;
  offset_match: string | null;
  token_estimate: number | null;
  /** JSON: the page starts of a chunk spanning pages. */
  chunk_metadata: string | null;
  created_at: string;
}

/** A chunk as the API shows it: the stored row without its bookkeeping metadata. */
export type ChunkView = Omit<ChunkRow, 'chunk_metadata'>;

/** Every column of a chunk row, in the order indexing writes them. */
export const chunkColumns = [
  'id',
  'source_id',
  'chunk_index',
  'content',
  'page_number',
  'section',
  'start_offset',
  'end_offset',
  'original_start',
  'original_end',
  'offset_match',
  'token_estimate',
  'chunk_metadata',
  'created_at',
] as const satisfies readonly (keyof ChunkRow)[];

const viewColumns = chunkColumns.filter(
  (column): column is Exclude<(typeof chunkColumns)[number], 'chunk_metadata'> => column !== 'chunk_metadata',
);

/** One page of a source's chunks in order, and how many it has. */
export async function chunkPage(
  db: Db,
  sourceId: string,
  window: { offset: number; limit: number },
): Promise<{ rows: ChunkView[]; total: number }> {
  const [rows, count] = await Promise.all([
    db('document_chunks')
      .where({ source_id: sourceId })
      .orderBy('chunk_index')
      .offset(window.offset)
      .limit(window.limit)
      .select(...viewColumns),
    db('document_chunks').where({ source_id: sourceId }).count({ n: '*' }).first(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function findChunk(db: Db, sourceId: string, chunkId: string): Promise<ChunkView | undefined> {
  return db('document_chunks')
    .where({ source_id: sourceId, id: chunkId })
    .first(...viewColumns);
}

/** All of a source's chunks, in order. */
export async function sourceChunks(db: Db, sourceId: string): Promise<ChunkRow[]> {
  return db('document_chunks').where({ source_id: sourceId }).orderBy('chunk_index');
}

/** A source's chunks from index `first` to `last`, in order. */
export async function chunkRange(db: Db, sourceId: string, first: number, last: number): Promise<ChunkRow[]> {
  return db('document_chunks')
    .where({ source_id: sourceId })
    .whereBetween('chunk_index', [first, last])
    .orderBy('chunk_index');
}

/** The rowids of a source's chunks: the labels of their vectors. */
export async function chunkRowids(db: Db, sourceId: string): Promise<number[]> {
  const rows: { rowid: number }[] = await db('document_chunks').where({ source_id: sourceId }).select('rowid');
  return rows.map((row) => row.rowid);
}
