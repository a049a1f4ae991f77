/** The task model the queue endpoints show (docs/api-conventions.md#asynchronous-work), shared by every queue adapter. */

export const queueNames = ['operations', 'llm'] as const;
export type QueueName = (typeof queueNames)[number];

export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const terminalStatuses: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** The payload versions this build's workers understand (docs/api-conventions.md#tasks-and-queue-lanes). */
export const currentPayloadVersion = 1;
export const supportedPayloadVersions: readonly number[] = [1];

/** A lane refuses new tasks once this many are pending (docs/api-conventions.md#tasks-and-queue-lanes). */
export const maxPendingPerQueue = 10_000;

export interface TaskRecord {
  task_id: string;
  queue: QueueName;
  operation: string;
  status: TaskStatus;
  /** 0-100, higher runs first. */
  priority: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  attempts: number;
  max_tries: number;
  retry_on_crash: boolean;
  payload_version: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Public-safe message of a failed task. */
  error: string | null;
  error_type: string | null;
  /** Epoch ms before which a retried task is not picked up again. */
  run_after: number;
  /** The task a failed task was retried as, and the task a retry came from. */
  retried_to: string | null;
  retry_of: string | null;
  /** Whether pausing processing holds this task back (indexing and extraction work). */
  pausable: boolean;
  /** The source the task works on, for per-source pause; null when none. */
  source_id: string | null;
}

export interface NewTask {
  queue: QueueName;
  operation: string;
  data: Record<string, unknown>;
  priority: number;
  metadata: Record<string, unknown>;
  payload_version: number;
  max_tries: number;
  retry_on_crash: boolean;
  pausable: boolean;
  source_id: string | null;
  retry_of?: string | null;
}

export interface ClaimFilter {
  /** Operations that must not start now (processing is paused). */
  excludeOperations: ReadonlySet<string>;
  /** Sources whose tasks must not start now (the source is paused). */
  excludeSourceIds: ReadonlySet<string>;
}

export interface TaskFailure {
  message: string;
  type: string;
}

export interface ReconcileCounts {
  recovered_orphans: number;
  recovered_crashed: number;
  failed_unrecoverable: number;
}

export interface ReconcileOutcome {
  counts: ReconcileCounts;
  /** The tasks failed for good (`failed_unrecoverable`), so what they worked on can be settled. */
  failedTaskIds: string[];
}

export type CancelOutcome = 'cancelled' | 'not_found' | 'finished';

export interface LaneCounts {
  queue: QueueName;
  queued: number;
  running: number;
}

/** Thrown by enqueue when a lane already holds `maxPendingPerQueue` pending tasks. */
export class QueueFullError extends Error {
  constructor(readonly queue: QueueName) {
    super(`The ${queue} queue is full (${maxPendingPerQueue} pending tasks)`);
    this.name = 'QueueFullError';
  }
}

/** Thrown when the queue's backing store cannot be reached. */
export class QueueUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUnavailableError';
  }
}
