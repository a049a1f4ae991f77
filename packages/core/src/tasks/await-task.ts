import type { TaskStore } from '@rhizome/queue';

export type TaskOutcome =
  | { ok: true; result: unknown }
  | { ok: false; status: 'failed' | 'cancelled' | 'timeout'; error: string; errorType: string | null };

/**
 * Waits for a task to finish, for the few requests that answer with a worker's result (URL import).
 * Polls the store, so it works the same with the embedded queue and with Redis.
 */
export async function awaitTask(
  tasks: TaskStore,
  taskId: string,
  timeoutMs: number,
  pollMs = 25,
): Promise<TaskOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await tasks.get(taskId);
    if (task?.status === 'completed')
      return { ok: true, result: (await tasks.result(taskId, Date.now()))?.result ?? null };
    if (task && (task.status === 'failed' || task.status === 'cancelled')) {
      return {
        ok: false,
        status: task.status,
        error: task.error ?? `the task was ${task.status}`,
        errorType: task.error_type,
      };
    }
    if (Date.now() > deadline)
      return {
        ok: false,
        status: 'timeout',
        error: `no result within ${Math.round(timeoutMs / 1000)} s`,
        errorType: null,
      };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
