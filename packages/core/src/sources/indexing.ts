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
import { getSource, updateSource, type SourceRow } from './repo.ts';
import { chunkGroups } from './text/groups.ts';
import { prepareInThread } from './prepare/run-in-thread.ts';
import type { ChunkList, ReceivedDocument } from './prepare/packed.ts';
import type { PreparedChunk, PrepareInput } from './prepare/prepare.ts';
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
 * Indexes one source: load the stored original, normalise and chunk it (on a worker thread), then wave by
 * wave store chunks (full-text indexed by trigger) with their embeddings while the next waves' are
 * computed, and hand the vectors to the vector index, detect the domain, then pass the
 * confirmation gate. Progress is written at every step. Safe to run again after a crash: chunk ids
 * are stable and a run starts by removing what an earlier run left.
 */
export async function indexSource(context: IndexContext): Promise<{ status: SourceStatus; chunks: number }> {
  const { db, sourceId } = context;
  const row = await getSource(db, sourceId);
  if (!row) throw new PermanentTaskError(`Source '${sourceId}' no longer exists`, 'NotFound');
  if (!['pending', 'indexing', 'vision_pending', 'error'].includes(row.status))
    return { status: row.status, chunks: row.chunk_count };
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, description: string, work: () => Promise<T> | T): Promise<T> => {
    await context.checkCancelled();
    await updateSource(db, sourceId, {
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
  await updateSource(db, sourceId, {
    status: 'indexing',
    indexing_started_at: row.indexing_started_at ?? started,
    error_stage: null,
    error_message: null,
  });

  const prepared = await timed('preparing', `Reading and splitting ${row.filename ?? 'the file'}`, () =>
    prepare(context, row),
  );
  Object.assign(timings, prepared.timings);
  const { chunks } = prepared;
  if (prepared.hasText && !chunks.length)
    throw new PermanentTaskError('The document has text but produced no chunks', 'ValidationError');
  // An image's lack of text is told by vision (or was asked for with enable_vision=false); other silent loaders get the reason here.
  const silent = !prepared.hasText && prepared.warnings.length === 0 && prepared.format !== 'image';
  const warnings = silent ? [noTextWarning] : prepared.warnings;
  // Embedding starts at once, on its own thread, and runs ahead of the storing of each wave.
  const waves = embeddingWaves(context, chunks);
  await clearEarlierRun(context);
  await updateSource(db, sourceId, {
    chunk_count: chunks.length,
    loader_warnings: JSON.stringify(warnings),
    ...titleFromDocument(row, prepared),
  });
  const spent = await timed('embedding', `Storing and embedding ${chunks.length} chunks`, () =>
    context.vectors.yieldingTo(() => storeWaves(context, chunks, waves)),
  );
  timings.storing_ms = Math.round(spent.storingMs);
  timings.embedding_wait_ms = Math.round(spent.waitingMs);
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
    confirmed || gate.extract_entities === 0 || chunks.length === 0 ? 'indexed' : 'awaiting_confirmation';
  const pre = gate.pending_confirmation ? (JSON.parse(gate.pending_confirmation) as { domain?: string | null }) : null;
  const at = new Date().toISOString();
  await updateSource(db, sourceId, {
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
  return { status, chunks: chunks.length };
}

/** Why a source has no chunks, when neither its loader nor vision said why. */
const noTextWarning = 'No text could be read from this file: it has no chunks to search or to extract entities from';

/** The title the document declares (PDF Title, DOCX core title, EPUB dc:title, HTML <title>) replaces the file name an upload was titled with; a title set by hand stays. */
function titleFromDocument(row: SourceRow, prepared: ReceivedDocument): Partial<SourceRow> {
  const title = prepared.title?.trim();
  return title && row.source_type === 'file' && row.title === row.filename ? { title } : {};
}

async function prepare(context: IndexContext, row: SourceRow): Promise<ReceivedDocument> {
  if (!row.stored_filename) throw new PermanentTaskError('The source has no stored file', 'ValidationError');
  try {
    const input: PrepareInput = {
      sourceId: row.id,
      path: originalPath(context.paths, context.database, row.id, row.stored_filename),
      filename: row.filename ?? row.stored_filename,
      limits: loaderLimits(context.settings),
      normalize: row.enable_normalization === null ? null : row.enable_normalization === 1,
      chunking: context.settings.chunking,
    };
    const prepared = await prepareInThread(input, context.signal);
    if (prepared.format !== 'image') return prepared;
    // An image has no text of its own: a vision model's transcription and description, prepared like any text, stands in.
    const vision = await describeSourceImage({
      ...context,
      path: input.path,
      enableVision: row.enable_vision === null ? null : row.enable_vision === 1,
    });
    const described =
      vision.text === null ? prepared : await prepareInThread({ ...input, visionText: vision.text }, context.signal);
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

/** A run interrupted half-way is safe: the next run starts by deleting what the earlier one wrote. */
async function clearEarlierRun(context: IndexContext): Promise<void> {
  await context.db.transaction(async (trx) => {
    await trx('document_chunks').where({ source_id: context.sourceId }).delete();
    await trx('chunk_groups').where({ source_id: context.sourceId }).delete();
    await trx('sources').where({ id: context.sourceId }).update({ chunk_count: 0, embedded_chunk_count: 0 });
  });
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

interface EmbeddingWaves {
  count: number;
  /** The wave's chunks, built when its embedding started; asked for once. */
  chunksOf(index: number): PreparedChunk[];
  /** The wave's vectors; asking for wave i lets the waves up to i + wavesAhead start. */
  vectorsOf(index: number): Promise<Float32Array[]>;
}

/** Embeds the chunks wave after wave, one call at a time, staying at most `wavesAhead` waves in front of the consumer. */
function embeddingWaves(context: IndexContext, chunks: ChunkList): EmbeddingWaves {
  const size = context.settings.batching.embedding_wave_size;
  const count = Math.ceil(chunks.length / size);
  const built = new Map<number, PreparedChunk[]>();
  const started: Promise<Float32Array[]>[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  const start = (index: number) => {
    const wave = chunks.slice(index * size, (index + 1) * size);
    built.set(index, wave);
    const texts = wave.map((chunk) => chunk.content);
    const embedded = previous.then(() =>
      context.embeddings.embed(texts, {
        signal: context.signal,
        context: { database: context.database, sourceId: context.sourceId },
      }),
    );
    // Handled here so a wave failing while an earlier one is awaited is not an unhandled rejection; the consumer still sees it.
    previous = embedded.catch(() => undefined);
    started[index] = embedded;
  };
  for (let index = 0; index < Math.min(wavesAhead, count); index++) start(index);
  return {
    count,
    chunksOf: (index) => {
      const wave = built.get(index)!;
      built.delete(index);
      return wave;
    },
    vectorsOf: (index) => {
      if (index + wavesAhead < count && !started[index + wavesAhead]) start(index + wavesAhead);
      return started[index];
    },
  };
}

/**
 * Stores the chunks wave by wave, each wave once its vectors are computed (embedding runs `wavesAhead`
 * waves in front, so storing one wave overlaps embedding the next): its chunk rows (full-text indexed by
 * trigger), its embeddings (the source of truth of its vectors) and the progress count in one short
 * transaction on the database's bulk-writer connection, so the API's reads neither queue behind these
 * statements nor see chunks without their embeddings. Its vectors then go to the vector index, labelled by chunk rowid,
 * which inserts them behind us (decision 0010). Returns the time spent in the waves' transactions and
 * the time spent waiting for vectors.
 */
async function storeWaves(
  context: IndexContext,
  chunks: ChunkList,
  waves: EmbeddingWaves,
): Promise<{ storingMs: number; waitingMs: number }> {
  await context.writer.transaction((trx) => storeChunkGroups(trx, context, chunks.length));
  const identity = context.embeddings.identity();
  const at = new Date().toISOString();
  let done = 0;
  let storingMs = 0;
  let waitingMs = 0;
  for (let index = 0; index < waves.count; index++) {
    await context.checkCancelled();
    const wave = waves.chunksOf(index);
    const asked = performance.now();
    const vectors = await waves.vectorsOf(index);
    const started = performance.now();
    waitingMs += started - asked;
    done += wave.length;
    const rowids = await context.writer.transaction(async (trx) => {
      const stored = await storeChunkRows(trx, context.sourceId, wave, at);
      await storeChunkVectors(
        trx,
        wave.map((chunk, offset) => ({ rowid: stored.get(chunk.id)!, model: identity.model, vector: vectors[offset] })),
      );
      await updateSource(trx, context.sourceId, {
        embedded_chunk_count: done,
        embedding_model: identity.model,
        embedding_dimensions: vectors[0]?.length ?? null,
        step_description: `Stored and embedded ${done} of ${chunks.length} chunks`,
        last_activity_at: new Date().toISOString(),
      });
      return stored;
    });
    storingMs += performance.now() - started;
    await context.vectors.upsert(
      wave.map((chunk, offset) => ({ label: rowids.get(chunk.id)!, vector: vectors[offset] })),
    );
  }
  return { storingMs, waitingMs };
}
