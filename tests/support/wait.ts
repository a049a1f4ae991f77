/** The one way tests wait: a pause, polling until something holds, and waiting for a queued task. */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface UntilOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the timeout error: "timed out after 5000 ms waiting for <what>". */
  what?: string;
}

/**
 * Polls `probe` until it returns something other than `undefined` (or `false`) and returns that; throws
 * after `timeoutMs`. A probe that throws stops the wait with its error (e.g. a task that failed).
 */
export async function until<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: UntilOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 25, what = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export const finishedTaskStatuses = ['completed', 'failed', 'cancelled'];

export interface TaskView {
  task_id?: string;
  status: string;
  operation: string;
  error: string | null;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

type Call = (method: string, path: string) => Promise<{ status: number; body: unknown; text: string }>;

/**
 * Waits until the task reaches one of `statuses` (by default any end) and returns it with its result
 * (`null` unless completed). Throws when it ends in another status or time runs out.
 */
export async function waitForTask(
  call: Call,
  taskId: string,
  options: { statuses?: string[]; timeoutMs?: number } = {},
): Promise<TaskView & { result: unknown }> {
  const statuses = options.statuses ?? finishedTaskStatuses;
  const task = await until(
    async () => {
      const response = await call('GET', `/queue/tasks/${taskId}`);
      if (response.status !== 200) throw new Error(`GET /queue/tasks/${taskId}: ${response.status} ${response.text}`);
      const current = response.body as TaskView;
      if (statuses.includes(current.status)) return current;
      if (finishedTaskStatuses.includes(current.status))
        throw new Error(`task ${taskId} is ${current.status}, expected ${statuses.join('/')}: ${current.error ?? ''}`);
      return undefined;
    },
    { timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 20, what: `task ${taskId} to be ${statuses.join('/')}` },
  );
  const result =
    task.status === 'completed'
      ? ((await call('GET', `/queue/tasks/${taskId}/result`)).body as { result: unknown }).result
      : null;
  return { ...task, result };
}
