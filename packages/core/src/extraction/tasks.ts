import type { Settings } from '@rhizome/contracts/settings';
import { countOf } from '@rhizome/contracts/wording';
import { classifyError, TaskCancelledError, type QueueService, type TaskRecord } from '@rhizome/queue';
import type { TaskRegistrar } from '../platform/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import { publishBulkCreations, type GraphEventBus } from '../graph/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import type { LlmService } from '../providers/index.ts';
import { domainRegistryFor } from '../sources/index.ts';
import type { DomainDefinition } from '../sources/index.ts';
import { updateSource } from '../sources/index.ts';
import { QualityService } from '../quality/index.ts';
import type { VectorSink } from '../search/index.ts';
import type { Db } from '../storage/index.ts';
import { defineBulkExtractionOperation } from './bulk.ts';
import { commitExtraction } from './commit/commit.ts';
import { embedNodes } from './commit/node-vectors.ts';
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
  type JobRow,
} from './jobs.ts';
import { commitExtractionOperation, extractGroupOperation, finalizeExtractionOperation } from './operation-names.ts';
import { groupChunks } from './plan.ts';
import { runPreset } from './options.ts';
import type { ExtractionService } from './service.ts';
import type { FinalizeResult, GroupHarvest } from './types.ts';

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

const skipped = (reason: string) => ({ skipped: reason });

async function jobDomain(db: Db, job: JobRow): Promise<DomainDefinition> {
  const domain = (await domainRegistryFor(db)).get(job.domain);
  if (!domain) throw new Error(`The domain '${job.domain}' of job ${job.id} no longer exists`);
  return domain;
}

/**
 * `extraction.group` (llm lane, pausable): one group's two-pass harvest, stored on its row as it
 * finishes; the last group to end queues the finalisation. `extraction.finalize` (llm lane: it embeds
 * for semantic dedup) aggregates the harvests into the source's result; `extraction.commit`
 * (operations lane) writes it to the graph. Each step checks the job's status first, so a cancelled or
 * replaced job's leftover tasks do nothing, and each is safe to run again after a crash.
 */
export function defineExtractionOperations(registry: TaskRegistrar, deps: ExtractionOperationDeps): void {
  const finalizeIfDone = (db: Db, database: string, job: JobRow) =>
    finalizeWhenDone(db, deps.queue, database, job, deps.settings().priorities.background);
  defineBulkExtractionOperation(registry, deps);

  registry.define(
    extractGroupOperation,
    { queue: 'llm', pausable: true, sourceIdField: 'source_id' },
    async ({ task, signal, logger }) => {
      const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
      const jobId = String(task.data.job_id);
      const groupIndex = Number(task.data.group_index);
      const job = await getJob(db, jobId);
      if (!job || (job.status !== 'queued' && job.status !== 'running')) return skipped('the job is no longer running');
      const group = await getGroup(db, jobId, groupIndex);
      if (!group || group.status === 'completed' || group.status === 'cancelled')
        return skipped(`group ${groupIndex} is ${group?.status ?? 'gone'}`);
      const started = Date.now();
      const at = new Date(started).toISOString();
      if (await moveJob(db, jobId, ['queued'], { status: 'running', started_at: at }))
        logger.info(
          `source ${job.source_id}: extraction started, ${job.total_groups} groups (${job.domain}, job ${jobId})`,
        );
      await moveGroup(db, jobId, groupIndex, ['pending', 'queued', 'running', 'failed'], {
        status: 'running',
        started_at: at,
        attempts: task.attempts,
        error_message: null,
      });
      await updateSource(db, job.source_id, {
        step_description: `Extracting group ${groupIndex + 1} of ${job.total_groups}`,
        last_activity_at: at,
      });
      try {
        const options = jobOptions(job);
        const domain = await jobDomain(db, job);
        const chunks = await groupChunks(
          db,
          job.source_id,
          group.first_chunk_index,
          group.last_chunk_index,
          options,
          domain,
        );
        const harvest = await harvestGroup({
          chunks,
          domain,
          preset: runPreset(options),
          strictEdgeTypes: options.strictEdgeTypes,
          llm: deps.llm,
          signal,
          context: { database: name, sourceId: job.source_id, taskId: task.task_id },
        });
        await moveGroup(db, jobId, groupIndex, ['running'], {
          status: 'completed',
          harvest: JSON.stringify(harvest),
          entity_count: harvest.entities.length,
          relationship_count: harvest.relationships.length,
          completed_at: new Date().toISOString(),
          duration_ms: Date.now() - started,
        });
        await finalizeIfDone(db, name, job);
        return { entities: harvest.entities.length, relationships: harvest.relationships.length };
      } catch (error) {
        if (error instanceof TaskCancelledError || signal.aborted) {
          await moveGroup(db, jobId, groupIndex, ['running'], {
            status: 'cancelled',
            completed_at: new Date().toISOString(),
            error_message: 'cancelled',
          });
          await finalizeIfDone(db, name, job);
          throw error;
        }
        const failure = classifyError(error);
        const final = failure.permanent || task.attempts >= task.max_tries;
        await moveGroup(db, jobId, groupIndex, ['running'], {
          status: final ? 'failed' : 'queued',
          error_message: failure.message,
          duration_ms: Date.now() - started,
          ...(final ? { completed_at: new Date().toISOString() } : {}),
        });
        if (final) await finalizeIfDone(db, name, job);
        throw error;
      }
    },
  );

  registry.define(
    finalizeExtractionOperation,
    { queue: 'llm', pausable: true, sourceIdField: 'source_id' },
    async ({ task, signal, logger }) => {
      const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
      const job = await getJob(db, String(task.data.job_id));
      if (!job || job.status !== 'finalizing') return skipped('the job is not finalizing');
      const counts = await groupCounts(db, job.id);
      if (job.total_groups > 0 && counts.completed === 0) {
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
        return skipped(message);
      }
      const harvests = (await completedHarvests(db, job.id)).map((text) => JSON.parse(text) as GroupHarvest);
      await updateSource(db, job.source_id, {
        step_description: `Merging ${harvests.length} groups`,
        last_activity_at: new Date().toISOString(),
      });
      let result: FinalizeResult;
      try {
        const options = jobOptions(job);
        const preset = runPreset(options);
        result = await finalizeExtraction(harvests, {
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
          embed: (texts) =>
            deps.embeddings.embed(texts, { signal, context: { database: name, sourceId: job.source_id } }),
        });
      } catch (error) {
        await failOnLastAttempt(db, job, task, error, 'extraction');
        throw error;
      }
      const at = new Date().toISOString();
      if (
        !(await moveJob(db, job.id, ['finalizing'], {
          status: 'committing',
          result: JSON.stringify(result),
          stats: JSON.stringify({
            entities: result.entities.length,
            relationships: result.relationships.length,
            finalize: result.stats,
            harvest: harvestTotals(harvests),
          }),
          finalized_at: at,
        }))
      ) {
        return skipped('the job changed while finalizing');
      }
      await updateSource(
        db,
        job.source_id,
        {
          status: 'extracted',
          extraction_completed_at: at,
          current_step: 'extracted',
          step_description: `Extracted ${countOf(result.entities.length, 'entity', 'entities')} and ${countOf(result.relationships.length, 'relationship')}`,
          last_activity_at: at,
        },
        ['extracting'],
      );
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
    },
  );

  registry.define(
    commitExtractionOperation,
    { queue: 'operations', pausable: true, sourceIdField: 'source_id' },
    async ({ task, signal, logger }) => {
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
          db,
          database: name,
          sourceId: job.source_id,
          jobId: job.id,
          domain: await jobDomain(db, job),
          result: JSON.parse(job.result) as FinalizeResult,
          method: deps.settings().llm.chat_provider === 'builtin' ? 'builtin' : 'llm',
        });
        await updateSource(db, job.source_id, {
          step_description: 'Embedding the committed nodes',
          last_activity_at: new Date().toISOString(),
        });
        const embedder = {
          identity: () => deps.embeddings.identity(),
          embed: (texts: string[]) =>
            deps.embeddings.embed(texts, { signal, context: { database: name, sourceId: job.source_id } }),
        };
        await embedNodes(
          db,
          [...outcome.nodesCreated, ...outcome.nodesUpdated],
          embedder,
          deps.nodeVectors?.(name),
        ).catch((error: unknown) =>
          logger.warning(`source ${job.source_id}: committed nodes left without embeddings: ${String(error)}`),
        );
        // Scored before the source shows as committed, so its grade is there as soon as it is; a scoring failure never fails the commit.
        await new QualityService({ db, settings: () => deps.settings() })
          .refresh(job.source_id)
          .catch((error: unknown) =>
            logger.warning(`source ${job.source_id}: quality score not cached: ${String(error)}`),
          );
        const at = new Date().toISOString();
        // One transaction: another process never sees the job finished while its source is still committing.
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
    },
  );
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

function harvestTotals(harvests: GroupHarvest[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const { stats } of harvests) {
    for (const [key, value] of Object.entries(stats))
      if (typeof value === 'number') totals[key] = (totals[key] ?? 0) + value;
  }
  return totals;
}
