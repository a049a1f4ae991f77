import { crashFailures } from './crashes.ts';
import { backoffMs, classifyError, PermanentTaskError, TaskCancelledError } from './errors.ts';
import { newWorkerId } from './ids.ts';
import type { HandlerContext, OperationRegistry, QueueLogger, TaskHandler } from './registry.ts';
import type { TaskStore } from './store.ts';
import { runInTaskScope } from './task-scope.ts';
import {
  supportedPayloadVersions,
  type ClaimFilter,
  type QueueName,
  type ReconcileCounts,
  type TaskFailure,
  type TaskRecord,
} from './task.ts';
import { describeError } from '@rhizome/contracts/errors';

export interface RuntimeSettings {
  concurrency: Record<QueueName, number>;
  /** Retention of results after completion, per lane. */
  resultTtlMs: Record<QueueName, number>;
  /** Retention of a failed task's post-mortem. */
  failedTtlMs: number;
}

export interface WorkerRuntimeOptions {
  store: TaskStore;
  registry: OperationRegistry;
  settings: () => RuntimeSettings;
  /** Which tasks may not start now (system or per-source pause). */
  pauseFilter: () => ClaimFilter | Promise<ClaimFilter>;
  logger: QueueLogger;
  clock?: () => number;
  /** Retry delay after a failed attempt; by default exponential with jitter (docs/api-conventions.md#tasks-and-queue-lanes). */
  backoff?: (attempt: number) => number;
  heartbeatIntervalMs?: number;
  heartbeatTimeoutMs?: number;
  reconcileIntervalMs?: number;
  /** How long a lane sleeps when nothing is due (new work wakes it earlier). */
  idleWaitMs?: number;
  onTaskFailed?: (task: TaskRecord, failure: { message: string; type: string }) => void;
  onRecovered?: (counts: ReconcileCounts) => void;
}

interface Running {
  task: TaskRecord;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Runs queued tasks: one loop per lane claims up to the lane's concurrency, runs each task's handler,
 * records the outcome, retries transient failures with backoff, heartbeats while running, cancels
 * cooperatively and reconciles tasks abandoned by dead workers.
 */
export class WorkerRuntime {
  readonly workerId = newWorkerId();
  private readonly running = new Map<string, Running>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly loops: Promise<void>[] = [];
  private stopping = false;
  private pokes = new Set<() => void>();
  private readonly clock: () => number;

  constructor(private readonly options: WorkerRuntimeOptions) {
    this.clock = options.clock ?? Date.now;
  }

  private get heartbeatTimeoutMs(): number {
    return this.options.heartbeatTimeoutMs ?? 30_000;
  }

  start(queues: readonly QueueName[] = ['operations', 'llm']): void {
    const heartbeatMs = this.options.heartbeatIntervalMs ?? 10_000;
    this.timers.push(setInterval(() => void this.beat(queues, heartbeatMs * 3), heartbeatMs));
    this.timers.push(setInterval(() => void this.reconcile(), this.options.reconcileIntervalMs ?? 30_000));
    void this.beat(queues, heartbeatMs * 3);
    this.loops.push(this.reconcile());
    for (const queue of queues) this.loops.push(this.lane(queue));
  }

  /** Stops claiming, lets running tasks finish for up to `graceMs`, then cancels the rest. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    this.poke();
    for (const timer of this.timers) clearInterval(timer);
    const drained = Promise.all([...this.running.values()].map((entry) => entry.done));
    const timeout = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([drained, timeout]);
    for (const entry of this.running.values()) entry.abort.abort();
    await Promise.all(this.loops);
  }

  /** Makes every lane look for work now (e.g. processing was resumed: held tasks may start). */
  poke(): void {
    const waiting = this.pokes;
    this.pokes = new Set();
    for (const resolve of waiting) resolve();
  }

  private nextPoke(): Promise<void> {
    return new Promise((resolve) => this.pokes.add(resolve));
  }

  runningCount(queue?: QueueName): number {
    return [...this.running.values()].filter((entry) => !queue || entry.task.queue === queue).length;
  }

  private async lane(queue: QueueName): Promise<void> {
    const { store } = this.options;
    while (!this.stopping) {
      try {
        // One macrotask turn lets tasks finishing together free their slots, so one claim fills them all.
        await new Promise((resolve) => setImmediate(resolve));
        const free = this.options.settings().concurrency[queue] - this.runningCount(queue);
        const claimed =
          free > 0 ? await store.claim(queue, free, this.workerId, await this.options.pauseFilter(), this.clock()) : [];
        for (const task of claimed) this.run(task);
        if (claimed.length === 0 || claimed.length === free) {
          await Promise.race([
            store.waitForWork(queue, this.options.idleWaitMs ?? 500),
            this.nextFinish(queue),
            this.nextPoke(),
          ]);
        }
      } catch (error) {
        if (this.stopping) break;
        this.options.logger.error(`queue ${queue}: ${describeError(error)}`);
        await sleep(1000);
      }
    }
  }

  private nextFinish(queue: QueueName): Promise<void> {
    const mine = [...this.running.values()].filter((entry) => entry.task.queue === queue).map((entry) => entry.done);
    return mine.length ? Promise.race(mine) : new Promise(() => undefined);
  }

  private run(task: TaskRecord): void {
    const abort = new AbortController();
    const entry: Running = { task, abort, done: Promise.resolve() };
    entry.done = this.execute(task, abort).finally(() => this.running.delete(task.task_id));
    this.running.set(task.task_id, entry);
  }

  private async execute(task: TaskRecord, abort: AbortController): Promise<void> {
    const { store, registry, logger } = this.options;
    const operation = registry.get(task.operation);
    try {
      if (!supportedPayloadVersions.includes(task.payload_version)) {
        logger.error(
          `task ${task.task_id} (${task.operation}) failed: task_unsupported_payload_version ${task.payload_version}`,
        );
        return await this.failFor(task, {
          message: `Unsupported payload version ${task.payload_version}`,
          type: 'task_unsupported_payload_version',
        });
      }
      if (!operation?.handler) {
        return await this.failFor(task, {
          message: `No handler for operation '${task.operation}'`,
          type: 'unknown_operation',
        });
      }
      const checkCancelled = async () => {
        if (abort.signal.aborted || (await store.isCancelRequested(task.task_id))) {
          abort.abort();
          throw new TaskCancelledError();
        }
      };
      const result = await this.contained(
        operation.handler,
        { task, signal: abort.signal, checkCancelled, logger },
        abort,
      );
      await store.complete(
        task.task_id,
        this.workerId,
        result,
        this.clock() + this.options.settings().resultTtlMs[task.queue],
        this.clock(),
      );
    } catch (error) {
      if (error instanceof TaskCancelledError || (await store.isCancelRequested(task.task_id))) return;
      const failure = classifyError(error);
      const retryable =
        !failure.permanent && operation?.options.retryOnTransient !== false && task.attempts < task.max_tries;
      if (retryable) {
        const retryAt = this.clock() + (this.options.backoff ?? backoffMs)(task.attempts);
        await store.fail(task.task_id, this.workerId, failure, retryAt, 0, this.clock());
        logger.warning(
          `task ${task.task_id} (${task.operation}) attempt ${task.attempts} failed, retrying: ${failure.message}`,
        );
      } else {
        await this.failFor(task, failure);
      }
    }
  }

  /**
   * Runs a handler so that an error escaping it (a callback's throw, an unhandled 'error' event or
   * rejection of something it started) fails this task at once, permanently — it is a defect a retry
   * repeats — instead of ending the process. Its handler is aborted; it may linger, but its claim is gone.
   */
  private contained(handler: TaskHandler, context: HandlerContext, abort: AbortController): Promise<unknown> {
    const { task } = context;
    let settled = false;
    let escape: (error: Error) => void = () => undefined;
    const escaped = new Promise<never>((_resolve, reject) => (escape = reject));
    const onEscape = (error: unknown) => {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      if (settled) {
        this.options.logger.warning(`task ${task.task_id} (${task.operation}): error after it finished: ${detail}`);
        return;
      }
      this.options.logger.error(`task ${task.task_id} (${task.operation}): uncaught error in its handler: ${detail}`);
      abort.abort();
      escape(new PermanentTaskError(describeError(error), 'uncaught_error'));
    };
    return Promise.race([runInTaskScope(onEscape, () => handler(context)), escaped]).finally(() => (settled = true));
  }

  private async failFor(task: TaskRecord, failure: TaskFailure): Promise<void> {
    const recorded = await this.options.store.fail(
      task.task_id,
      this.workerId,
      failure,
      null,
      this.clock() + this.options.settings().failedTtlMs,
      this.clock(),
    );
    if (!recorded) return;
    this.options.logger.error(`task ${task.task_id} (${task.operation}) failed: ${failure.type}: ${failure.message}`);
    this.options.onTaskFailed?.(task, failure);
    await this.settle(task, failure);
  }

  /** Lets the task's operation settle what it worked on now, rather than leave it for a stall scan. */
  private async settle(task: TaskRecord, failure: TaskFailure): Promise<void> {
    const onFailed = this.options.registry.get(task.operation)?.onFailed;
    try {
      await onFailed?.(task, failure);
    } catch (error) {
      this.options.logger.warning(
        `task ${task.task_id} (${task.operation}): settling its failure: ${describeError(error)}`,
      );
    }
  }

  private async beat(queues: readonly QueueName[], ttlMs: number): Promise<void> {
    const { store } = this.options;
    try {
      const now = this.clock();
      await store.heartbeat([...this.running.keys()], this.workerId, now);
      for (const queue of queues) await store.reportWorker(queue, this.workerId, ttlMs, now);
      // Cancellation of a running task reaches its handler through the abort signal as well.
      for (const entry of this.running.values()) {
        if (await store.isCancelRequested(entry.task.task_id)) entry.abort.abort();
      }
    } catch (error) {
      this.options.logger.warning(`heartbeat failed: ${describeError(error)}`);
    }
  }

  private async reconcile(): Promise<void> {
    try {
      const now = this.clock();
      const { counts, failedTaskIds } = await this.options.store.reconcile(undefined, this.heartbeatTimeoutMs, now);
      for (const taskId of failedTaskIds) {
        const task = await this.options.store.get(taskId);
        if (task?.status === 'failed')
          await this.settle(task, {
            message: task.error ?? '',
            type: task.error_type ?? crashFailures.unrecoverable.type,
          });
      }
      await this.options.store.purgeExpired(now);
      if (counts.recovered_crashed || counts.failed_unrecoverable || counts.recovered_orphans) {
        this.options.logger.warning(`reconciled abandoned tasks: ${JSON.stringify(counts)}`);
        this.options.onRecovered?.(counts);
      }
    } catch (error) {
      this.options.logger.warning(`reconcile failed: ${describeError(error)}`);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
