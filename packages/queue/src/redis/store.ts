import { isDeepStrictEqual } from 'node:util';
import type { Redis } from 'ioredis';
import { crashFailures, crashLimit, crashedTwicePostMortem } from '../crashes.ts';
import { isDeadLocalWorker, newTaskId } from '../ids.ts';
import type { TaskStore } from '../store.ts';
import {
  maxPendingPerQueue,
  queueNames,
  QueueFullError,
  type CancelOutcome,
  type ClaimFilter,
  type LaneCounts,
  type NewTask,
  type QueueName,
  type ReconcileCounts,
  type ReconcileOutcome,
  type TaskFailure,
  type TaskRecord,
} from '../task.ts';
import { MicroBatch } from '../batch.ts';
import { openConnection, unavailable } from './connection.ts';
import { Keys } from './keys.ts';
import { enqueueArgs, queuedRecord, toRecord, type TaskHash } from './records.ts';
import {
  cancelScript,
  claimScript,
  completeScript,
  deleteScript,
  enqueueScript,
  failScript,
  heartbeatScript,
  markRetriedScript,
  recoverScript,
  releaseScript,
} from './scripts.ts';
import { WakeChannel } from './wake.ts';

export interface RedisStoreOptions {
  /** Namespace of every key (default `rhizome`). */
  prefix?: string;
  /**
   * A cap on running tasks of a lane across every process (the llm lane's 1), read at every claim and
   * checked inside the claim script against the lane's running set. The value is also stored in the
   * lane's `limit` key (at connect and whenever it changes), which claims of processes without this
   * option obey. Undefined leaves the stored setting as it is.
   */
  globalLimit?: (queue: QueueName) => number | undefined;
}

/** Post-mortem retention of tasks failed by the reconciler (failed_result_ttl's default: 14 days). */
const failedRetentionMs = 14 * 24 * 3600 * 1000;
/** Hashes and results of finished tasks also expire this long after their retention, should no purge run. */
const expiryMarginMs = 24 * 3600 * 1000;
/** The cancel flag outlives any task run. */
const cancelFlagTtlMs = 24 * 3600 * 1000;
/** Pending tasks one filtered claim may look at beyond `max` (excluded ones move to their held group). */
const claimScanSlack = 1000;
/** Deferred tasks one claim returns to the lane at most. */
const promoteBatch = 1000;
const deleteBatch = 500;
/** Enqueues or completions gathered into one script call at most. */
const batchSize = 200;

/**
 * The Redis/Valkey adapter: the task hash is the source of truth of everything the API shows; per lane
 * a `pending` sorted set orders the due tasks by priority, then creation, and one Lua script per call
 * (or per batch of calls) moves tasks between the lane's sets, so a claim, a completion or a cancel is
 * atomic and a lane's running tasks are capped across processes. docs/queue-redis-mapping.md has the
 * layout; docs/decisions/0007-redis-queue-layout.md why it is ours and not bullmq's.
 */
export class RedisTaskStore implements TaskStore {
  readonly kind = 'redis';

  private readonly enqueues = new MicroBatch(
    (requests: { task: NewTask; now: number }[]) => this.enqueueBatch(requests),
    batchSize,
  );
  private readonly completions = new MicroBatch((requests: Completion[]) => this.completeBatch(requests), batchSize);
  private turn: Promise<void> | null = null;

  private constructor(
    private readonly client: Redis,
    private readonly keys: Keys,
    private readonly wakes: WakeChannel,
    private readonly globalLimit: RedisStoreOptions['globalLimit'],
  ) {}

  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisTaskStore> {
    const client = await openConnection(url);
    const keys = new Keys(options.prefix ?? 'rhizome');
    try {
      for (const queue of queueNames) {
        const limit = options.globalLimit?.(queue);
        if (limit !== undefined) await client.set(keys.queue(queue).limit, limit);
      }
      return new RedisTaskStore(client, keys, await WakeChannel.open(client, keys), options.globalLimit);
    } catch (error) {
      client.disconnect();
      throw unavailable(error);
    }
  }

  enqueue(task: NewTask, now: number): Promise<TaskRecord> {
    return this.guarded(async () => {
      await this.nextTurn();
      return this.enqueues.push({ task, now });
    });
  }

  get(taskId: string): Promise<TaskRecord | null> {
    return this.guarded(async () => {
      const hash = await this.client.hgetall(this.keys.task(taskId));
      return hash.task_id ? toRecord(hash) : null;
    });
  }

  list(options: {
    queues?: QueueName[];
    offset: number;
    limit: number;
  }): Promise<{ tasks: TaskRecord[]; total: number }> {
    return this.guarded(async () => {
      const selected = new Set(options.queues ?? queueNames);
      if (selected.size === 0) return { tasks: [], total: 0 };
      const index = selected.size === 1 ? this.keys.queue([...selected][0]).tasks : this.keys.allTasks;
      const [total, ids] = await Promise.all([
        this.client.zcard(index),
        options.limit > 0 ? this.client.zrevrange(index, options.offset, options.offset + options.limit - 1) : [],
      ]);
      const hashes = await Promise.all(ids.map((taskId) => this.client.hgetall(this.keys.task(taskId))));
      // A hash past its expiry safety net is gone before purgeExpired dropped its index entry.
      return { tasks: hashes.filter((hash) => hash.task_id).map(toRecord), total };
    });
  }

  counts(): Promise<LaneCounts[]> {
    return this.guarded(() =>
      Promise.all(
        queueNames.map(async (queue) => {
          const keys = this.keys.queue(queue);
          const [queued, running] = await Promise.all([
            this.client.scard(keys.queued),
            this.client.scard(keys.running),
          ]);
          return { queue, queued, running };
        }),
      ),
    );
  }

  result(taskId: string, now: number): Promise<{ result: unknown } | null> {
    return this.guarded(async () => {
      const [[status, retainUntil], result] = await Promise.all([
        this.client.hmget(this.keys.task(taskId), 'status', 'retain_until'),
        this.client.get(this.keys.result(taskId)),
      ]);
      if (status !== 'completed' || retainUntil === null || Number(retainUntil) <= now || result === null) return null;
      return { result: JSON.parse(result) };
    });
  }

  cancel(taskId: string, now: number): Promise<CancelOutcome> {
    return this.guarded(async () => {
      const [outcome] = await this.cancelIds([taskId], now);
      return outcome;
    });
  }

  cancelMatching(filter: { queue?: QueueName; metadata?: Record<string, unknown> }, now: number): Promise<number> {
    return this.guarded(async () => {
      const queues = filter.queue ? [filter.queue] : queueNames;
      const active = await Promise.all(
        queues.flatMap((queue) => [
          this.client.smembers(this.keys.queue(queue).queued),
          this.client.smembers(this.keys.queue(queue).running),
        ]),
      );
      let candidates = active.flat();
      const wanted = Object.entries(filter.metadata ?? {});
      if (wanted.length > 0) {
        const metadata = await Promise.all(
          candidates.map((taskId) => this.client.hget(this.keys.task(taskId), 'metadata')),
        );
        candidates = candidates.filter((_, index) => matches(metadata[index], wanted));
      }
      let cancelled = 0;
      for (let start = 0; start < candidates.length; start += deleteBatch) {
        const outcomes = await this.cancelIds(candidates.slice(start, start + deleteBatch), now);
        cancelled += outcomes.filter((outcome) => outcome === 'cancelled').length;
      }
      return cancelled;
    });
  }

  clearHistory(filter: { queue?: QueueName; finishedBefore: number }): Promise<number> {
    return this.guarded(async () => {
      let cleared = 0;
      for (const queue of filter.queue ? [filter.queue] : queueNames) {
        cleared += await this.deleteWhileAny(() =>
          this.client.zrangebyscore(
            this.keys.queue(queue).finished,
            '-inf',
            `(${filter.finishedBefore}`,
            'LIMIT',
            0,
            deleteBatch,
          ),
        );
      }
      return cleared;
    });
  }

  markRetried(taskId: string, newTaskId: string): Promise<void> {
    return this.guarded(async () => {
      await markRetriedScript.run(this.client, [this.keys.prefix, taskId, newTaskId]);
    });
  }

  purgeExpired(now: number): Promise<number> {
    return this.guarded(() =>
      this.deleteWhileAny(() => this.client.zrangebyscore(this.keys.retention, '-inf', now, 'LIMIT', 0, deleteBatch)),
    );
  }

  claim(queue: QueueName, max: number, workerId: string, filter: ClaimFilter, now: number): Promise<TaskRecord[]> {
    return this.guarded(async () => {
      if (max <= 0) return [];
      const [more, ...hashes] = (await claimScript.run(this.client, [
        this.keys.prefix,
        queue,
        workerId,
        now,
        max,
        this.globalLimit?.(queue) ?? '',
        promoteBatch,
        max + claimScanSlack,
        filter.excludeOperations.size,
        ...filter.excludeOperations,
        filter.excludeSourceIds.size,
        ...filter.excludeSourceIds,
      ])) as [number, ...string[]];
      // The scan budget ran out on tasks that cannot start now; come back for what may be behind them.
      if (more) this.wake(queue);
      return hashes.map((hash) => toRecord(JSON.parse(hash) as TaskHash));
    });
  }

  heartbeat(taskIds: string[], workerId: string, now: number): Promise<void> {
    return this.guarded(async () => {
      if (taskIds.length > 0) await heartbeatScript.run(this.client, [this.keys.prefix, workerId, now, ...taskIds]);
    });
  }

  isCancelRequested(taskId: string): Promise<boolean> {
    return this.guarded(async () => (await this.client.exists(this.keys.cancelFlag(taskId))) === 1);
  }

  complete(taskId: string, workerId: string, result: unknown, retainUntil: number, now: number): Promise<boolean> {
    return this.guarded(async () => {
      await this.nextTurn();
      return this.completions.push({ taskId, workerId, result, retainUntil, now });
    });
  }

  fail(
    taskId: string,
    workerId: string,
    failure: TaskFailure,
    retryAt: number | null,
    retainUntil: number,
    now: number,
  ): Promise<boolean> {
    return this.guarded(async () => {
      const outcome = await failScript.run(this.client, [
        this.keys.prefix,
        taskId,
        workerId,
        now,
        failure.message,
        failure.type,
        retryAt ?? '',
        retainUntil,
        expiryAfter(retainUntil, now),
      ]);
      return outcome !== null;
    });
  }

  release(taskId: string, workerId: string, runAfter: number): Promise<void> {
    return this.guarded(async () => {
      // No caller clock here: the lane wakes when run_after has passed on the real one.
      await releaseScript.run(this.client, [this.keys.prefix, taskId, workerId, runAfter, Date.now()]);
    });
  }

  reconcile(queue: QueueName | undefined, heartbeatTimeoutMs: number, now: number): Promise<ReconcileOutcome> {
    return this.guarded(async () => {
      const counts: ReconcileCounts = { recovered_orphans: 0, recovered_crashed: 0, failed_unrecoverable: 0 };
      const failedTaskIds: string[] = [];
      for (const lane of queue ? [queue] : queueNames) {
        const running = await this.client.smembers(this.keys.queue(lane).running);
        const states = await Promise.all(
          running.map((taskId) =>
            this.client.hmget(this.keys.task(taskId), 'status', 'worker_id', 'heartbeat_at', 'started_at', 'attempts'),
          ),
        );
        // Per running entry judged abandoned: its id, the worker seen ('' for an orphan or a stale entry: no
        // hash, or not running) and the post-mortem it fails with should this be its second crash.
        const suspects = running.flatMap((taskId, index) => {
          const [status, workerId, heartbeatAt, startedAt, attempts] = states[index];
          if (status !== 'running') return [taskId, '', ''];
          const silent = Number(heartbeatAt ?? 0) < now - heartbeatTimeoutMs;
          if (!silent && !isDeadLocalWorker(workerId ?? '')) return [];
          const postMortem = crashedTwicePostMortem({
            attempts: Number(attempts),
            worker_id: workerId,
            started_at: numberOrNull(startedAt),
            heartbeat_at: numberOrNull(heartbeatAt),
          });
          return [taskId, workerId ?? '', postMortem];
        });
        if (suspects.length > 0) {
          const outcomes = (await recoverScript.run(this.client, [
            this.keys.prefix,
            lane,
            now,
            now + failedRetentionMs,
            failedRetentionMs + expiryMarginMs,
            crashLimit,
            crashFailures.unrecoverable.message,
            crashFailures.rerun.message,
            ...suspects,
          ])) as [string, 'orphan' | 'requeued' | 'failed'][];
          for (const [taskId, outcome] of outcomes) {
            if (outcome === 'orphan') counts.recovered_orphans++;
            else if (outcome === 'requeued') counts.recovered_crashed++;
            else {
              counts.failed_unrecoverable++;
              failedTaskIds.push(taskId);
            }
          }
        }
      }
      return { counts, failedTaskIds };
    });
  }

  reportWorker(queue: QueueName, workerId: string, ttlMs: number, now: number): Promise<void> {
    return this.guarded(async () => {
      await this.client.zadd(this.keys.queue(queue).workers, now + ttlMs, workerId);
    });
  }

  workerCount(queue: QueueName, now: number): Promise<number> {
    return this.guarded(async () => {
      const key = this.keys.queue(queue).workers;
      const [, count] = await Promise.all([this.client.zremrangebyscore(key, '-inf', now), this.client.zcard(key)]);
      return count;
    });
  }

  waitForWork(queue: QueueName, timeoutMs: number): Promise<void> {
    const nextDue = () =>
      this.client
        .zrange(this.keys.queue(queue).deferred, 0, 0, 'WITHSCORES')
        .then(([, runAfter]) => (runAfter === undefined ? null : Number(runAfter)))
        .catch(() => null);
    return this.wakes.wait(queue, timeoutMs, nextDue);
  }

  ping(): Promise<void> {
    return this.guarded(async () => {
      await this.client.ping();
    });
  }

  async close(): Promise<void> {
    this.wakes.close();
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private async enqueueBatch(requests: { task: NewTask; now: number }[]): Promise<(TaskRecord | Error)[]> {
    const entries = requests.map(({ task }) => ({
      taskId: newTaskId(),
      json: { data: JSON.stringify(task.data), metadata: JSON.stringify(task.metadata) },
    }));
    const args = requests.flatMap(({ task, now }, index) =>
      enqueueArgs(entries[index].taskId, task, entries[index].json, now),
    );
    const seqs = (await enqueueScript.run(this.client, [this.keys.prefix, maxPendingPerQueue, ...args])) as number[];
    return requests.map(({ task, now }, index) =>
      seqs[index] === 0
        ? new QueueFullError(task.queue)
        : queuedRecord(entries[index].taskId, task, entries[index].json, now),
    );
  }

  private async completeBatch(requests: Completion[]): Promise<boolean[]> {
    const args = requests.flatMap(({ taskId, workerId, result, retainUntil, now }) => [
      taskId,
      workerId,
      now,
      JSON.stringify(result ?? null),
      retainUntil,
      expiryAfter(retainUntil, now),
    ]);
    const done = (await completeScript.run(this.client, [this.keys.prefix, ...args])) as number[];
    return done.map((flag) => flag === 1);
  }

  private async cancelIds(taskIds: string[], now: number): Promise<CancelOutcome[]> {
    return (await cancelScript.run(this.client, [
      this.keys.prefix,
      now,
      cancelFlagTtlMs,
      ...taskIds,
    ])) as CancelOutcome[];
  }

  private async deleteWhileAny(nextBatch: () => Promise<string[]>): Promise<number> {
    let deleted = 0;
    for (;;) {
      const taskIds = await nextBatch();
      if (taskIds.length === 0) return deleted;
      deleted += (await deleteScript.run(this.client, [this.keys.prefix, queueNames.join(','), ...taskIds])) as number;
    }
  }

  /**
   * Resolves once the event loop has turned: enqueues and completions made anywhere in this turn (by
   * producers and handlers woken by different replies) then join one batch, one script call and one
   * socket write, which costs far more here than the wait of one turn.
   */
  private nextTurn(): Promise<void> {
    this.turn ??= new Promise((resolve) =>
      setImmediate(() => {
        this.turn = null;
        resolve();
      }),
    );
    return this.turn;
  }

  private wake(queue: QueueName): void {
    this.client.publish(this.keys.queue(queue).wake, '1').catch(() => undefined);
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw unavailable(error);
    }
  }
}

/** The Redis TTL (ms) of a finished task's hash and result: its retention plus a margin. */
function expiryAfter(retainUntil: number, now: number): number {
  return Math.max(0, Math.round(retainUntil - now)) + expiryMarginMs;
}

interface Completion {
  taskId: string;
  workerId: string;
  result: unknown;
  retainUntil: number;
  now: number;
}

function numberOrNull(value: string | null): number | null {
  return value === null ? null : Number(value);
}

/** Top-level equality on every wanted key (the key must exist, also for a null value). */
function matches(metadataJson: string | null, wanted: [string, unknown][]): boolean {
  if (metadataJson === null) return false;
  const metadata = JSON.parse(metadataJson) as Record<string, unknown>;
  return wanted.every(([key, value]) => Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value));
}
