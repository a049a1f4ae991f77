import type { Settings } from '@rhizome/contracts/settings';
import { classifyError, TaskCancelledError } from '@rhizome/queue';
import type { TaskRegistrar } from '../module/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import type { Db } from '../storage/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import type { LlmService } from '../providers/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import { sourceBulkOperation, type SourceBulkJobs } from './bulk/jobs.ts';
import { indexSource, type ChunkVectorSink } from './indexing.ts';
import { domainRegistryFor } from './domains/custom.ts';
import { incomingDir } from './files.ts';
import { fetchUrlOperation, indexSourceOperation } from './operation-names.ts';
import { stageUrl } from './url-import/staging.ts';
import { updateSource } from './repo.ts';

export interface SourceOperationDeps {
  databases: DatabaseManager;
  settings(): Settings;
  embeddings: EmbeddingService;
  /** Vision for image sources. */
  llm: LlmService;
  chunkVectors(database: string): Promise<ChunkVectorSink>;
  /** Called once a source is indexed (past the gate or parked at it): extraction starts from here. */
  afterIndexed(database: string, db: Db, sourceId: string): Promise<unknown>;
  /** The bulk jobs of a database, with the service that acts on its sources. */
  bulkJobs(database: { name: string; db: Db }): SourceBulkJobs;
}

/**
 * `sources.index` (operations lane, held while processing or the source is paused): data
 * `{database, source_id}`. A failure that will not be retried — the handler's, or its worker dying a
 * second time under it — leaves the source in `error` with `error_stage: indexing` and the reason at
 * once; a retried one leaves it `indexing` for the next attempt.
 */
export function defineSourceOperations(registry: TaskRegistrar, deps: SourceOperationDeps): void {
  registry.define(
    indexSourceOperation,
    { queue: 'operations', pausable: true, sourceIdField: 'source_id' },
    async ({ task, signal, checkCancelled, logger }) => {
      const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
      const sourceId = String(task.data.source_id);
      let indexed: Awaited<ReturnType<typeof indexSource>>;
      try {
        indexed = await indexSource({
          db,
          writer: await deps.databases.bulkWriter(name),
          database: name,
          sourceId,
          paths: deps.databases.paths,
          settings: deps.settings(),
          embeddings: deps.embeddings,
          llm: deps.llm,
          vectors: await deps.chunkVectors(name),
          domains: (await domainRegistryFor(db, deps.databases.paths.root)).all(),
          signal,
          checkCancelled,
        });
      } catch (error) {
        if (error instanceof TaskCancelledError) throw error;
        const failure = classifyError(error);
        // A final failure settles the source in settleFailedIndexing, wherever it came from.
        if (!failure.permanent && task.attempts < task.max_tries)
          await updateSource(db, sourceId, {
            step_description: `Attempt ${task.attempts} failed (${failure.message}); retrying`,
          });
        throw error;
      }
      logger.info(`source ${sourceId}: indexed, ${indexed.chunks} chunks (${indexed.status})`);
      await deps.afterIndexed(name, db, sourceId);
      return indexed;
    },
    async (task, failure) => {
      const { db } = await taskDatabaseFor(deps.databases, task.data.database);
      await settleFailedIndexing(db, String(task.data.source_id), task.task_id, failure.message);
    },
  );

  // URL import: the API waits for this task's result, then creates the source from the staged file.
  registry.define(fetchUrlOperation, { queue: 'operations', retryOnTransient: false }, async ({ task, signal }) => {
    const { name } = await taskDatabaseFor(deps.databases, task.data.database);
    return stageUrl(String(task.data.url), incomingDir(deps.databases.paths, name), deps.settings(), signal);
  });

  // A bulk action on many sources (`source_bulk_jobs`): a re-run goes on from the progress last written.
  registry.define(sourceBulkOperation, { queue: 'operations' }, async ({ task, checkCancelled, logger }) => {
    const database = await taskDatabaseFor(deps.databases, task.data.database);
    const outcome = await deps.bulkJobs(database).run(String(task.data.job_id), checkCancelled);
    logger.info(
      `bulk job ${outcome.job_id}: ${outcome.succeeded} of ${outcome.total} sources, ${outcome.failed} failed`,
    );
    return outcome;
  });
}

/** The source goes to `error` with the reason, unless another task has taken it over meanwhile. */
async function settleFailedIndexing(db: Db, sourceId: string, taskId: string, reason: string): Promise<void> {
  await db('sources')
    .where({ id: sourceId })
    .where((owner) => owner.where({ active_task_id: taskId }).orWhereNull('active_task_id'))
    .update({
      status: 'error',
      error_stage: 'indexing',
      error_message: reason,
      current_step: 'error',
      step_description: `Indexing failed: ${reason}`,
      active_task_id: null,
      updated_at: new Date().toISOString(),
    });
}
