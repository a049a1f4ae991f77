import type { QueueService, TaskRecord } from '@rhizome/queue';

/**
 * Queues an operations-lane task for one database. The task names the database in its data (for the
 * handler) and metadata (for cancel-by-metadata), so switching the active database afterwards cannot
 * redirect it.
 */
export function submitDatabaseTask(
  queue: QueueService,
  database: string,
  operation: string,
  data: Record<string, unknown> = {},
): Promise<TaskRecord> {
  return queue.submit({ queue: 'operations', operation, data: { database, ...data }, metadata: { database } });
}
