import { queueEndpoints } from '@rhizome/contracts/api/queue';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

export type Task = ResponseOf<typeof queueEndpoints.get>;

export interface TaskState {
  task: Task | null;
  /** The task's result once it completed. */
  result: unknown;
  error: string | null;
  done: boolean;
}

const pollMs = 1_000;
const finished = new Set(['completed', 'failed', 'cancelled']);

/** Follows a queued task until it ends (task events when live, a poll as the floor), then reads its result. */
export function useTask(taskId: string | null): TaskState {
  const params = { task_id: taskId ?? '' };
  // Another task's state must never show as this one's.
  const task = useEndpoint(queueEndpoints.get, taskId ? { params } : null, {
    refreshMs: (data) => (data && finished.has(data.status) ? false : pollMs),
    keepPrevious: false,
  });
  const status = task.data?.status;
  const completed = status === 'completed';
  const result = useEndpoint(queueEndpoints.result, completed ? { params } : null, { keepPrevious: false });
  const failed = status === 'failed' ? (task.data?.error ?? 'The task failed.') : null;
  const error = task.error ?? result.error ?? failed;
  return {
    task: task.data ?? null,
    result: result.data?.result,
    error,
    done: Boolean(error) || (status !== undefined && finished.has(status) && (!completed || result.data !== undefined)),
  };
}
