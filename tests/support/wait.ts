/** The one way tests wait: a pause, polling until something holds, and waiting for a queued task. */
import { inspect } from 'node:util';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface UntilOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the timeout error: "timed out after 5000 ms waiting for <what>"; a function is asked at the timeout. */
  what?: string | (() => string);
}

const described = (what: UntilOptions['what'] = 'a condition') => (typeof what === 'function' ? what() : what);

/**
 * Polls `probe` until it returns something other than `undefined` (or `false`) and returns that; throws
 * after `timeoutMs`. A probe that throws stops the wait with its error (e.g. a task that failed).
 */
export async function until<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: UntilOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${described(options.what)}`);
    await sleep(intervalMs);
  }
}

/**
 * Polls `probe` until `holds` accepts its value and returns that value; the timeout error shows the last
 * value seen, so a failed wait tells what it saw instead.
 */
export async function untilHolds<T>(
  probe: () => Promise<T> | T,
  holds: (value: T) => boolean,
  options: UntilOptions = {},
): Promise<T> {
  let last: { value: T } | undefined;
  const seen = await until(
    async () => {
      last = { value: await probe() };
      return holds(last.value) && last;
    },
    {
      ...options,
      what: () => `${described(options.what)} (last value: ${last ? inspect(last.value) : 'none'})`,
    },
  );
  return seen.value;
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
