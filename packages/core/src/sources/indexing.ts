import type { Settings } from '@rhizome/contracts/settings';
import type { SourceStatus } from '@rhizome/contracts/api/sources';
import { PermanentTaskError } from '@rhizome/queue';
import type { DataPaths } from '../paths.ts';
import type { EmbeddingService } from '../providers/index.ts';
import type { LlmService } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { insertRows } from '../storage/index.ts';
import { storeChunkVectors } from './chunk-vectors.ts';
import { chunkColumns } from './chunks.ts';
import { originalPath } from './files.ts';
import { detectDomain } from './domains/detect.ts';
import type { DomainDefinition } from './domains/schema.ts';
import { loaderLimits } from './loaders/limits.ts';
import { UnreadableFileError } from './loaders/port.ts';
import { recordDocumentLinks } from './links/record.ts';
import { PageProgressWriter } from './page-progress.ts';
import { getSource, updateSource, type SourceRow } from './repo.ts';
import { chunkGroups } from './text/chunk-groups.ts';
import { prepareInThread } from './prepare/run-in-thread.ts';
import { ChunkStream } from './prepare/chunk-stream.ts';
import type { ChunkList } from './prepare/packed.ts';
import type { PreparedChunk, PreparedSummary, PrepareInput } from './prepare/prepare.ts';
import { describeSourceImage } from './vision.ts';

/** Where chunk vectors go once their embeddings are stored (the search feature's vector index). */
export interface ChunkVectorSink {
  upsert(rows: { label: number; vector: Float32Array }[]): Promise<void>;
  /** Runs `work` with the vector index's insertions yielding to it (they catch up after). */
  yieldingTo<T>(work: () => Promise<T>): Promise<T>;
}

export interface IndexContext {
  db: Db;
  /** The database's bulk-writer connection (`DatabaseManager.bulkWriter`): the waves are written there. */
  writer: Db;
  database: string;
  sourceId: string;
  paths: DataPaths;
  settings: Settings;
  embeddings: EmbeddingService;
  /** Describes image sources (vision). */
  llm: LlmService;
  vectors: ChunkVectorSink;
  domains: DomainDefinition[];
  signal: AbortSignal;
  checkCancelled(): Promise<void>;
}

/**
 * Indexes one source: load the stored original and normalise and chunk it a segment at a time (on a
 * worker thread), while, wave by wave as the chunks arrive, chunks are stored (full-text indexed by
 * trigger) with their embeddings as the next waves' are computed, and the vectors handed to the vector
 * index; then detect the domain and pass the confirmation gate. Progress is written at every step. Safe
 * to run again after a crash: chunk ids are stable and a run starts by removing what an earlier run left.
 */
export async function indexSource(context: IndexContext): Promise<{ status: SourceStatus; chunks: number }> {
  // Reads go to the shared connection; every write to the bulk writer, so that requests never queue behind
  // a write of this task waiting for the write lock (a restart re-runs many indexings at once).
  const { db, writer, sourceId } = context;
  const row = await getSource(db, sourceId);
  if (!row) throw new PermanentTaskError(`Source '${sourceId}' no longer exists`, 'NotFound');
  if (!['pending', 'indexing', 'vision_pending', 'error'].includes(row.status))
    return { status: row.status, chunks: row.chunk_count };
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, description: string, work: () => Promise<T> | T): Promise<T> => {
    await context.checkCancelled();
    await updateSource(writer, sourceId, {
      current_step: step,
      step_description: description,
      last_activity_at: new Date().toISOString(),
    });
    const started = performance.now();
    const result = await work();
    timings[`${step}_ms`] = Math.round(performance.now() - started);
    return result;
  };
  const started = new Date().toISOString();
  await updateSource(writer, sourceId, {
    status: 'indexing',
    indexing_started_at: row.indexing_started_at ?? started,
    error_stage: null,
    error_message: null,
  });

  await clearEarlierRun(context);
  const { prepared, preparingMs, spent } = await timed(
    'preparing',
    `Reading and splitting ${row.filename ?? 'the file'}`,
    () => prepareWhileStoring(context, row),
  );
  // The step lasts until the last wave is stored; preparing itself ended when the last segment was read.
  timings.preparing_ms = Math.round(preparingMs);
  Object.assign(timings, prepared.timings);
  timings.embedding_ms = Math.round(spent.elapsedMs);
  timings.storing_ms = Math.round(spent.storingMs);
  timings.embedding_wait_ms = Math.round(spent.waitingMs);
  if (prepared.hasText && !prepared.chunkCount)
    throw new PermanentTaskError('The document has text but produced no chunks', 'ValidationError');
  // An image's lack of text is told by vision (or was asked for with enable_vision=false); other silent loaders get the reason here.
  const silent = !prepared.hasText && prepared.warnings.length === 0 && prepared.format !== 'image';
  const warnings = silent ? [noTextWarning] : prepared.warnings;
  await updateSource(writer, sourceId, {
    chunk_count: prepared.chunkCount,
    loader_warnings: JSON.stringify(warnings),
    ...titleFromDocument(row, prepared),
  });
  await recordDocumentLinks(context, prepared.format);
  const proposal = await timed('detecting_domain', 'Detecting the domain', () =>
    detectDomain(
      { samples: prepared.samples, filename: row.filename ?? '', docType: prepared.format },
      context.domains,
    ),
  );

  // Re-read: a confirmation may have arrived while this run was working.
  const gate = (await getSource(db, sourceId)) ?? row;
  const confirmed = gate.forced_domain !== null || gate.auto_confirm === 1 || gate.pending_confirmation !== null;
  // The gate confirms a domain for extraction: a source with none to run (not asked for, or no text) does not wait at it.
  const status: SourceStatus =
    confirmed || gate.extract_entities === 0 || prepared.chunkCount === 0 ? 'indexed' : 'awaiting_confirmation';
  const pre = gate.pending_confirmation ? (JSON.parse(gate.pending_confirmation) as { domain?: string | null }) : null;
  const at = new Date().toISOString();
  await updateSource(writer, sourceId, {
    status,
    extraction_domain: gate.forced_domain ?? pre?.domain ?? proposal.detected_domain,
    detection_proposal: JSON.stringify({ ...proposal, ...(prepared.hasText ? {} : { no_text: true }) }),
    extraction_confirmed_at: gate.pending_confirmation
      ? (gate.extraction_confirmed_at ?? at)
      : gate.extraction_confirmed_at,
    indexing_completed_at: at,
    index_timings: JSON.stringify(timings),
    current_step: status,
    step_description: status === 'indexed' ? 'Indexed: searchable' : 'Indexed: waiting for the domain to be confirmed',
    active_task_id: null,
    last_activity_at: at,
  });
  return { status, chunks: prepared.chunkCount };
}

/**
 * Prepares the source while its chunks are stored and embedded: preparation hands them over a segment at a
 * time, and storing starts with the first segment's. Each side waits for the other to settle before a
 * failure is told; a storing failure stops the preparation.
 */
async function prepareWhileStoring(
  context: IndexContext,
  row: SourceRow,
): Promise<{ prepared: PreparedSummary; preparingMs: number; spent: StoredWaves }> {
  const started = performance.now();
  let preparingMs = 0;
  const stream = new ChunkStream();
  const stopPreparing = new AbortController();
  const preparing = prepare(
    { ...context, signal: AbortSignal.any([context.signal, stopPreparing.signal]) },
    row,
    stream,
  )
    .then((summary) => {
      preparingMs = performance.now() - started;
      stream.end();
      return summary;
    })
    .catch((error: unknown) => {
      stream.fail(error);
      throw error;
    });
  const storing = context.vectors
    .yieldingTo(() => storeWaves(context, stream))
    .catch((error: unknown) => {
      stopPreparing.abort(error);
      throw error;
    });
  const [prepared, spent] = await Promise.allSettled([preparing, storing]);
  if (prepared.status === 'rejected') throw prepared.reason;
  if (spent.status === 'rejected') throw spent.reason;
  return { prepared: prepared.value, preparingMs, spent: spent.value };
}

/** Why a source has no chunks, when neither its loader nor vision said why. */
const noTextWarning = 'No text could be read from this file: it has no chunks to search or to extract entities from';

/** The title the document gives itself (`title.ts`) replaces the file name an upload was titled with; a title set by hand stays. */
function titleFromDocument(row: SourceRow, prepared: PreparedSummary): Partial<SourceRow> {
  const title = prepared.title?.trim();
  return title && row.source_type === 'file' && row.title === row.filename ? { title } : {};
}

/** Prepares the source's file (an image: its vision text), handing the chunks to `stream` as they come. */
async function prepare(context: IndexContext, row: SourceRow, stream: ChunkStream): Promise<PreparedSummary> {
  if (!row.stored_filename) throw new PermanentTaskError('The source has no stored file', 'ValidationError');
  const enableVision = row.enable_vision === null ? null : row.enable_vision === 1;
  try {
    const input: PrepareInput = {
      sourceId: row.id,
      path: originalPath(context.paths, context.database, row.id, row.stored_filename),
      filename: row.filename ?? row.stored_filename,
      limits: loaderLimits(context.settings, enableVision),
      normalize: row.enable_normalization === null ? null : row.enable_normalization === 1,
      chunking: context.settings.chunking,
    };
    const toStream = (chunks: ChunkList) => stream.push(chunks);
    const pages = new PageProgressWriter(context.writer, row.id);
    const prepared = await prepareInThread(input, context.signal, toStream, (progress) => pages.tell(progress));
    await pages.settle();
    if (prepared.format !== 'image') return prepared;
    // An image has no text of its own: a vision model's transcription and description, prepared like any text, stands in.
    const vision = await describeSourceImage({ ...context, path: input.path, enableVision });
    const described =
      vision.text === null
        ? prepared
        : await prepareInThread({ ...input, visionText: vision.text }, context.signal, toStream);
    return {
      ...described,
      warnings: [...described.warnings, ...vision.warnings],
      timings: { ...described.timings, ...(vision.durationMs ? { vision_ms: vision.durationMs } : {}) },
    };
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new PermanentTaskError(error.message, 'UnreadableFile');
    throw error;
  }
}

/** Chunks an interrupted run left that one transaction deletes: each holds the write lock only briefly. */
const clearBatch = 2_000;

/**
 * A run interrupted half-way is safe: the next run starts by deleting what the earlier one wrote, a
 * batch per transaction (a crash may have left a large document's chunks, their vectors and index entries).
 */
async function clearEarlierRun(context: IndexContext): Promise<void> {
  const { writer, sourceId } = context;
  await writer.transaction(async (trx) => {
    await trx('chunk_groups').where({ source_id: sourceId }).delete();
    await trx('sources').where({ id: sourceId }).update({ chunk_count: 0, embedded_chunk_count: 0 });
  });
  for (;;) {
    const deleted = await writer.transaction((trx) =>
      trx('document_chunks')
        .whereIn('rowid', trx('document_chunks').where({ source_id: sourceId }).select('rowid').limit(clearBatch))
        .delete(),
    );
    if (deleted < clearBatch) return;
  }
}

/**
 * Stores chunk rows (full-text indexed by trigger) in multi-row statements; indexing calls it in a
 * wave's transaction. Returns the rowids the chunks got (the vector index labels them by rowid).
 * Also the storing floor bench:ingest measures the pipeline against.
 */
export async function storeChunkRows(
  db: Db,
  sourceId: string,
  chunks: PreparedChunk[],
  at: string,
): Promise<Map<string, number>> {
  await insertRows(
    db,
    'document_chunks',
    chunkColumns,
    chunks.map((chunk) => ({
      id: chunk.id,
      source_id: sourceId,
      chunk_index: chunk.index,
      content: chunk.content,
      page_number: chunk.page,
      section: chunk.section,
      start_offset: chunk.start,
      end_offset: chunk.end,
      original_start: chunk.originalStart,
      original_end: chunk.originalEnd,
      offset_match: chunk.offsetMatch,
      token_estimate: chunk.tokenEstimate,
      chunk_metadata: chunk.pageStarts ? JSON.stringify({ page_starts: chunk.pageStarts }) : null,
      created_at: at,
    })),
  );
  const stored = (await db('document_chunks')
    .where({ source_id: sourceId })
    .whereBetween('chunk_index', [chunks[0].index, chunks[chunks.length - 1].index])
    .select('rowid', 'id')) as { rowid: number; id: string }[];
  return new Map(stored.map((row) => [row.id, row.rowid]));
}

async function storeChunkGroups(db: Db, context: IndexContext, chunkCount: number): Promise<void> {
  const groups = chunkGroups(chunkCount, context.settings.chunking.group_size, context.settings.chunking.group_overlap);
  await insertRows(
    db,
    'chunk_groups',
    ['source_id', 'group_index', 'first_chunk_index', 'last_chunk_index'],
    groups.map((group) => ({
      source_id: context.sourceId,
      group_index: group.groupIndex,
      first_chunk_index: group.firstChunkIndex,
      last_chunk_index: group.lastChunkIndex,
    })),
  );
}

/** Embedding waves (`batching.embedding_wave_size` chunks) computed ahead of the consumer, at most this many. */
const wavesAhead = 3;

interface EmbeddedWave {
  chunks: PreparedChunk[];
  vectors: Float32Array[];
}

/**
 * Embeds the chunks wave after wave as preparation hands them over, one call at a time, staying
 * `wavesAhead` waves in front of the consumer. `next()` gives null once the document's chunks are all taken.
 */
function embeddingWaves(context: IndexContext, stream: ChunkStream): { next(): Promise<EmbeddedWave | null> } {
  const size = context.settings.batching.embedding_wave_size;
  const ahead: Promise<EmbeddedWave | null>[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  const start = () => {
    const wave = previous.then(async () => {
      const chunks = await stream.take(size);
      if (!chunks.length) return null;
      const vectors = await context.embeddings.embed(
        chunks.map((chunk) => chunk.content),
        { signal: context.signal, context: { database: context.database, sourceId: context.sourceId } },
      );
      return { chunks, vectors };
    });
    // Handled here so a wave failing while an earlier one is awaited is not an unhandled rejection; the consumer still sees it.
    previous = wave.catch(() => undefined);
    ahead.push(wave);
  };
  for (let index = 0; index < wavesAhead; index++) start();
  return {
    next: () => {
      start();
      return ahead.shift()!;
    },
  };
}

/** Time spent storing the waves: in all, in their transactions, and waiting for vectors (or for preparation). */
interface StoredWaves {
  elapsedMs: number;
  storingMs: number;
  waitingMs: number;
}

/**
 * Stores the chunks wave by wave, each wave once its vectors are computed (embedding runs `wavesAhead`
 * waves in front, so storing one wave overlaps embedding the next, and both overlap preparing the rest):
 * its chunk rows (full-text indexed by trigger), its vectors (the source of truth of the vector index)
 * and the progress counts in one short transaction on the database's bulk-writer connection, so the
 * API's reads neither queue behind these statements nor see chunks without their vectors. Its vectors
 * then go to the vector index, labelled by chunk rowid, which inserts them behind us (decision 0010).
 * The chunk groups follow once the chunk count is known.
 */
async function storeWaves(context: IndexContext, stream: ChunkStream): Promise<StoredWaves> {
  const begun = performance.now();
  const waves = embeddingWaves(context, stream);
  const identity = context.embeddings.identity();
  const at = new Date().toISOString();
  let done = 0;
  let storingMs = 0;
  let waitingMs = 0;
  for (;;) {
    await context.checkCancelled();
    const asked = performance.now();
    const wave = await waves.next();
    if (!wave) break;
    const started = performance.now();
    waitingMs += started - asked;
    done += wave.chunks.length;
    const rowids = await context.writer.transaction(async (trx) => {
      const stored = await storeChunkRows(trx, context.sourceId, wave.chunks, at);
      await storeChunkVectors(
        trx,
        wave.chunks.map((chunk, offset) => ({
          rowid: stored.get(chunk.id)!,
          model: identity.model,
          vector: wave.vectors[offset],
        })),
      );
      await updateSource(trx, context.sourceId, {
        current_step: 'embedding',
        chunk_count: stream.received,
        embedded_chunk_count: done,
        embedding_model: identity.model,
        embedding_dimensions: wave.vectors[0]?.length ?? null,
        step_description: `Stored and embedded ${done} of ${stream.received} chunks`,
        last_activity_at: new Date().toISOString(),
      });
      return stored;
    });
    storingMs += performance.now() - started;
    await context.vectors.upsert(
      wave.chunks.map((chunk, offset) => ({ label: rowids.get(chunk.id)!, vector: wave.vectors[offset] })),
    );
  }
  await context.writer.transaction((trx) => storeChunkGroups(trx, context, done));
  return { elapsedMs: performance.now() - begun, storingMs, waitingMs };
}
