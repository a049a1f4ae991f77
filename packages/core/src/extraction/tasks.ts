import { chatProviders, type ChatProvider, type Settings } from '@rhizome/contracts/settings';
import { countOf } from '@rhizome/contracts/wording';
import {
  classifyError,
  TaskCancelledError,
  type HandlerContext,
  type QueueService,
  type TaskRecord,
} from '@rhizome/queue';
import type { TaskRegistrar } from '../module/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import { publishBulkCreations, type GraphEventBus } from '../graph/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import type { LlmCallContext, LlmService } from '../providers/index.ts';
import { domainRegistryFor } from '../sources/index.ts';
import type { DomainDefinition } from '../sources/index.ts';
import { getSource, updateSource, withLoaderWarning } from '../sources/index.ts';
import { qualityServiceFor } from '../quality/index.ts';
import { embedNodes, type VectorSink } from '../search/index.ts';
import type { Db } from '../storage/index.ts';
import { AttemptRecorder } from './attempts/recorder.ts';
import { insertAttempt } from './attempts/store.ts';
import { defineBulkExtractionOperation } from './bulk-tasks.ts';
import { commitExtraction, type CommitOutcome } from './commit/commit.ts';
import { finalizeExtraction } from './finalize/index.ts';
import { harvestGroup } from './harvest/index.ts';
import {
  completedHarvests,
  finalizeWhenDone,
  getGroup,
  getJob,
  groupCounts,
  jobOptions,
  moveGroup,
  moveJob,
  type GroupRow,
  type JobRow,
  type ModelChoice,
} from './jobs.ts';
import { commitExtractionOperation, extractGroupOperation, finalizeExtractionOperation } from './operation-names.ts';
import { groupChunks } from './plan.ts';
import { runPreset } from './options.ts';
import type { ExtractionService } from './service.ts';
import type { FinalizeOptions, FinalizeResult, GroupHarvest } from './types.ts';

export interface ExtractionOperationDeps {
  databases: DatabaseManager;
  settings(): Settings;
  llm: LlmService;
  embeddings: EmbeddingService;
  queue: QueueService;
  events: GraphEventBus;
  /** The node vector index of a database, fed with committed nodes' vectors. */
  nodeVectors?(database: string): VectorSink;
  /** A database's extraction service, which the bulk operation starts each source's run with. */
  extraction(database: string, db: Db): ExtractionService;
}

type Deps = ExtractionOperationDeps;
type Logger = HandlerContext['logger'];

/**
 * A source's extraction runs as three steps, one task each: `extraction.group` per group, then
 * `extraction.finalize` once every group ended, then `extraction.commit`. Each step checks the job's
 * status first, so a cancelled or replaced job's leftover tasks do nothing, and each is safe to run
 * again after a crash. `extraction.bulk` starts many sources' extractions (bulk-tasks.ts).
 */
export function defineExtractionOperations(registry: TaskRegistrar, deps: Deps): void {
  const sourceStep = { pausable: true, sourceIdField: 'source_id' } as const;
  defineBulkExtractionOperation(registry, deps);
  registry.define(extractGroupOperation, { queue: 'llm', ...sourceStep }, (context) => extractGroup(context, deps));
  // On the llm lane: the finalisation embeds for semantic dedup.
  registry.define(finalizeExtractionOperation, { queue: 'llm', ...sourceStep }, (context) => finalize(context, deps));
  registry.define(commitExtractionOperation, { queue: 'operations', ...sourceStep }, (context) =>
    commit(context, deps),
  );
}

const skipped = (reason: string) => ({ skipped: reason });

async function jobDomain(db: Db, job: JobRow): Promise<DomainDefinition> {
  const domain = (await domainRegistryFor(db)).get(job.domain);
  if (!domain) throw new Error(`The domain '${job.domain}' of job ${job.id} no longer exists`);
  return domain;
}

// --- extraction.group ---------------------------------------------------------------------------

/** One group's two-pass harvest, stored on its row as it finishes; the last group to end queues the finalisation. */
async function extractGroup({ task, signal, logger }: HandlerContext, deps: Deps) {
  const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
  const jobId = String(task.data.job_id);
  const groupIndex = Number(task.data.group_index);
  const job = await getJob(db, jobId);
  if (!job || (job.status !== 'queued' && job.status !== 'running')) return skipped('the job is no longer running');
  const group = await getGroup(db, jobId, groupIndex);
  if (!group || group.status === 'completed' || group.status === 'cancelled')
    return skipped(`group ${groupIndex} is ${group?.status ?? 'gone'}`);
  const finalizeIfDone = () => finalizeWhenDone(db, deps.queue, name, job, deps.settings().priorities.background);
  const started = Date.now();
  await startGroup(db, job, group, task, started, logger);
  const recorder = new AttemptRecorder(deps.settings().source_processing.attempt_retention_days > 0);
  const choice: ModelChoice = {
    provider: providerOf(task.data.provider),
    model: typeof task.data.model === 'string' ? task.data.model : undefined,
  };
  const attempt = {
    job,
    group,
    taskId: task.task_id,
    provider: choice.provider ?? deps.settings().llm.chat_provider,
    recorder,
    startedAt: started,
  };
  try {
    const context = { database: name, sourceId: job.source_id, taskId: task.task_id };
    const harvest = await harvestOf(db, job, group, { ...choice, llm: deps.llm, signal, context, recorder });
    // The attempt is written with the group's result: one transaction, one write-lock wait, both
    // statements sent at once rather than one after the other's answer.
    await db.transaction((trx) =>
      together(
        moveGroup(trx, jobId, groupIndex, ['running'], {
          status: 'completed',
          harvest: JSON.stringify(harvest),
          entity_count: harvest.entities.length,
          relationship_count: harvest.relationships.length,
          completed_at: new Date().toISOString(),
          duration_ms: Date.now() - started,
        }),
        insertAttempt(trx, { ...attempt, harvest }),
      ),
    );
    await finalizeIfDone();
    return { entities: harvest.entities.length, relationships: harvest.relationships.length };
  } catch (error) {
    const cancelled = error instanceof TaskCancelledError || signal.aborted;
    const failure = classifyError(error);
    const ended = await db.transaction(async (trx) => {
      await insertAttempt(trx, {
        ...attempt,
        error: { message: cancelled ? 'cancelled' : failure.message, type: failure.type, cancelled },
      });
      return endFailedGroup(trx, group, task, error, signal.aborted, started);
    });
    if (ended) await finalizeIfDone();
    throw error;
  }
}

/**
 * Statements of one transaction run side by side, and it ends only once every one has: a failure never
 * leaves another still running when the transaction rolls back.
 */
async function together(...statements: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(statements)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Marks the group (and, for its first group, the job) running. */
async function startGroup(db: Db, job: JobRow, group: GroupRow, task: TaskRecord, started: number, logger: Logger) {
  const at = new Date(started).toISOString();
  if (await moveJob(db, job.id, ['queued'], { status: 'running', started_at: at }))
    logger.info(
      `source ${job.source_id}: extraction started, ${job.total_groups} groups (${job.domain}, job ${job.id})`,
    );
  await moveGroup(db, job.id, group.group_index, ['pending', 'queued', 'running', 'failed'], {
    status: 'running',
    started_at: at,
    attempts: task.attempts,
    error_message: null,
  });
  await updateSource(db, job.source_id, {
    step_description: `Extracting group ${group.group_index + 1} of ${job.total_groups}`,
    last_activity_at: at,
  });
}

/** The provider a re-run's task names, when it names one. */
function providerOf(value: unknown): ChatProvider | undefined {
  return (chatProviders as readonly unknown[]).includes(value) ? (value as ChatProvider) : undefined;
}

/** The group's chunks, as the model sees them, harvested in two passes. */
async function harvestOf(
  db: Db,
  job: JobRow,
  group: GroupRow,
  call: ModelChoice & { llm: LlmService; signal: AbortSignal; context: LlmCallContext; recorder: AttemptRecorder },
): Promise<GroupHarvest> {
  const options = jobOptions(job);
  const domain = await jobDomain(db, job);
  const chunks = await groupChunks(
    db,
    job.source_id,
    group.first_chunk_index,
    group.last_chunk_index,
    options,
    domain,
    call.recorder,
  );
  return harvestGroup({
    chunks,
    domain,
    preset: runPreset(options),
    strictEdgeTypes: options.strictEdgeTypes,
    ...call,
  });
}

/**
 * Records a group's failed attempt: cancelled, failed for good (permanent, or the last attempt), or
 * queued for the retry. True when the group has ended, so the job may be finalised.
 */
async function endFailedGroup(
  db: Db,
  group: GroupRow,
  task: TaskRecord,
  error: unknown,
  aborted: boolean,
  started: number,
): Promise<boolean> {
  if (error instanceof TaskCancelledError || aborted) {
    await moveGroup(db, group.job_id, group.group_index, ['running'], {
      status: 'cancelled',
      completed_at: new Date().toISOString(),
      error_message: 'cancelled',
    });
    return true;
  }
  const failure = classifyError(error);
  const final = failure.permanent || task.attempts >= task.max_tries;
  await moveGroup(db, group.job_id, group.group_index, ['running'], {
    status: final ? 'failed' : 'queued',
    error_message: failure.message,
    duration_ms: Date.now() - started,
    ...(final ? { completed_at: new Date().toISOString() } : {}),
  });
  return final;
}

// --- extraction.finalize ------------------------------------------------------------------------

/** Aggregates the groups' harvests into the source's result, then queues its commit. */
async function finalize({ task, signal, logger }: HandlerContext, deps: Deps) {
  const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
  const job = await getJob(db, String(task.data.job_id));
  if (!job || job.status !== 'finalizing') return skipped('the job is not finalizing');
  const counts = await groupCounts(db, job.id);
  if (job.total_groups > 0 && counts.completed === 0) return skipped(await failWithoutHarvest(db, job, logger));
  const harvests = (await completedHarvests(db, job.id)).map((text) => JSON.parse(text) as GroupHarvest);
  await updateSource(db, job.source_id, {
    step_description: `Merging ${harvests.length} groups`,
    last_activity_at: new Date().toISOString(),
  });
  let result: FinalizeResult;
  try {
    result = await finalizeHarvests(db, job, harvests, (texts) =>
      deps.embeddings.embed(texts, { signal, context: { database: name, sourceId: job.source_id } }),
    );
  } catch (error) {
    await failOnLastAttempt(db, job, task, error, 'extraction');
    throw error;
  }
  if (!(await storeResult(db, job, result, harvests))) return skipped('the job changed while finalizing');
  logger.info(
    `source ${job.source_id}: extracted ${result.entities.length} entities and ${result.relationships.length} relationships`,
  );
  const metadata = { database: name, source_id: job.source_id, job_id: job.id };
  await deps.queue.submit({
    queue: 'operations',
    operation: commitExtractionOperation,
    priority: deps.settings().priorities.background,
    data: metadata,
    metadata,
  });
  return { entities: result.entities.length, relationships: result.relationships.length };
}

/** No group completed: the job fails with the first group's error, and the source shows it. Returns the message. */
async function failWithoutHarvest(db: Db, job: JobRow, logger: Logger): Promise<string> {
  const failed = (await db('extraction_groups')
    .where({ job_id: job.id })
    .whereIn('status', ['failed', 'cancelled'])
    .whereNotNull('error_message')
    .orderBy('group_index')
    .first('error_message')) as { error_message: string } | undefined;
  const message = `No extraction group completed${failed ? `: ${failed.error_message}` : ''}`;
  await moveJob(db, job.id, ['finalizing'], {
    status: 'failed',
    error_message: message,
    completed_at: new Date().toISOString(),
  });
  await updateSource(db, job.source_id, {
    status: 'error',
    error_stage: 'extraction',
    error_message: message,
    current_step: 'error',
    step_description: message,
  });
  logger.info(`source ${job.source_id}: extraction failed: ${message}`);
  return message;
}

async function finalizeHarvests(
  db: Db,
  job: JobRow,
  harvests: GroupHarvest[],
  embed: FinalizeOptions['embed'],
): Promise<FinalizeResult> {
  const options = jobOptions(job);
  const preset = runPreset(options);
  return finalizeExtraction(harvests, {
    domain: await jobDomain(db, job),
    preset,
    dedupThreshold: preset.dedupThreshold,
    dedupMode: 'semantic',
    filterStructural: options.filterStructural,
    directionCorrection: options.directionCorrection,
    protectOrphans: options.protectOrphans,
    inverseRelationships: options.inverseRelationships,
    strictEdgeTypes: options.strictEdgeTypes,
    allowSelfLoops: false,
    limits: options.limits,
    embed,
  });
}

/** Stores the result on the job, moving it to committing, and shows the source extracted; false when the job changed meanwhile. */
async function storeResult(db: Db, job: JobRow, result: FinalizeResult, harvests: GroupHarvest[]): Promise<boolean> {
  const at = new Date().toISOString();
  const moved = await moveJob(db, job.id, ['finalizing'], {
    status: 'committing',
    result: JSON.stringify(result),
    stats: JSON.stringify({
      entities: result.entities.length,
      relationships: result.relationships.length,
      finalize: result.stats,
      harvest: harvestTotals(harvests),
      relaxed: result.relaxed ?? null,
    }),
    finalized_at: at,
  });
  if (!moved) return false;
  // The source page shows its warnings: a source kept only by relaxed rules says so there.
  const source = result.relaxed ? await getSource(db, job.source_id) : undefined;
  await updateSource(
    db,
    job.source_id,
    {
      status: 'extracted',
      extraction_completed_at: at,
      current_step: 'extracted',
      step_description: `Extracted ${countOf(result.entities.length, 'entity', 'entities')} and ${countOf(result.relationships.length, 'relationship')}`,
      last_activity_at: at,
      ...(source && result.relaxed ? { loader_warnings: withLoaderWarning(source, result.relaxed) } : {}),
    },
    ['extracting'],
  );
  return true;
}

function harvestTotals(harvests: GroupHarvest[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const { stats } of harvests) {
    for (const [key, value] of Object.entries(stats))
      if (typeof value === 'number') totals[key] = (totals[key] ?? 0) + value;
  }
  return totals;
}

// --- extraction.commit --------------------------------------------------------------------------

/** Writes the job's result to the graph, embeds the nodes it touched and scores the source. */
async function commit({ task, signal, logger }: HandlerContext, deps: Deps) {
  const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
  const job = await getJob(db, String(task.data.job_id));
  if (!job || job.status !== 'committing' || !job.result) return skipped('the job is not committing');
  const started = new Date().toISOString();
  await updateSource(
    db,
    job.source_id,
    {
      status: 'committing',
      commit_started_at: started,
      current_step: 'committing',
      step_description: 'Writing to the graph',
      last_activity_at: started,
    },
    ['extracted', 'committing'],
  );
  try {
    const outcome = await commitExtraction({
      // One transaction over the whole source: on the bulk writer, requests keep reading meanwhile.
      db: await deps.databases.bulkWriter(name),
      database: name,
      sourceId: job.source_id,
      jobId: job.id,
      domain: await jobDomain(db, job),
      result: JSON.parse(job.result) as FinalizeResult,
      method: deps.settings().llm.chat_provider === 'builtin' ? 'builtin' : 'llm',
    });
    await embedCommitted(db, name, job, outcome, deps, signal, logger);
    // Scored before the source shows as committed, so its grade is there as soon as it is; a scoring failure never fails the commit.
    await qualityServiceFor(db, () => deps.settings())
      .refresh(job.source_id)
      .catch((error: unknown) => logger.warning(`source ${job.source_id}: quality score not cached: ${String(error)}`));
    await markCommitted(db, job, outcome);
    logger.info(
      `source ${job.source_id}: committed, ${outcome.nodesCreated.length} new and ${outcome.nodesMerged} merged entities, ${outcome.edgesCreated.length + outcome.edgesMerged} relationships`,
    );
    publishBulkCreations(deps.events, name, { nodes: outcome.nodesCreated, edges: outcome.edgesCreated });
    return {
      nodes_created: outcome.nodesCreated.length,
      nodes_merged: outcome.nodesMerged,
      edges_created: outcome.edgesCreated.length,
      citations: outcome.entityCitations + outcome.relationshipCitations,
    };
  } catch (error) {
    await failOnLastAttempt(db, job, task, error, 'commit');
    throw error;
  }
}

/** Embeds the nodes the commit created or changed; a failure leaves them without vectors (the sweep retries), never fails the commit. */
async function embedCommitted(
  db: Db,
  database: string,
  job: JobRow,
  outcome: CommitOutcome,
  deps: Deps,
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  await updateSource(db, job.source_id, {
    step_description: 'Embedding the committed nodes',
    last_activity_at: new Date().toISOString(),
  });
  const embedder = {
    identity: () => deps.embeddings.identity(),
    embed: (texts: string[]) =>
      deps.embeddings.embed(texts, { signal, context: { database, sourceId: job.source_id } }),
  };
  await embedNodes(
    db,
    [...outcome.nodesCreated, ...outcome.nodesUpdated],
    embedder,
    deps.nodeVectors?.(database),
  ).catch((error: unknown) =>
    logger.warning(`source ${job.source_id}: committed nodes left without embeddings: ${String(error)}`),
  );
}

/** One transaction: another process never sees the job finished while its source is still committing. */
async function markCommitted(db: Db, job: JobRow, outcome: CommitOutcome): Promise<void> {
  const at = new Date().toISOString();
  await db.transaction(async (trx) => {
    await moveJob(trx, job.id, ['committing'], { status: 'completed', completed_at: at });
    await updateSource(trx, job.source_id, {
      status: 'committed',
      commit_completed_at: at,
      current_step: 'committed',
      last_activity_at: at,
      active_task_id: null,
      step_description: `In the graph: ${outcome.nodesCreated.length} new and ${outcome.nodesMerged} merged entities, ${countOf(outcome.edgesCreated.length + outcome.edgesMerged, 'relationship')}`,
    });
  });
}

/** A finalisation or commit that will not be retried fails its job and leaves the source in `error` with the reason. */
async function failOnLastAttempt(
  db: Db,
  job: JobRow,
  task: TaskRecord,
  error: unknown,
  stage: 'extraction' | 'commit',
): Promise<void> {
  const failure = classifyError(error);
  if (!failure.permanent && task.attempts < task.max_tries) return;
  await db.transaction(async (trx) => {
    await moveJob(trx, job.id, stage === 'commit' ? ['committing'] : ['finalizing'], {
      status: 'failed',
      error_message: failure.message,
      completed_at: new Date().toISOString(),
    });
    await updateSource(trx, job.source_id, {
      status: 'error',
      error_stage: stage,
      error_message: failure.message,
      current_step: 'error',
      step_description: `${stage === 'commit' ? 'Commit' : 'Finalising the extraction'} failed: ${failure.message}`,
    });
  });
}
