import type { Settings } from '@rhizome/contracts/settings';
import { BadInput, NotFound, Conflict, DomainError, ErrorCode } from '@rhizome/contracts/errors';
import type { QueueService, TaskStore } from '@rhizome/queue';
import type { Knex } from 'knex';
import type { LlmMetrics, ReadinessGate } from '../providers/index.ts';
import { domainRegistryFor } from '../sources/index.ts';
import { fallbackDomain } from '../sources/index.ts';
import { getSource, updateSource, withLoaderWarning, type SourceRow } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import {
  bulkExtractionOperation,
  bulkProgress,
  bulkTargets,
  type BulkExtractionRequest,
  type BulkExtractionResult,
} from './bulk.ts';
import { removeContribution } from './commit/contributions.ts';
import {
  activeJobStatuses,
  cancelActiveJobs,
  getJob,
  groupCounts,
  latestJob,
  listGroups,
  moveGroup,
  moveJob,
  insertJob,
  assertStartable,
  newJob,
  queueGroup,
  type GroupRow,
  type JobRow,
  type ModelChoice,
} from './jobs.ts';
import { jobProgress } from './progress.ts';
import { finishIdleExtractions, type FinishedExtraction } from './recovery.ts';
import { resolveExtractionOptions, type ExtractionRequest } from './options.ts';
import { planExtraction } from './plan.ts';
import { ExtractionHistory } from './attempts/history.ts';
import { rerunGroups } from './attempts/rerun.ts';
import { sweepAttempts } from './attempts/store.ts';
import { recordRecoveryEvent, type RecoveryEvent } from './recovery-events.ts';

export interface ExtractionServiceDeps {
  db: Db;
  database: string;
  queue: QueueService;
  tasks: TaskStore;
  settings(): Settings;
  readiness: Pick<ReadinessGate, 'assertReady'>;
  /** The call records, read for a source's model metrics. */
  metrics?: Pick<LlmMetrics, 'callsOf' | 'totals'>;
}

const enqueueConcurrency = 64;

/** A source with no chunk left to extract from (no text, or all filtered out): 400, and the source stays as it is. */
export class NothingToExtractError extends BadInput {
  constructor(
    sourceId: string,
    readonly why: string,
  ) {
    super(`Source '${sourceId}' has nothing to extract: ${why}`, { reason: 'nothing_to_extract' });
  }
}

/** What a start did: queued a job, or parked the source at the confirmation gate first. */
export type StartOutcome =
  { status: 'queued'; job: JobRow; message: string } | { status: 'awaiting_confirmation'; job: null; message: string };

/** Whether a source's domain was ever chosen: forced at upload, auto-confirmed, or confirmed at the gate. */
const domainConfirmed = (source: SourceRow) =>
  source.forced_domain !== null || source.auto_confirm === 1 || source.extraction_confirmed_at !== null;

/**
 * Extraction jobs of one database: start (plan the groups, estimate and check the budget, queue one
 * llm-lane task per group), cancel, and report progress. The queue handlers (tasks.ts) do the work.
 */
export class ExtractionService {
  /** Each group's attempts, the filtering log, statistics, charts, model calls and recovery events of a source. */
  readonly history: ExtractionHistory;

  constructor(private readonly deps: ExtractionServiceDeps) {
    this.history = new ExtractionHistory({
      db: deps.db,
      database: deps.database,
      metrics: deps.metrics,
      contextWindow: () => {
        const llm = deps.settings().llm;
        return llm.chat_provider === 'localllm' ? llm.localllm_num_ctx : llm.ai_context_window;
      },
    });
  }

  /** Runs some of the current run's groups again, optionally with another provider or model (see attempts/rerun.ts). */
  rerun(sourceId: string, groupIndexes: readonly number[], choice: ModelChoice = {}) {
    const { db, database, queue, readiness, settings } = this.deps;
    const priority = settings().priorities.interactive;
    const llm = () => settings().llm;
    return rerunGroups({ db, database, queue, readiness, priority, llm }, sourceId, groupIndexes, choice);
  }

  /** Deletes the attempts older than `source_processing.attempt_retention_days`; returns how many. */
  sweepAttempts(now = new Date()): Promise<number> {
    return sweepAttempts(this.deps.db, this.deps.settings().source_processing.attempt_retention_days, now);
  }

  /** Keeps what the recovery scan did to a source (GET /sources/{id}/recovery_events). */
  recordRecovery(event: RecoveryEvent): Promise<void> {
    return recordRecoveryEvent(this.deps.db, event);
  }

  /**
   * Starts a run. A source indexed without extraction whose domain nobody chose (uploaded with
   * `extract_entities=false` and neither `domain` nor `auto_confirm`) passes the confirmation gate now:
   * unless the request names a domain, it parks at `awaiting_confirmation` and confirming it starts the run.
   */
  async start(sourceId: string, request: ExtractionRequest = {}): Promise<StartOutcome> {
    const { db } = this.deps;
    const source = await getSource(db, sourceId);
    if (!source) throw NotFound.resource('Source', sourceId);
    const running = await this.activeJob(sourceId);
    if (running && !request.force)
      throw new Conflict(
        `Extraction of source '${sourceId}' is already in progress (job ${running.id}); pass force to restart it`,
        { job_id: running.id },
      );
    // A running job may be replaced with `force` whatever its source's status says.
    if (!running) assertStartable(sourceId, source.status, request.force);
    if (source.chunk_count === 0)
      throw new NothingToExtractError(sourceId, 'no text could be read from it (see loader_warnings)');
    if (source.status === 'indexed' && !running && !domainConfirmed(source) && !request.domain)
      return this.park(source, request);
    await this.deps.readiness.assertReady('extraction');
    const registry = await domainRegistryFor(db);
    const domainName = request.domain ?? source.forced_domain ?? source.extraction_domain ?? fallbackDomain;
    const domain = registry.get(domainName);
    if (!domain) throw BadInput.field(`Unknown domain '${domainName}'`, 'domain');
    const settings = this.deps.settings();
    const options = resolveExtractionOptions(source, request, domain, settings);
    const plan = await planExtraction(db, sourceId, options, domain, settings);
    if (plan.groups.length === 0) {
      throw new NothingToExtractError(
        sourceId,
        `content filtering (${options.filteringMode}) kept none of its ${plan.chunksTotal} chunks; pass content_filtering false or a milder filtering_mode`,
      );
    }
    const estimatedTokens = plan.estimate.inputTokens + plan.estimate.outputTokens;
    const budget = settings.llm.max_tokens_per_source;
    if (budget !== null && estimatedTokens > budget) {
      throw BadInput.field(
        `Extracting this source would use about ${estimatedTokens} tokens, over llm.max_tokens_per_source (${budget}); raise the limit, use analysis_depth 'quick' or a stricter filtering_mode`,
        'llm.max_tokens_per_source',
      );
    }
    if (running) await this.cancelJob(running, 'replaced by a forced restart');

    const now = new Date().toISOString();
    const job = newJob(sourceId, domain.name, options, plan, 'queued', now);
    await db.transaction(async (trx) => {
      await insertJob(trx, job, plan);
      await updateSource(trx, sourceId, {
        status: 'extracting',
        extraction_job_id: job.id,
        extraction_domain: domain.name,
        analysis_depth: options.depth,
        extraction_started_at: now,
        extraction_completed_at: null,
        commit_started_at: null,
        commit_completed_at: null,
        extraction_queued_at: now,
        estimated_tokens: estimatedTokens,
        estimated_cost_usd: plan.estimate.costUsd,
        error_stage: null,
        error_message: null,
        current_step: 'extracting',
        step_description: `Extracting ${plan.groups.length} groups of ${plan.chunksKept} chunks (${plan.chunksTotal - plan.chunksKept} filtered out)`,
        last_activity_at: now,
        updated_at: now,
      });
    });
    await this.enqueueGroups(job);
    return {
      status: 'queued',
      job,
      message: `Extraction queued: ${plan.groups.length} groups, about ${estimatedTokens} tokens`,
    };
  }

  /** Parks a source at the gate, keeping what the request asked for so the run after confirmation uses it. */
  private async park(source: SourceRow, request: ExtractionRequest): Promise<StartOutcome> {
    const changes: Partial<SourceRow> = {
      status: 'awaiting_confirmation',
      extract_entities: 1,
      current_step: 'awaiting_confirmation',
      step_description: 'Waiting for the domain to be confirmed; extraction starts once it is',
      last_activity_at: new Date().toISOString(),
    };
    if (request.analysis_depth !== undefined) changes.analysis_depth = request.analysis_depth;
    if (request.filtering_mode !== undefined) changes.filtering_mode = request.filtering_mode;
    if (request.content_filtering !== undefined) changes.content_filtering = request.content_filtering ? 1 : 0;
    if (!(await updateSource(this.deps.db, source.id, changes, ['indexed'])))
      throw new Conflict(`Source '${source.id}' changed while extraction was being started`);
    return {
      status: 'awaiting_confirmation',
      job: null,
      message:
        'The detected domain needs confirming first (POST /sources/{id}/confirmation); extraction starts once it is confirmed',
    };
  }

  /**
   * Checks a bulk request's sources (see bulk.ts `bulkTargets`) and queues the task that starts each
   * one's extraction in turn; nothing is queued when a named source is refused.
   */
  async queueBulk(request: BulkExtractionRequest): Promise<{ taskId: string; total: number }> {
    const { db, database } = this.deps;
    const ids = await bulkTargets(db, request);
    await this.deps.readiness.assertReady('extraction');
    const { analysis_depth, domain, filtering_mode, content_filtering } = request;
    const data = {
      database,
      source_ids: ids,
      force: Boolean(request.force),
      options: { analysis_depth, domain, filtering_mode, content_filtering },
    };
    const task = await this.deps.queue.submit({
      queue: 'operations',
      operation: bulkExtractionOperation,
      priority: this.deps.settings().priorities.background,
      data,
      metadata: { database },
    });
    return { taskId: task.task_id, total: ids.length };
  }

  /**
   * Where a bulk extraction of this database stands: its task's status and, over the sources it did not
   * skip, how many runs since it was queued have not started, are running, completed, failed or were
   * cancelled. 404 for a task that is not a bulk extraction of this database.
   */
  async bulkStatus(taskId: string) {
    const { db, database, tasks } = this.deps;
    const task = await tasks.get(taskId);
    if (!task || task.operation !== bulkExtractionOperation || task.data.database !== database)
      throw NotFound.resource('Bulk extraction', taskId);
    const result =
      task.status === 'completed'
        ? ((await tasks.result(task.task_id, Date.now()))?.result as BulkExtractionResult | undefined)
        : undefined;
    const skipped = result?.skipped ?? [];
    const left = new Set(skipped.map((entry) => entry.source_id));
    const ids = (task.data.source_ids as string[]).filter((id) => !left.has(id));
    return {
      task_id: task.task_id,
      task_status: task.status,
      ...(await bulkProgress(db, ids, task.created_at)),
      skipped,
    };
  }

  /** Queues every pending group. */
  async enqueueGroups(job: JobRow): Promise<void> {
    const { db, queue } = this.deps;
    const priority = this.deps.settings().priorities.background;
    const pending = (await listGroups(db, job.id)).filter((group) => group.status === 'pending');
    for (let start = 0; start < pending.length; start += enqueueConcurrency) {
      await Promise.all(
        pending
          .slice(start, start + enqueueConcurrency)
          .map((group) => queueGroup(db, queue, this.deps.database, job, group.group_index, priority)),
      );
    }
  }

  /**
   * DELETE /sources/{id}/extraction: cancels the groups not yet running; running and finished ones are left to end; the source returns to
   * `indexed`. An agent's run (`mcp_extracting`) ends entirely: nothing of it runs on the server.
   */
  async cancel(sourceId: string): Promise<void> {
    const source = await getSource(this.deps.db, sourceId);
    if (!source) throw NotFound.resource('Source', sourceId);
    const job = await this.activeJob(sourceId);
    if (!job) throw NotFound.resource('Extraction job', sourceId);
    await this.cancelJob(job, 'cancelled by the operator');
  }

  private async cancelJob(job: JobRow, reason: string): Promise<void> {
    const { db, tasks } = this.deps;
    const now = new Date().toISOString();
    // A re-extraction that stops leaves the source's earlier contribution in the graph: it stays committed.
    const status = (await hasContribution(db, job.source_id)) ? 'committed' : 'indexed';
    const source = await getSource(db, job.source_id);
    // An agent's run has no task behind a running group (it waits for the agent's second pass): those end too.
    const byAgent = source?.status === 'mcp_extracting' && source.extraction_job_id === job.id;
    const cancellable: GroupRow['status'][] = byAgent ? ['pending', 'queued', 'running'] : ['pending', 'queued'];
    // One transaction: another process never sees the job ended while its source still shows it running.
    await db.transaction(async (trx) => {
      await moveJob(trx, job.id, activeJobStatuses, { status: 'cancelled', completed_at: now, error_message: reason });
      await updateSource(
        trx,
        job.source_id,
        {
          status,
          extraction_job_id: null,
          current_step: status,
          step_description: `Extraction ${reason}`,
          last_activity_at: now,
        },
        ['extracting', 'extracted', 'committing', 'mcp_extracting'],
      );
    });
    const open = (await listGroups(db, job.id)).filter((group) => cancellable.includes(group.status));
    for (const group of open) {
      if (group.task_id) await tasks.cancel(group.task_id, Date.now());
      await moveGroup(db, job.id, group.group_index, cancellable, { status: 'cancelled', completed_at: now });
    }
  }

  async activeJob(sourceId: string): Promise<JobRow | undefined> {
    const job = await latestJob(this.deps.db, sourceId);
    return job && activeJobStatuses.includes(job.status) ? job : undefined;
  }

  async job(sourceId: string): Promise<JobRow | undefined> {
    const source = await getSource(this.deps.db, sourceId);
    if (!source) throw NotFound.resource('Source', sourceId);
    return source.extraction_job_id
      ? getJob(this.deps.db, source.extraction_job_id)
      : latestJob(this.deps.db, sourceId);
  }

  /** Where the source's latest run stands (see progress.ts), or the source's status when it has none. 404 for an unknown source. */
  async progress(sourceId: string) {
    const job = await this.job(sourceId);
    if (job) return jobProgress(sourceId, job, await this.groups(job));
    const source = (await getSource(this.deps.db, sourceId)) as SourceRow;
    return {
      source_id: sourceId,
      job_id: null,
      status: source.status,
      has_extraction_job: false as const,
      message: 'This source has not been extracted yet',
    };
  }

  async groups(job: JobRow, page?: { offset: number; limit: number }): Promise<GroupRow[]> {
    return listGroups(this.deps.db, job.id, page);
  }

  async counts(job: JobRow) {
    return groupCounts(this.deps.db, job.id);
  }

  /**
   * Starts extraction of a source that just passed the gate (indexed with `auto_confirm` or a forced
   * domain, or confirmed), when it was uploaded with `extract_entities`. A provider that is not ready
   * leaves the source `indexed` with the reason, to be started later; so does a source with nothing to
   * extract, the reason added to its loader warnings. A refusal on the source itself (over the token
   * budget, an unknown domain) is its error.
   */
  async startAfterGate(sourceId: string): Promise<void> {
    const { db } = this.deps;
    const source = await getSource(db, sourceId);
    if (!source || source.status !== 'indexed' || source.extract_entities !== 1) return;
    try {
      await this.start(sourceId);
    } catch (error) {
      if (error instanceof NothingToExtractError) {
        await updateSource(
          db,
          sourceId,
          {
            loader_warnings: withLoaderWarning(source, `Not extracted: nothing to extract, ${error.why}`),
            step_description: `Indexed; nothing to extract: ${error.why}`,
          },
          ['indexed'],
        );
        return;
      }
      if (!(error instanceof DomainError)) throw error;
      const notReady = error.code === ErrorCode.llmNotVerified || error.code === ErrorCode.extractionModelMissing;
      if (error.code === ErrorCode.conflict) return;
      await updateSource(
        db,
        sourceId,
        notReady
          ? { step_description: `Indexed; extraction waits until the model provider is ready: ${error.message}` }
          : {
              status: 'error',
              error_stage: 'extraction',
              error_message: error.message,
              current_step: 'error',
              step_description: `Extraction refused: ${error.message}`,
            },
        ['indexed'],
      );
    }
  }

  /** Marks a source's active jobs cancelled with their open groups (its tasks are cancelled by the caller). */
  cancelActiveJobs(sourceId: string, reason: string): Promise<number> {
    return cancelActiveJobs(this.deps.db, sourceId, reason);
  }

  /** Takes back what a source contributed to the graph, inside the caller's transaction (see commit/contributions.ts). */
  removeContribution(trx: Knex.Transaction, sourceId: string) {
    return removeContribution(trx, sourceId);
  }

  /** Finishes the sources idle for `idleMs` whose extraction has no work left (see recovery.ts). */
  finishIdle(idleMs: number): Promise<FinishedExtraction[]> {
    const { db, database, queue, tasks } = this.deps;
    return finishIdleExtractions(
      { db, database, queue, tasks, priority: this.deps.settings().priorities.background },
      idleMs,
    );
  }
}

async function hasContribution(db: Db, sourceId: string): Promise<boolean> {
  return Boolean(
    (await db('node_sources').where({ source_id: sourceId }).first('node_id')) ??
    (await db('edge_sources').where({ source_id: sourceId }).first('edge_id')),
  );
}
