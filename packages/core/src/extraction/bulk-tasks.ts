import { DomainError } from '@rhizome/contracts/errors';
import { TaskCancelledError, type TaskRecord } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { TaskRegistrar } from '../module/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import type { Db } from '../storage/index.ts';
import { bulkExtractionOperation, type BulkExtractionResult } from './bulk.ts';
import type { ExtractionRequest } from './options.ts';
import type { ExtractionService } from './service.ts';

export interface BulkExtractionDeps {
  databases: DatabaseManager;
  extraction(database: string, db: Db): ExtractionService;
}

/**
 * Starts each source's extraction in turn (each then runs as its own queued job); a source that cannot
 * start (nothing to extract, changed meanwhile) is listed as skipped and the run goes on. Cancelling the
 * task stops starting further sources.
 */
export function defineBulkExtractionOperation(registry: TaskRegistrar, deps: BulkExtractionDeps): void {
  registry.define(
    bulkExtractionOperation,
    { queue: 'operations', retryOnCrash: true },
    async ({ task, checkCancelled }) => {
      const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
      const service = deps.extraction(name, db);
      const {
        source_ids: ids,
        force,
        options,
      } = task.data as { source_ids: string[]; force: boolean; options: ExtractionRequest };
      const result: BulkExtractionResult = { requested: ids.length, started: 0, skipped: [] };
      for (const id of ids) {
        await checkCancelled();
        // Retried after a crash: what this run already started is not started again.
        if (await startedSince(db, id, task)) {
          result.started += 1;
          continue;
        }
        if (!force && (await service.activeJob(id))) {
          result.skipped.push({ source_id: id, reason: 'its extraction is running' });
          continue;
        }
        try {
          // `force` here lets a committed or failed source start again; running ones were skipped above unless asked.
          const outcome = await service.start(id, { ...options, force: true });
          if (outcome.status === 'queued') result.started += 1;
          else result.skipped.push({ source_id: id, reason: outcome.message });
        } catch (error) {
          if (error instanceof TaskCancelledError || !(error instanceof DomainError)) throw error;
          result.skipped.push({ source_id: id, reason: error.message });
        }
      }
      return result;
    },
  );
}

async function startedSince(db: Db, sourceId: string, task: TaskRecord): Promise<boolean> {
  return Boolean(
    await db('extraction_jobs').where({ source_id: sourceId }).where('created_at', '>=', task.created_at).first('id'),
  );
}
