import type { Settings } from '@rhizome/contracts/settings';
import type { SourceStatus } from '@rhizome/contracts/api/sources';
import { PermanentTaskError } from '@rhizome/queue';
import type { DataPaths } from '../paths.ts';
import type { EmbeddingService } from '../providers/embeddings/service.ts';
import type { Db } from '../storage/connection.ts';
import { encodeVector } from '../search/vectors/sources.ts';
import { originalPath } from './files.ts';
import { detectDomain } from './domains/detect.ts';
import type { DomainDefinition } from './domains/schema.ts';
import { loaderLimits } from './loaders/limits.ts';
import { UnreadableFileError } from './loaders/port.ts';
import { getSource, updateSource, type SourceRow } from './repo.ts';
import { chunkGroups } from './text/groups.ts';
import { prepareInThread } from './prepare/run-in-thread.ts';
import type { PreparedChunk, PreparedDocument } from './prepare/prepare.ts';

/** Where chunk vectors go once their embeddings are stored (the search feature's vector index). */
export interface ChunkVectorSink {
  upsert(rows: { label: number; vector: Float32Array }[]): Promise<void>;
}

export interface IndexContext {
  db: Db;
  database: string;
  sourceId: string;
  paths: DataPaths;
  settings: Settings;
  embeddings: EmbeddingService;
  vectors: ChunkVectorSink;
  domains: DomainDefinition[];
  signal: AbortSignal;
  checkCancelled(): Promise<void>;
}

// SQLite allows 32,766 bound parameters per statement; chunk rows have 13 columns.
const insertBatch = 500;

/**
 * Indexes one source: load the stored original, normalise and chunk it (on a worker thread), store chunks (full-text indexed by
 * trigger), embed them in waves into SQLite and the vector index, detect the domain, then pass the
 * confirmation gate. Progress is written at every step. Safe to run again after a crash: chunk ids
 * are stable and a run starts by removing what an earlier run left.
 */
export async function indexSource(context: IndexContext): Promise<{ status: SourceStatus; chunks: number }> {
  const { db, sourceId } = context;
  const row = await getSource(db, sourceId);
  if (!row) throw new PermanentTaskError(`Source '${sourceId}' no longer exists`, 'NotFound');
  if (!['pending', 'indexing', 'error'].includes(row.status)) return { status: row.status, chunks: row.chunk_count };
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, description: string, work: () => Promise<T> | T): Promise<T> => {
    await context.checkCancelled();
    await updateSource(db, sourceId, { current_step: step, step_description: description, last_activity_at: new Date().toISOString() });
    const started = performance.now();
    const result = await work();
    timings[`${step}_ms`] = Math.round(performance.now() - started);
    return result;
  };
  const started = new Date().toISOString();
  await updateSource(db, sourceId, { status: 'indexing', indexing_started_at: row.indexing_started_at ?? started, error_stage: null, error_message: null });

  const prepared = await timed('preparing', `Reading and splitting ${row.filename ?? 'the file'}`, () => prepare(context, row));
  Object.assign(timings, prepared.timings);
  const { chunks } = prepared;
  if (prepared.hasText && !chunks.length) throw new PermanentTaskError('The document has text but produced no chunks', 'ValidationError');
  await timed('storing', `Storing ${chunks.length} chunks`, () => storeChunks(context, chunks));
  await updateSource(db, sourceId, { chunk_count: chunks.length, loader_warnings: JSON.stringify(prepared.warnings) });

  await timed('embedding', `Embedding ${chunks.length} chunks`, () => embedChunks(context, chunks.length));
  const proposal = await timed('detecting_domain', 'Detecting the domain', () =>
    detectDomain({ samples: prepared.samples, filename: row.filename ?? '', docType: prepared.format }, context.domains),
  );

  const confirmed = row.forced_domain !== null || row.auto_confirm === 1 || row.pending_confirmation !== null;
  const status: SourceStatus = confirmed ? 'indexed' : 'awaiting_confirmation';
  const pre = row.pending_confirmation ? (JSON.parse(row.pending_confirmation) as { domain?: string | null }) : null;
  const at = new Date().toISOString();
  await updateSource(db, sourceId, {
    status,
    extraction_domain: row.forced_domain ?? pre?.domain ?? proposal.detected_domain,
    detection_proposal: JSON.stringify({ ...proposal, ...(prepared.hasText ? {} : { no_text: true }) }),
    extraction_confirmed_at: row.pending_confirmation ? (row.extraction_confirmed_at ?? at) : row.extraction_confirmed_at,
    indexing_completed_at: at,
    index_timings: JSON.stringify(timings),
    current_step: status,
    step_description: status === 'indexed' ? 'Indexed: searchable' : 'Indexed: waiting for the domain to be confirmed',
    active_task_id: null,
    last_activity_at: at,
  });
  return { status, chunks: chunks.length };
}

async function prepare(context: IndexContext, row: SourceRow): Promise<PreparedDocument> {
  if (!row.stored_filename) throw new PermanentTaskError('The source has no stored file', 'ValidationError');
  try {
    return await prepareInThread({
      sourceId: row.id,
      path: originalPath(context.paths, context.database, row.id, row.stored_filename),
      filename: row.filename ?? row.stored_filename,
      limits: loaderLimits(context.settings),
      normalize: row.enable_normalization === null ? null : row.enable_normalization === 1,
      chunking: context.settings.chunking,
    }, context.signal);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new PermanentTaskError(error.message, 'UnreadableFile');
    throw error;
  }
}

/**
 * Stores chunks in short statements rather than one long transaction: in the embedded default the API
 * shares the database connection, and a transaction over a whole large document would stall its reads.
 * A run interrupted half-way is safe: the next run starts by deleting what this one wrote.
 */
async function storeChunks(context: IndexContext, chunks: PreparedChunk[]): Promise<void> {
  const at = new Date().toISOString();
  await context.db.transaction(async (trx) => {
    await trx('document_chunks').where({ source_id: context.sourceId }).delete();
    await trx('chunk_groups').where({ source_id: context.sourceId }).delete();
  });
  for (let start = 0; start < chunks.length; start += insertBatch) {
    await context.checkCancelled();
    const rows = chunks.slice(start, start + insertBatch).map((chunk) => ({
      id: chunk.id, source_id: context.sourceId, chunk_index: chunk.index, content: chunk.content, page_number: chunk.page, section: chunk.section,
      start_offset: chunk.start, end_offset: chunk.end, original_start: chunk.originalStart, original_end: chunk.originalEnd, offset_match: chunk.offsetMatch,
      token_estimate: chunk.tokenEstimate, created_at: at,
    }));
    await context.db('document_chunks').insert(rows);
  }
  const groups = chunkGroups(chunks.length, context.settings.chunking.group_size, context.settings.chunking.group_overlap);
  for (let start = 0; start < groups.length; start += insertBatch) {
    await context.db('chunk_groups').insert(groups.slice(start, start + insertBatch).map((group) => ({
      source_id: context.sourceId, group_index: group.groupIndex, first_chunk_index: group.firstChunkIndex, last_chunk_index: group.lastChunkIndex,
    })));
  }
}

/** Embeds the source's chunks in waves (`batching.embedding_wave_size`), committing each wave before the next. */
async function embedChunks(context: IndexContext, total: number): Promise<void> {
  const wave = context.settings.batching.embedding_wave_size;
  let done = 0;
  let lastRowid = 0;
  for (;;) {
    await context.checkCancelled();
    const rows = (await context.db('document_chunks').where({ source_id: context.sourceId }).andWhere('rowid', '>', lastRowid).orderBy('rowid').limit(wave).select('rowid', 'id', 'content')) as { rowid: number; id: string; content: string }[];
    if (!rows.length) break;
    const vectors = await context.embeddings.embed(rows.map((row) => row.content), { signal: context.signal, context: { database: context.database, sourceId: context.sourceId } });
    const identity = context.embeddings.identity();
    for (let start = 0; start < rows.length; start += insertBatch) {
      await context.db('chunk_embeddings').insert(rows.slice(start, start + insertBatch).map((row, offset) => {
        const vector = vectors[start + offset];
        return { chunk_id: row.id, model: identity.model, dimensions: vector.length, vector: encodeVector(vector) };
      })).onConflict('chunk_id').merge();
    }
    await context.vectors.upsert(rows.map((row, index) => ({ label: row.rowid, vector: vectors[index] })));
    done += rows.length;
    lastRowid = rows[rows.length - 1].rowid;
    await updateSource(context.db, context.sourceId, {
      embedded_chunk_count: done, embedding_model: identity.model, embedding_dimensions: vectors[0]?.length ?? null,
      step_description: `Embedded ${done} of ${total} chunks`, last_activity_at: new Date().toISOString(),
    });
  }
}
