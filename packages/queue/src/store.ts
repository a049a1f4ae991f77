import type {
  CancelOutcome,
  ClaimFilter,
  LaneCounts,
  NewTask,
  QueueName,
  ReconcileOutcome,
  TaskFailure,
  TaskRecord,
} from './task.ts';

/**
 * What a queue backend provides. Every adapter (embedded SQLite, Redis/Valkey, PostgreSQL) implements it
 * and pass one contract suite; the worker runtime and the HTTP layer use nothing else. Every time is
 * epoch milliseconds from the clock the caller passes, so tests control expiry and backoff.
 *
 * Writes from a worker are guarded by its claim: `complete`, `fail`, `release` and `heartbeat` change a
 * task only while it is still `running` under that worker's claim, so a task cancelled or reclaimed
 * meanwhile keeps its newer state.
 */
export interface TaskStore {
  readonly kind: 'embedded' | 'redis' | 'postgres';

  /** Adds a queued task; throws QueueFullError at the pending limit, QueueUnavailableError when down. */
  enqueue(task: NewTask, now: number): Promise<TaskRecord>;
  get(taskId: string): Promise<TaskRecord | null>;
  /** Newest first. `total` counts every task of the selected queues. */
  list(options: {
    queues?: QueueName[];
    offset: number;
    limit: number;
  }): Promise<{ tasks: TaskRecord[]; total: number }>;
  counts(): Promise<LaneCounts[]>;
  /** The stored result while it has not expired at `now`; null when missing, expired or failed. */
  result(taskId: string, now: number): Promise<{ result: unknown } | null>;
  /** Marks a queued or running task cancelled at once and raises its cancel flag. */
  cancel(taskId: string, now: number): Promise<CancelOutcome>;
  /** Cancels every queued and running task of a queue (or all), optionally only those whose metadata matches. */
  cancelMatching(filter: { queue?: QueueName; metadata?: Record<string, unknown> }, now: number): Promise<number>;
  /** Removes completed, failed and cancelled tasks finished before `finishedBefore`. */
  clearHistory(filter: { queue?: QueueName; finishedBefore: number }): Promise<number>;
  /** Records that `taskId` was retried as `newTaskId`. */
  markRetried(taskId: string, newTaskId: string): Promise<void>;
  /** Drops terminal tasks whose retention ended before `now` (results and post-mortems). */
  purgeExpired(now: number): Promise<number>;

  /** Moves up to `max` due tasks of `queue` to running for `workerId`, highest priority then oldest first. */
  claim(queue: QueueName, max: number, workerId: string, filter: ClaimFilter, now: number): Promise<TaskRecord[]>;
  heartbeat(taskIds: string[], workerId: string, now: number): Promise<void>;
  /** True once the task was cancelled, and when its record no longer exists. */
  isCancelRequested(taskId: string): Promise<boolean>;
  complete(taskId: string, workerId: string, result: unknown, retainUntil: number, now: number): Promise<boolean>;
  /** `retryAt` set: back to queued, due then; null: failed for good, kept until `retainUntil`. */
  fail(
    taskId: string,
    workerId: string,
    failure: TaskFailure,
    retryAt: number | null,
    retainUntil: number,
    now: number,
  ): Promise<boolean>;
  /** Hands a claimed task back untouched (attempt not counted), due again at `runAfter`. */
  release(taskId: string, workerId: string, runAfter: number): Promise<void>;

  /**
   * Running tasks whose worker is gone (no heartbeat within `heartbeatTimeoutMs`, or a local worker
   * process that no longer exists) go back to queued when `retry_on_crash` and attempts remain, else
   * fail with error_type `worker_crashed` (`crashed_twice` at a second death); running entries with no task
   * behind them are removed.
   */
  reconcile(queue: QueueName | undefined, heartbeatTimeoutMs: number, now: number): Promise<ReconcileOutcome>;
  /** A worker announces it serves `queue`; the mark expires after `ttlMs` unless renewed. */
  reportWorker(queue: QueueName, workerId: string, ttlMs: number, now: number): Promise<void>;
  workerCount(queue: QueueName, now: number): Promise<number>;
  /** Resolves when a task may have become due on `queue` (new task, retry, release), or after `timeoutMs`. */
  waitForWork(queue: QueueName, timeoutMs: number): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
