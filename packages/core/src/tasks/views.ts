import type { TaskRecord, TaskStore } from '@rhizome/queue';
import { describeError } from '@rhizome/contracts/errors';

/** A task as the task lists show it. */
export function taskSummary(task: TaskRecord) {
  const {
    task_id,
    queue,
    operation,
    status,
    priority,
    data,
    metadata,
    attempts,
    created_at,
    started_at,
    completed_at,
  } = task;
  return {
    task_id,
    queue,
    operation,
    status,
    priority,
    data,
    metadata,
    attempts,
    created_at,
    started_at,
    completed_at,
  };
}

/** A task with its failure, as the single-task endpoints show it. */
export function taskDetail(task: TaskRecord) {
  return { ...taskSummary(task), error: task.error, error_type: task.error_type };
}

/**
 * The lanes' figures (GET /queue/stats, the dashboard, the diagnostics bundle); `{queues: [], note}` when
 * the queue store is down (docs/api-conventions.md#tasks-and-queue-lanes).
 */
export async function queueStats(tasks: TaskStore) {
  try {
    const now = Date.now();
    const counts = await tasks.counts();
    const queues = await Promise.all(
      counts.map(async (lane) => ({
        ...lane,
        completed_recent: 0,
        failed_recent: 0,
        workers: (await tasks.workerCount(lane.queue, now)) > 0 ? 1 : 0,
      })),
    );
    return { queues, note: `${tasks.kind} queue; completed_recent and failed_recent are not tracked (always 0)` };
  } catch (error) {
    return { queues: [], note: `queue unavailable: ${describeError(error)}` };
  }
}
