import type { QueueName } from '../task.ts';

/**
 * Our key layout under one prefix (default `rhizome`). The Lua scripts in scripts.ts build the same
 * names from the prefix, so keep the two in step.
 */
export class Keys {
  constructor(readonly prefix: string) {}

  /** Hash: every TaskRecord field plus seq, rank, worker_id, heartbeat_at, retain_until, held, crashes. */
  task(taskId: string): string {
    return `${this.prefix}:task:${taskId}`;
  }

  /** String: the result JSON of a completed task. */
  result(taskId: string): string {
    return `${this.task(taskId)}:result`;
  }

  /** String with a TTL: the cancel flag a running task's worker polls. */
  cancelFlag(taskId: string): string {
    return `${this.prefix}:cancel:${taskId}`;
  }

  /** Sorted set of every task id by creation sequence. */
  get allTasks(): string {
    return `${this.prefix}:tasks`;
  }

  /** Sorted set of terminal task ids by retain-until (caller's clock). */
  get retention(): string {
    return `${this.prefix}:retention`;
  }

  queue(queue: QueueName): QueueKeys {
    const base = `${this.prefix}:queue:${queue}`;
    return {
      tasks: `${base}:tasks`,
      pending: `${base}:pending`,
      queued: `${base}:queued`,
      running: `${base}:running`,
      finished: `${base}:finished`,
      deferred: `${base}:deferred`,
      limit: `${base}:limit`,
      workers: `${base}:workers`,
      wake: `${base}:wake`,
    };
  }
}

export interface QueueKeys {
  /** Sorted set of the lane's task ids by creation sequence. */
  tasks: string;
  /** Sorted set of the queued ids that are due, by rank: priority (higher first), then creation order. */
  pending: string;
  /** Set of queued ids (pending, deferred or held): the count behind QueueFullError and `counts()`. */
  queued: string;
  /** Set of running ids: the global limit's count, and what reconcile walks. */
  running: string;
  /** Sorted set of terminal ids by completed_at, for history clearing. */
  finished: string;
  /** Sorted set of queued ids due at a later run_after (caller's clock). */
  deferred: string;
  /** String: the most running tasks of the lane across every process; absent means no cap. */
  limit: string;
  /** Sorted set of worker ids by the expiry of their health mark. */
  workers: string;
  /** Pub/sub channel announcing that a task may be due. */
  wake: string;
}
