import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { SourceResponseBody, SourceStatus, UploadOptionsInput } from '@rhizome/contracts/api/sources';
import { NotFound, Conflict, Invalid } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import type { QueueService, TaskStore } from '@rhizome/queue';
import type { Logger } from '../logging.ts';
import type { DataPaths } from '../paths.ts';
import type { ProcessingControls } from '../pause/index.ts';
import type { LlmMetrics } from '../providers/index.ts';
import type { Knex } from 'knex';
import type { Db } from '../storage/index.ts';
import { chunkInContext } from './chunk-context.ts';
import { chunkPage, chunkRowids, findChunk, type ChunkView } from './chunks.ts';
import { domainRegistryFor } from './domains/custom.ts';
import { domainSummary } from './domains/registry.ts';
import { incomingDir, removeSourceFiles, storeOriginal } from './files.ts';
import { indexSourceOperation } from './operation-names.ts';
import { cachedGrades, citationCount, contributedTotals, graphCountsBySource } from './read-model.ts';
import {
  findByContentHash,
  getSource,
  insertSource,
  listSources,
  idleSources,
  sourceTotals,
  tagsBySource,
  updateSource,
  type SourceFilter,
  type SourceRow,
} from './repo.ts';
import { SourceTags } from './tags.ts';
import { containerKind, containerMediaTypes } from './unpack/kind.ts';
import { unpackLimits } from './unpack/limits.ts';
import { UnpackRefusal } from './unpack/refusal.ts';
import { unpack } from './unpack/unpack.ts';
import { fetchForImport } from './url-import/import.ts';
import { sourceView } from './views.ts';

/**
 * What a source's lifecycle asks of extraction. Extraction is built on sources, so it is handed in (the
 * extraction service of the same database) rather than imported.
 */
export interface SourceExtraction {
  /** Ends the source's running extraction jobs with their open groups (their tasks are cancelled by the caller). */
  cancelActiveJobs(sourceId: string, reason: string): Promise<unknown>;
  /** Starts the run of a source that just passed the confirmation gate (a no-op when it has not). */
  startAfterGate(sourceId: string): Promise<unknown>;
  /** Takes back what the source contributed to the graph, inside the transaction that deletes it. */
  removeContribution(trx: Knex.Transaction, sourceId: string): Promise<unknown>;
}

/** The chunk vector index of each database, which drops a deleted source's vectors. */
export interface ChunkVectorIndex {
  remove(database: string, labels: number[]): Promise<void>;
}

export interface SourceServiceDeps {
  db: Db;
  database: string;
  paths: DataPaths;
  processing: ProcessingControls;
  metrics: LlmMetrics;
  queue: QueueService;
  tasks: TaskStore;
  logger: Pick<Logger, 'info'>;
  extraction: SourceExtraction;
  /** The chunk vector indexes, which drop a deleted source's vectors. */
  chunkVectors: ChunkVectorIndex;
  /** How long a URL import may take to fetch its page (the `timeouts.url_fetch` setting, read per import). */
  urlFetchTimeoutSeconds: () => number;
}

/** A file received by the API: on disk, hashed while it streamed in, its type sniffed from its bytes. */
export interface ReceivedFile {
  path: string;
  filename: string;
  size: number;
  sha256: string;
  mediaType: string;
  format: string;
}

export interface NewSourceOrigin {
  sourceType: 'file' | 'webpage';
  originUrl?: string;
  title?: string | null;
  /** Facts the file brought with it (a message's sender, recipients, date and subject), as `user_metadata`. */
  userMetadata?: Record<string, unknown>;
}

/** The sources an archive or mailbox upload became, and its members that became none, each with why. */
export interface ContainerUpload {
  sources: SourceRow[];
  refused: { filename: string; error: string }[];
}

const bool = (value: boolean | null | undefined) => (value === null || value === undefined ? null : value ? 1 : 0);

/** The upload options as the source row keeps them, for indexing, retry and re-extract. */
export function uploadOptionColumns(options: UploadOptionsInput): Partial<SourceRow> {
  return {
    extract_entities: options.extract_entities === false ? 0 : 1,
    analysis_depth: (options.analysis_depth ?? 'full') as SourceRow['analysis_depth'],
    forced_domain: options.domain ?? null,
    auto_confirm: options.auto_confirm ? 1 : 0,
    enable_normalization: bool(options.enable_normalization),
    enable_vision: bool(options.enable_vision),
    content_filtering: options.content_filtering === false ? 0 : 1,
    filtering_mode: options.filtering_mode ?? null,
    enable_direction_correction: bool(options.enable_direction_correction),
    protect_orphans: bool(options.protect_orphans),
    enable_inverse_relationships: bool(options.enable_inverse_relationships),
    max_entity_degree_override: options.max_entity_degree_override ?? null,
  };
}

export interface ConfirmationOptions {
  domain?: string | null;
  analysis_depth?: 'full' | 'quick';
  filtering_mode?: string | null;
  content_filtering?: boolean;
  enable_direction_correction?: boolean | null;
  protect_orphans?: boolean | null;
  enable_inverse_relationships?: boolean | null;
  max_entity_degree_override?: number | null;
}

/** The options a confirmation may change, as columns; absent ones stay as uploaded. */
function confirmationColumns(options: ConfirmationOptions): Partial<SourceRow> {
  const columns: Partial<SourceRow> = {};
  if (options.domain !== undefined) columns.forced_domain = options.domain;
  if (options.analysis_depth !== undefined) columns.analysis_depth = options.analysis_depth;
  if (options.filtering_mode !== undefined) columns.filtering_mode = options.filtering_mode;
  if (options.content_filtering !== undefined) columns.content_filtering = options.content_filtering ? 1 : 0;
  if (options.enable_direction_correction !== undefined)
    columns.enable_direction_correction = bool(options.enable_direction_correction);
  if (options.protect_orphans !== undefined) columns.protect_orphans = bool(options.protect_orphans);
  if (options.enable_inverse_relationships !== undefined)
    columns.enable_inverse_relationships = bool(options.enable_inverse_relationships);
  if (options.max_entity_degree_override !== undefined)
    columns.max_entity_degree_override = options.max_entity_degree_override;
  return columns;
}

export function newSourceId(): string {
  return `src_${randomBytes(12).toString('hex')}`;
}

/** Sources of one database: creating them from uploads, their views, and lifecycle changes made by the operator. */
export class SourceService {
  constructor(private readonly deps: SourceServiceDeps) {}

  /** The source, or undefined when there is none. */
  find(id: string): Promise<SourceRow | undefined> {
    return getSource(this.deps.db, id);
  }

  async require(id: string): Promise<SourceRow> {
    const row = await getSource(this.deps.db, id);
    if (!row) throw NotFound.resource('source', id);
    return row;
  }

  async views(rows: SourceRow[]): Promise<SourceResponseBody[]> {
    const ids = rows.map((row) => row.id);
    const [paused, llm, graph, tags, quality] = await Promise.all([
      this.deps.processing.pausedSourceIds(),
      this.deps.metrics.totalsBy(this.deps.database, 'source_id', ids),
      graphCountsBySource(this.deps.db, ids),
      tagsBySource(this.deps.db, ids),
      cachedGrades(this.deps.db, ids),
    ]);
    return rows.map((row) =>
      sourceView(row, {
        paused: paused.has(row.id),
        llm: llm.get(row.id)!,
        graph: graph.get(row.id)!,
        tags: tags.get(row.id)!,
        quality: quality.get(row.id),
      }),
    );
  }

  async view(row: SourceRow): Promise<SourceResponseBody> {
    return (await this.views([row]))[0];
  }

  list(filter: SourceFilter, window: { offset: number; limit: number }): Promise<{ rows: SourceRow[]; total: number }> {
    return listSources(this.deps.db, filter, window.offset, window.limit);
  }

  /** Sources by status, their chunks, and the entities and relationships they contributed. */
  async statistics() {
    const [totals, contributed] = await Promise.all([sourceTotals(this.deps.db), contributedTotals(this.deps.db)]);
    return { ...totals, ...contributed };
  }

  /** The source's chunks in order, one page of them. 404 for an unknown source. */
  async chunks(
    sourceId: string,
    window: { offset: number; limit: number },
  ): Promise<{ rows: ChunkView[]; total: number }> {
    await this.require(sourceId);
    return chunkPage(this.deps.db, sourceId, window);
  }

  async chunk(sourceId: string, chunkId: string): Promise<ChunkView> {
    const chunk = await findChunk(this.deps.db, sourceId, chunkId);
    if (!chunk) throw NotFound.resource('chunk', chunkId);
    return chunk;
  }

  /** A chunk by id with up to `neighbours` chunks on each side and its source's name. 404 for an unknown chunk. */
  chunkInContext(chunkId: string, neighbours: number) {
    return chunkInContext(this.deps.db, chunkId, neighbours);
  }

  /** How many entity citations the source's chunks carry. 404 for an unknown source. */
  async citationCount(sourceId: string): Promise<number> {
    await this.require(sourceId);
    return citationCount(this.deps.db, sourceId);
  }

  /** The built-in and custom extraction domains of this database, summarised. */
  async domains() {
    return (await domainRegistryFor(this.deps.db)).all().map(domainSummary);
  }

  get tags(): SourceTags {
    return new SourceTags(this.deps.db, this.deps.database);
  }

  /**
   * Creates a source from a received file and queues its indexing. With `skip_duplicates`, a file whose
   * content another source already has creates nothing: the existing source is returned.
   */
  async createFromFile(
    file: ReceivedFile,
    options: UploadOptionsInput,
    origin: NewSourceOrigin = { sourceType: 'file' },
  ): Promise<{ source: SourceRow; duplicate: boolean }> {
    if (options.skip_duplicates) {
      const existing = await findByContentHash(this.deps.db, file.sha256);
      if (existing) {
        await fs.promises.rm(file.path, { force: true });
        this.deps.logger.info(
          `source ${existing.id}: upload of ${file.filename} skipped, same content (skip_duplicates)`,
        );
        return { source: existing, duplicate: true };
      }
    }
    const id = newSourceId();
    const storedFilename = await storeOriginal(this.deps.paths, this.deps.database, id, file.path, file.filename);
    const at = new Date().toISOString();
    try {
      await insertSource(this.deps.db, {
        id,
        created_at: at,
        updated_at: at,
        last_activity_at: at,
        title: origin.title ?? file.filename,
        filename: file.filename,
        source_type: origin.sourceType,
        origin_url: origin.originUrl ?? null,
        status: 'pending',
        file_type: file.format,
        file_size: file.size,
        content_type: file.mediaType,
        content_hash: file.sha256,
        stored_filename: storedFilename,
        current_step: 'queued',
        step_description: 'Waiting to be indexed',
        ...uploadOptionColumns(options),
        ...(origin.userMetadata ? { user_metadata: JSON.stringify(origin.userMetadata) } : {}),
      });
    } catch (error) {
      await removeSourceFiles(this.deps.paths, this.deps.database, id);
      throw error;
    }
    await this.queueIndexing(id);
    this.deps.logger.info(
      `source ${id}: uploaded ${file.filename} (${origin.sourceType === 'webpage' ? `${origin.originUrl}, ` : ''}${file.format}, ${file.size} bytes), indexing queued`,
    );
    return { source: await this.require(id), duplicate: false };
  }

  /**
   * An upload that is an archive (.zip, .tar, .tar.gz) or mail (.eml, .mbox): each member that is a file
   * Rhizome reads becomes a source named by its path in the upload and tagged with the upload's name; the
   * others are listed. Null when the file is no container. A damaged or unsafe container is a 422 (`Invalid`)
   * naming the member, and stores nothing.
   */
  async createFromContainer(
    file: Omit<ReceivedFile, 'mediaType' | 'format'>,
    options: UploadOptionsInput,
    settings: Settings,
  ): Promise<ContainerUpload | null> {
    const kind = await containerKind(file.path, file.filename);
    if (!kind) return null;
    const allowed = settings.batching.allowed_content_types;
    if (!allowed.includes('*') && !containerMediaTypes[kind].some((type) => allowed.includes(type)))
      throw new Invalid(
        [{ loc: ['body'], msg: `'${file.filename}' is an archive or mailbox`, type: 'content_type' }],
        `'${file.filename}' is ${containerMediaTypes[kind][0]}, which batching.allowed_content_types does not allow`,
      );
    const unpacked = await unpack({
      path: file.path,
      filename: file.filename,
      kind,
      dir: incomingDir(this.deps.paths, this.deps.database),
      limits: unpackLimits(settings),
      allowed,
    }).catch((error: unknown) => {
      throw error instanceof UnpackRefusal ? error.toInvalid() : error;
    });
    const sources: SourceRow[] = [];
    try {
      const tag = unpacked.members.length
        ? await this.tags.create(file.filename.slice(0, 64), null, `Unpacked from the upload ${file.filename}`)
        : null;
      for (const member of unpacked.members) {
        const { source } = await this.createFromFile(member, options, {
          sourceType: 'file',
          title: member.title,
          userMetadata: member.metadata,
        });
        sources.push(source);
        if (tag) await this.tags.attach(source.id, tag.id);
      }
    } finally {
      await Promise.all(unpacked.members.map((member) => fs.promises.rm(member.path, { force: true })));
    }
    await fs.promises.rm(file.path, { force: true });
    return { sources: await Promise.all(sources.map((source) => this.require(source.id))), refused: unpacked.refused };
  }

  /**
   * Imports the page or file behind an http(s) URL as a `webpage` source (see `fetchForImport`), vision
   * on unless the options turn it off, titled by the page unless `title` is given. The staged download is
   * removed whatever happens.
   */
  async importUrl(
    url: string,
    options: UploadOptionsInput,
    how: { title?: string } = {},
  ): Promise<{ source: SourceRow; duplicate: boolean }> {
    const staged = await fetchForImport(this.deps, url, this.deps.urlFetchTimeoutSeconds());
    try {
      return await this.createFromFile(
        staged,
        { ...options, enable_vision: options.enable_vision ?? true },
        { sourceType: 'webpage', originUrl: staged.finalUrl, title: how.title ?? staged.title },
      );
    } finally {
      await fs.promises.rm(staged.path, { force: true });
    }
  }

  async queueIndexing(sourceId: string, priority = 50): Promise<string> {
    const task = await this.deps.queue.submit({
      queue: 'operations',
      operation: indexSourceOperation,
      priority,
      data: { database: this.deps.database, source_id: sourceId },
      metadata: { database: this.deps.database, source_id: sourceId },
    });
    await updateSource(this.deps.db, sourceId, { active_task_id: task.task_id });
    return task.task_id;
  }

  async patch(
    id: string,
    changes: {
      title?: string | null;
      processing_status?: 'ready' | 'error';
      enabled?: boolean;
      user_metadata?: Record<string, unknown>;
    },
  ): Promise<SourceRow> {
    const current = await this.require(id);
    const update: Partial<SourceRow> = {};
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.enabled !== undefined) update.enabled = changes.enabled ? 1 : 0;
    if (changes.user_metadata !== undefined) update.user_metadata = JSON.stringify(changes.user_metadata);
    // The API's "ready" is the end state of processing; "error" parks the source for a later retry.
    if (changes.processing_status === 'ready')
      Object.assign(update, { status: 'committed' satisfies SourceStatus, error_stage: null, error_message: null });
    if (changes.processing_status === 'error')
      Object.assign(update, {
        status: 'error' satisfies SourceStatus,
        error_message: current.error_message ?? 'set by the operator',
      });
    if (Object.keys(update).length) await updateSource(this.deps.db, id, update);
    return this.require(id);
  }

  /**
   * Confirms the domain of a source (compare-and-swap). Parked at the gate: it moves to `indexed` with the
   * chosen domain and options. Before the gate (pending, indexing): the choice is recorded and applied
   * when indexing finishes, so the source does not park. Extraction then starts as after any gate. A
   * repeat, or a source past the gate or in error, is 409.
   */
  async confirm(
    id: string,
    options: ConfirmationOptions,
  ): Promise<{ status: SourceStatus; domain: string | null; message: string }> {
    const row = await this.require(id);
    const at = new Date().toISOString();
    const overrides = confirmationColumns(options);
    if (row.status === 'awaiting_confirmation') {
      const domain = options.domain ?? row.extraction_domain;
      const swapped = await updateSource(
        this.deps.db,
        id,
        {
          ...overrides,
          status: 'indexed',
          extraction_domain: domain,
          extraction_confirmed_at: row.extraction_confirmed_at ?? at,
          current_step: 'indexed',
          step_description: 'Domain confirmed',
        },
        ['awaiting_confirmation'],
      );
      if (!swapped) throw new Conflict(`Source '${id}' was confirmed concurrently`);
      await this.deps.extraction.startAfterGate(id);
      return { status: 'indexed', domain, message: `Confirmed ${domain ?? 'the detected domain'}` };
    }
    if (
      (row.status === 'pending' || row.status === 'indexing' || row.status === 'vision_pending') &&
      row.pending_confirmation === null
    ) {
      const swapped = await updateSource(
        this.deps.db,
        id,
        {
          ...overrides,
          pending_confirmation: JSON.stringify({ domain: options.domain ?? null, at }),
          extraction_confirmed_at: at,
        },
        ['pending', 'indexing', 'vision_pending'],
      );
      if (swapped) {
        await this.deps.extraction.startAfterGate(id);
        return {
          status: row.status,
          domain: options.domain ?? null,
          message: 'Recorded: the source will not wait for confirmation when indexing finishes',
        };
      }
    }
    throw new Conflict(
      `Source '${id}' is ${row.status}${row.extraction_confirmed_at ? ' and already confirmed' : ''}: nothing to confirm`,
      { status: row.status },
    );
  }

  /**
   * Re-queues a source's unfinished indexing when no task is working on it (after a resume, a crash, a
   * lost task). Returns whether it queued anything. `maxAttempts` bounds automatic recovery: past it
   * the source goes to `error` with `error_stage: recovery_exhausted`.
   */
  async recover(id: string, options: { maxAttempts?: number } = {}): Promise<boolean> {
    const row = await this.require(id);
    if (row.status !== 'pending' && row.status !== 'indexing' && row.status !== 'vision_pending') return false;
    if (row.active_task_id) {
      const task = await this.deps.tasks.get(row.active_task_id);
      if (task && (task.status === 'queued' || task.status === 'running')) return false;
    }
    if (options.maxAttempts !== undefined && row.recovery_attempts >= options.maxAttempts) {
      await updateSource(this.deps.db, id, {
        status: 'error',
        error_stage: 'recovery_exhausted',
        error_message: `Gave up after ${row.recovery_attempts} recovery attempts`,
        active_task_id: null,
      });
      return false;
    }
    await updateSource(this.deps.db, id, {
      recovery_attempts: row.recovery_attempts + 1,
      step_description: 'Recovered: indexing queued again',
    });
    await this.queueIndexing(id);
    return true;
  }

  /** Sources whose indexing made no progress for `stalledMs`: candidates for `recover`. */
  async stalled(stalledMs: number): Promise<string[]> {
    const stalled = await idleSources(
      this.deps.db,
      ['pending', 'indexing', 'vision_pending'],
      new Date(Date.now() - stalledMs).toISOString(),
    );
    return stalled.map((row) => row.id);
  }

  /** Stops a source's queued and running tasks; the source keeps its chunks and returns to a resumable state. */
  async stopProcessing(id: string): Promise<{ cancelled: number; status: SourceStatus }> {
    const row = await this.require(id);
    const cancelled = await this.deps.tasks.cancelMatching(
      { metadata: { database: this.deps.database, source_id: id } },
      Date.now(),
    );
    const extracting = row.status === 'extracting' || row.status === 'extracted' || row.status === 'committing';
    if (extracting) await this.deps.extraction.cancelActiveJobs(id, 'stopped by the operator');
    const status: SourceStatus =
      row.status === 'indexing' || row.status === 'vision_pending' || row.status === 'pending'
        ? row.chunk_count > 0
          ? 'indexed'
          : 'pending'
        : extracting
          ? 'indexed'
          : row.status;
    await updateSource(this.deps.db, id, {
      status,
      active_task_id: null,
      current_step: 'stopped',
      step_description: 'Processing stopped by the operator',
    });
    return { cancelled, status };
  }

  /**
   * Deletes a source: its running tasks stop, the row goes with everything that references it (chunks,
   * their index rows and embeddings, groups, citations, nodes, edges, tag links — by foreign keys and
   * triggers, in one statement), then its files and its chunks' vectors.
   */
  async delete(id: string): Promise<void> {
    await this.require(id);
    await this.deps.tasks.cancelMatching({ metadata: { database: this.deps.database, source_id: id } }, Date.now());
    const labels = await this.deps.db.transaction(async (trx) => {
      const rowids = await chunkRowids(trx, id);
      // What only this source contributed to the graph goes; nodes other sources also cite stay.
      await this.deps.extraction.removeContribution(trx, id);
      await trx('sources').where({ id }).delete();
      return rowids;
    });
    await removeSourceFiles(this.deps.paths, this.deps.database, id);
    await this.deps.chunkVectors.remove(this.deps.database, labels);
  }
}
