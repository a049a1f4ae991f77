import type { Settings } from '@rhizome/contracts/settings';
import type { SourceStatus } from '@rhizome/contracts/api/sources';
import { PermanentTaskError } from '@rhizome/queue';
import type { DataPaths } from '../paths.ts';
import type { EmbeddingService } from '../providers/embeddings/service.ts';
import type { LlmService } from '../providers/llm/service.ts';
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
import type { PreparedChunk, PreparedDocument, PrepareInput } from './prepare/prepare.ts';
import { describeSourceImage } from './vision.ts';

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
  /** Describes image sources (vision). */
  llm: LlmService;
  vectors: ChunkVectorSink;
  domains: DomainDefinition[];
  signal: AbortSignal;
  checkCancelled(): Promise<void>;
}

// knex writes a multi-row insert as a compound SELECT, which SQLite caps at 500 terms.
const insertBatch = 25;

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
  if (!['pending', 'indexing', 'vision_pending', 'error'].includes(row.status)) return { status: row.status, chunks: row.chunk_count };
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
  // Embedding starts at once, on its own thread, while the chunks are being stored.
  const waves = embeddingWaves(context, chunks);
  await timed('storing', `Storing ${chunks.length} chunks`, () => storeChunks(context, chunks));
  // An image's lack of text is told by vision (or was asked for with enable_vision=false); other silent loaders get the reason here.
  const silent = !prepared.hasText && prepared.warnings.length === 0 && prepared.format !== 'image';
  const warnings = silent ? [noTextWarning] : prepared.warnings;
  await updateSource(db, sourceId, { chunk_count: chunks.length, loader_warnings: JSON.stringify(warnings), ...titleFromDocument(row, prepared) });

  await timed('embedding', `Embedding ${chunks.length} chunks`, () => storeEmbeddings(context, waves, chunks.length));
  const proposal = await timed('detecting_domain', 'Detecting the domain', () =>
    detectDomain({ samples: prepared.samples, filename: row.filename ?? '', docType: prepared.format }, context.domains),
  );

  // Re-read: a confirmation may have arrived while this run was working.
  const gate = (await getSource(db, sourceId)) ?? row;
  const confirmed = gate.forced_domain !== null || gate.auto_confirm === 1 || gate.pending_confirmation !== null;
  // The gate confirms a domain for extraction: a source with none to run (not asked for, or no text) does not wait at it.
  const status: SourceStatus = confirmed || gate.extract_entities === 0 || chunks.length === 0 ? 'indexed' : 'awaiting_confirmation';
  const pre = gate.pending_confirmation ? (JSON.parse(gate.pending_confirmation) as { domain?: string | null }) : null;
  const at = new Date().toISOString();
  await updateSource(db, sourceId, {
    status,
    extraction_domain: gate.forced_domain ?? pre?.domain ?? proposal.detected_domain,
    detection_proposal: JSON.stringify({ ...proposal, ...(prepared.hasText ? {} : { no_text: true }) }),
    extraction_confirmed_at: gate.pending_confirmation ? (gate.extraction_confirmed_at ?? at) : gate.extraction_confirmed_at,
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
function titleFromDocument(row: SourceRow, prepared: PreparedDocument): Partial<SourceRow> {
  const title = prepared.title?.trim();
  return title && row.source_type === 'file' && row.title === row.filename ? { title } : {};
}

async function prepare(context: IndexContext, row: SourceRow): Promise<PreparedDocument> {
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
    const vision = await describeSourceImage({ ...context, path: input.path, enableVision: row.enable_vision === null ? null : row.enable_vision === 1 });
    const described = vision.text === null ? prepared : await prepareInThread({ ...input, visionText: vision.text }, context.signal);
    return { ...described, warnings: [...described.warnings, ...vision.warnings], timings: { ...described.timings, ...(vision.durationMs ? { vision_ms: vision.durationMs } : {}) } };
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
    await trx('sources').where({ id: context.sourceId }).update({ chunk_count: 0, embedded_chunk_count: 0 });
  });
  for (let start = 0; start < chunks.length; start += insertBatch) {
    await context.checkCancelled();
    const rows = chunks.slice(start, start + insertBatch).map((chunk) => ({
      id: chunk.id, source_id: context.sourceId, chunk_index: chunk.index, content: chunk.content, page_number: chunk.page, section: chunk.section,
      start_offset: chunk.start, end_offset: chunk.end, original_start: chunk.originalStart, original_end: chunk.originalEnd, offset_match: chunk.offsetMatch,
      token_estimate: chunk.tokenEstimate, chunk_metadata: chunk.pageStarts ? JSON.stringify({ page_starts: chunk.pageStarts }) : null, created_at: at,
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

/** Embedding waves (`batching.embedding_wave_size` chunks) computed ahead of the consumer, at most this many. */
const wavesAhead = 3;

interface EmbeddedWave {
  chunks: PreparedChunk[];
  vectors: Float32Array[];
}

/** Starts embedding the chunks wave after wave, staying at most `wavesAhead` waves in front of the consumer. */
function embeddingWaves(context: IndexContext, chunks: PreparedChunk[]): AsyncGenerator<EmbeddedWave> {
  const size = context.settings.batching.embedding_wave_size;
  const count = Math.ceil(chunks.length / size);
  const started: Promise<EmbeddedWave>[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  const start = (index: number) => {
    const wave = chunks.slice(index * size, (index + 1) * size);
    const embedded = previous.then(async () => ({
      chunks: wave,
      vectors: await context.embeddings.embed(wave.map((chunk) => chunk.content), { signal: context.signal, context: { database: context.database, sourceId: context.sourceId } }),
    }));
    // Handled here so a wave failing while an earlier one is awaited is not an unhandled rejection; the consumer still sees it.
    previous = embedded.catch(() => undefined);
    started[index] = embedded;
  };
  for (let index = 0; index < Math.min(wavesAhead, count); index++) start(index);
  return (async function* () {
    for (let index = 0; index < count; index++) {
      const wave = await started[index];
      if (index + wavesAhead < count) start(index + wavesAhead);
      yield wave;
    }
  })();
}

/**
 * Stores each embedded wave in SQLite (the source of truth) and hands its vectors to the vector index,
 * labelled by chunk rowid; the index inserts them behind us (decision 0010).
 */
async function storeEmbeddings(context: IndexContext, waves: AsyncGenerator<EmbeddedWave>, total: number): Promise<void> {
  const rows = (await context.db('document_chunks').where({ source_id: context.sourceId }).select('rowid', 'id')) as { rowid: number; id: string }[];
  const rowids = new Map(rows.map((row) => [row.id, row.rowid]));
  const identity = context.embeddings.identity();
  let done = 0;
  for await (const { chunks, vectors } of waves) {
    await context.checkCancelled();
    for (let start = 0; start < chunks.length; start += insertBatch) {
      await context.db('chunk_embeddings').insert(chunks.slice(start, start + insertBatch).map((chunk, offset) => {
        const vector = vectors[start + offset];
        return { chunk_id: chunk.id, model: identity.model, dimensions: vector.length, vector: encodeVector(vector) };
      })).onConflict('chunk_id').merge();
    }
    await context.vectors.upsert(chunks.map((chunk, index) => ({ label: rowids.get(chunk.id)!, vector: vectors[index] })));
    done += chunks.length;
    await updateSource(context.db, context.sourceId, {
      embedded_chunk_count: done, embedding_model: identity.model, embedding_dimensions: vectors[0]?.length ?? null,
      step_description: `Embedded ${done} of ${total} chunks`, last_activity_at: new Date().toISOString(),
    });
  }
}
