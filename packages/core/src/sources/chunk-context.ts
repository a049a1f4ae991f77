import { NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../storage/index.ts';
import { chunkRange, type ChunkRow, type ChunkView } from './chunks.ts';

export interface ChunkInContext {
  chunk: ChunkView;
  /** The source's title, else its filename. */
  source: string | null;
  before: ChunkView[];
  after: ChunkView[];
}

const withoutMetadata = ({ chunk_metadata: _metadata, ...chunk }: ChunkRow): ChunkView => chunk;

/** A chunk by id with up to `neighbours` chunks of its source on each side, to quote it in context. 404 when unknown. */
export async function chunkInContext(db: Db, chunkId: string, neighbours: number): Promise<ChunkInContext> {
  const found: { source_id: string; chunk_index: number } | undefined = await db('document_chunks')
    .where({ id: chunkId })
    .first('source_id', 'chunk_index');
  if (!found) throw NotFound.resource('Chunk', chunkId);
  const rows = await chunkRange(db, found.source_id, found.chunk_index - neighbours, found.chunk_index + neighbours);
  const source: { title: string | null; filename: string | null } | undefined = await db('sources')
    .where({ id: found.source_id })
    .first('title', 'filename');
  const views = rows.map(withoutMetadata);
  return {
    chunk: views.find((row) => row.id === chunkId) as ChunkView,
    source: source?.title ?? source?.filename ?? null,
    before: views.filter((row) => row.chunk_index < found.chunk_index),
    after: views.filter((row) => row.chunk_index > found.chunk_index),
  };
}
