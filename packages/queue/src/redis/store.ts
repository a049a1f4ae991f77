import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Redis } from 'ioredis';
import { isDeadLocalWorker, newTaskId } from '../ids.ts';
import type { TaskStore } from '../store.ts';
import {
  maxPendingPerQueue,
  queueNames,
  QueueFullError,
  QueueUnavailableError,
  type CancelOutcome,
  type ClaimFilter,
  type LaneCounts,
  type NewTask,
  type QueueName,
  type ReconcileCounts,
  type TaskFailure,
  type TaskRecord,
} from '../task.ts';
import { MicroBatch } from '../batch.ts';
import { openConnection, unavailable } from './connection.ts';
import { Keys } from './keys.ts';
import { Lane } from './lanes.ts';
import { newTaskFields, pairsToHash, toRecord } from './records.ts';
import {
  cancelScript,
  claimScript,
  completeScript,
  deleteScript,
  discardScript,
  enqueueScript,
  failScript,
  heartbeatScript,
  markRetriedScript,
  prepareClaimScript,
  recoverScript,
  releaseScript,
} from './scripts.ts';
import { WakeChannel } from './wake.ts';

export interface RedisStoreOptions {
  /** Namespace of every key, ours and bullmq's (default `rhizome`). */
  prefix?: string;
  /**
   * A cap on running tasks of a lane across every process (the llm lane's 1), stored as bullmq's global
   * concurrency of the lane when this store connects. Undefined leaves the stored setting as it is.
   */
  globalLimit?: (queue: QueueName) => number | undefined;
}

/** Post-mortem retention of tasks failed by the reconciler (failed_result_ttl's default: 14 days). */
const failedRetentionMs = 14 * 24 * 3600 * 1000;
/** Hashes and results of finished tasks also expire this long after their retention, should no purge run. */
const expiryMarginMs = 24 * 3600 * 1000;
/** The cancel flag outlives any task run. */
const cancelFlagTtlMs = 24 * 3600 * 1000;
/** A job the filter excludes leaves the lane until its group is let through again, or this long at most. */
const holdMs = 5 * 60 * 1000;
/** Jobs one claim may fetch beyond `max` while handing back what it cannot start. */
const claimFetchSlack = 100;
/** Deferred or held tasks one claim returns to the lane. */
const promoteBatch = 1000;
/** An active job of a queued task older than this lost its claimer mid-claim. */
const staleFetchMs = 60_000;
const deleteBatch = 500;
/** Enqueues or completions gathered into one script call at most. */
const batchSize = 200;

/**
 * The Redis/Valkey adapter: the task hash is the source of truth of everything the spec shows, and
 * bullmq (one Queue per lane) orders the queued tasks by priority and FIFO, hands them out atomically
 * and caps a lane's running tasks across processes. docs/queue-redis-mapping.md has the mapping.
 */
export class RedisTaskStore implements TaskStore {
  readonly kind = 'redis';

  private readonly enqueues = new MicroBatch((requests: { task: NewTask; now: number }[]) => this.enqueueBatch(requests), batchSize);
  private readonly completions = new MicroBatch((requests: Completion[]) => this.completeBatch(requests), batchSize);

  private constructor(
    private readonly client: Redis,
    private readonly keys: Keys,
    private readonly lanes: Record<QueueName, Lane>,
    private readonly wakes: WakeChannel,
  ) {}

  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisTaskStore> {
    const client = await openConnection(url);
    const keys = new Keys(options.prefix ?? 'rhizome');
    const tokenBase = randomBytes(6).toString('hex');
    const opened: Lane[] = [];
    try {
      const lanes = {} as Record<QueueName, Lane>;
      for (const queue of queueNames) {
        lanes[queue] = await Lane.open(client, queue, keys.bullPrefix, tokenBase, options.globalLimit?.(queue));
        opened.push(lanes[queue]);
      }
      return new RedisTaskStore(client, keys, lanes, await WakeChannel.open(client, keys));
    } catch (error) {
      await Promise.allSettled(opened.map((lane) => lane.close()));
      client.disconnect();
      throw unavailable(error);
    }
  }

  enqueue(task: NewTask, now: number): Promise<TaskRecord> {
    return this.guarded(() => this.enqueues.push({ task, now }));
  }

  get(taskId: string): Promise<TaskRecord | null> {
    return this.guarded(async () => {
      const hash = await this.client.hgetall(this.keys.task(taskId));
      return hash.task_id ? toRecord(hash) : null;
    });
  }

  list(options: { queues?: QueueName[]; offset: number; limit: number }): Promise<{ tasks: TaskRecord[]; total: number }> {
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
          const [queued, running] = await Promise.all([this.client.scard(keys.queued), this.client.scard(keys.running)]);
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
        queues.flatMap((queue) => [this.client.smembers(this.keys.queue(queue).queued), this.client.smembers(this.keys.queue(queue).running)]),
      );
      let candidates = active.flat();
      const wanted = Object.entries(filter.metadata ?? {});
      if (wanted.length > 0) {
        const metadata = await Promise.all(candidates.map((taskId) => this.client.hget(this.keys.task(taskId), 'metadata')));
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
          this.client.zrangebyscore(this.keys.queue(queue).finished, '-inf', `(${filter.finishedBefore}`, 'LIMIT', 0, deleteBatch),
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
    return this.guarded(() => this.deleteWhileAny(() => this.client.zrangebyscore(this.keys.retention, '-inf', now, 'LIMIT', 0, deleteBatch)));
  }

  claim(queue: QueueName, max: number, workerId: string, filter: ClaimFilter, now: number): Promise<TaskRecord[]> {
    return this.guarded(async () => {
      if (max <= 0) return [];
      const lane = this.lanes[queue];
      const excludedOperations = JSON.stringify([...filter.excludeOperations]);
      const excludedSources = JSON.stringify([...filter.excludeSourceIds]);
      const ready = (await prepareClaimScript.run(this.client, [this.keys.prefix, queue, now, excludedOperations, excludedSources, promoteBatch])) as string[];
      if (ready.length > 0) await lane.promote(ready);

      const claimed: { record: TaskRecord; seq: number }[] = [];
      let fetched = 0;
      while (claimed.length < max && fetched < max + claimFetchSlack) {
        const wanted = max - claimed.length;
        const jobs = await lane.fetch(wanted);
        if (jobs.length === 0) break;
        fetched += jobs.length;
        const outcomes = (await claimScript.run(this.client, [
          this.keys.prefix, queue, workerId, now, excludedOperations, excludedSources, ...jobs.map((job) => job.id),
        ])) as ClaimOutcome[];
        const handBacks: Promise<void>[] = [];
        outcomes.forEach(([outcome, detail], index) => {
          const job = jobs[index];
          if (outcome === 'run') {
            const hash = pairsToHash(detail as string[]);
            claimed.push({ record: toRecord(hash), seq: Number(hash.seq) });
          } else if (outcome === 'held') handBacks.push(lane.delay(job.id, holdMs, job.token));
          else if (outcome === 'defer') handBacks.push(lane.delay(job.id, Number(detail), job.token));
          else handBacks.push(lane.finish(job.id, 'failed', job.token));
        });
        await followUp(handBacks);
        // Fewer jobs than asked and nothing handed back: the lane is dry or at its global limit.
        if (handBacks.length === 0 && jobs.length < wanted) break;
      }
      // The budget ran out on tasks that cannot start now; come back for what may be behind them.
      if (fetched >= max + claimFetchSlack) this.wake(queue);
      return claimed.sort((a, b) => b.record.priority - a.record.priority || a.seq - b.seq).map((entry) => entry.record);
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
    return this.guarded(() => this.completions.push({ taskId, workerId, result, retainUntil, now }));
  }

  fail(taskId: string, workerId: string, failure: TaskFailure, retryAt: number | null, retainUntil: number, now: number): Promise<boolean> {
    return this.guarded(async () => {
      const outcome = (await failScript.run(this.client, [
        this.keys.prefix, taskId, workerId, now, failure.message, failure.type, retryAt ?? '', retainUntil, expiryAfter(retainUntil, now),
      ])) as [QueueName, 'failed' | 'queued'] | null;
      if (!outcome) return false;
      const [queue, status] = outcome;
      if (status === 'failed') await followUp([this.lanes[queue].finish(taskId, 'failed')]);
      else await this.requeued(queue, taskId, retryAt! - now);
      return true;
    });
  }

  release(taskId: string, workerId: string, runAfter: number): Promise<void> {
    return this.guarded(async () => {
      const queue = (await releaseScript.run(this.client, [this.keys.prefix, taskId, workerId, runAfter])) as QueueName | null;
      // No caller clock here; the claim that sees the task early defers it again by its run_after.
      if (queue) await this.requeued(queue, taskId, runAfter - Date.now());
    });
  }

  reconcile(queue: QueueName | undefined, heartbeatTimeoutMs: number, now: number): Promise<ReconcileCounts> {
    return this.guarded(async () => {
      const counts: ReconcileCounts = { recovered_orphans: 0, recovered_crashed: 0, failed_unrecoverable: 0 };
      for (const lane of queue ? [queue] : queueNames) {
        const running = await this.client.smembers(this.keys.queue(lane).running);
        const states = await Promise.all(running.map((taskId) => this.client.hmget(this.keys.task(taskId), 'status', 'worker_id', 'heartbeat_at')));
        const suspects = running.flatMap((taskId, index) => {
          const [status, workerId, heartbeatAt] = states[index];
          if (status === null) return [taskId, ''];
          const silent = Number(heartbeatAt ?? 0) < now - heartbeatTimeoutMs;
          return status === 'running' && (silent || isDeadLocalWorker(workerId ?? '')) ? [taskId, workerId ?? ''] : [];
        });
        if (suspects.length > 0) {
          const outcomes = (await recoverScript.run(this.client, [
            this.keys.prefix, lane, now, now + failedRetentionMs, failedRetentionMs + expiryMarginMs,
            'The worker running this task stopped before it finished', ...suspects,
          ])) as [string, 'orphan' | 'requeued' | 'failed'][];
          for (const [, outcome] of outcomes) {
            if (outcome === 'orphan') counts.recovered_orphans++;
            else if (outcome === 'requeued') counts.recovered_crashed++;
            else counts.failed_unrecoverable++;
          }
          // The abandoned job goes back into the lane (requeued) or away; it is the task's only job.
          await followUp(outcomes.map(([taskId, outcome]) => (outcome === 'requeued' ? this.lanes[lane].delay(taskId, 0) : this.lanes[lane].finish(taskId, 'failed'))));
          if (outcomes.some(([, outcome]) => outcome === 'requeued')) this.wake(lane);
        }
        await this.sweepActive(lane);
      }
      return counts;
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
    const nextDue = this.client
      .zrange(this.keys.queue(queue).deferred, 0, 0, 'WITHSCORES')
      .then(([, runAfter]) => (runAfter === undefined ? null : Number(runAfter) - Date.now()))
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
    await Promise.allSettled(queueNames.map((queue) => this.lanes[queue].close()));
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private async enqueueBatch(requests: { task: NewTask; now: number }[]): Promise<(TaskRecord | Error)[]> {
    const entries = requests.map(({ task, now }) => {
      const taskId = newTaskId();
      return { task, taskId, fields: newTaskFields(taskId, task, now) };
    });
    const args = entries.flatMap(({ task, taskId, fields }) => [task.queue, taskId, fields.length, ...fields]);
    const seqs = (await enqueueScript.run(this.client, [this.keys.prefix, maxPendingPerQueue, ...args])) as number[];
    const accepted = entries.filter((_, index) => seqs[index] !== 0);
    const failed = new Map<QueueName, Error>();
    await Promise.all(
      queueNames.map(async (queue) => {
        const lane = accepted.filter((entry) => entry.task.queue === queue);
        if (lane.length === 0) return;
        try {
          await this.lanes[queue].add(lane.map(({ task, taskId }) => ({ taskId, operation: task.operation, priority: task.priority })));
          this.wake(queue);
        } catch (error) {
          failed.set(queue, error instanceof Error ? error : new Error(String(error)));
          await discardScript.run(this.client, [this.keys.prefix, ...lane.flatMap((entry) => [queue, entry.taskId])]).catch(() => undefined);
        }
      }),
    );
    return entries.map(({ task, fields }, index) => {
      if (seqs[index] === 0) return new QueueFullError(task.queue);
      return failed.get(task.queue) ?? toRecord(pairsToHash(fields));
    });
  }

  private async completeBatch(requests: Completion[]): Promise<boolean[]> {
    const args = requests.flatMap(({ taskId, workerId, result, retainUntil, now }) => [
      taskId, workerId, now, JSON.stringify(result ?? null), retainUntil, expiryAfter(retainUntil, now),
    ]);
    const queues = (await completeScript.run(this.client, [this.keys.prefix, ...args])) as (QueueName | null)[];
    await followUp(queues.map((queue, index) => (queue ? this.lanes[queue].finish(requests[index].taskId, 'completed') : undefined)));
    return queues.map((queue) => queue !== null);
  }

  private async cancelIds(taskIds: string[], now: number): Promise<CancelOutcome[]> {
    const outcomes = (await cancelScript.run(this.client, [this.keys.prefix, now, cancelFlagTtlMs, ...taskIds])) as [string, QueueName?][];
    await followUp(
      outcomes.map(([prior, queue], index) => {
        if (prior === 'queued') return this.lanes[queue!].remove([taskIds[index]]);
        // The running task's worker notices the flag; its job leaves the lane now, freeing the slot.
        if (prior === 'running') return this.lanes[queue!].finish(taskIds[index], 'failed');
      }),
    );
    return outcomes.map(([prior]) => (prior === 'queued' || prior === 'running' ? 'cancelled' : (prior as CancelOutcome)));
  }

  /** A task back in queued: its job waits in bullmq's delayed set, and the lane wakes if it is due now. */
  private async requeued(queue: QueueName, taskId: string, delayMs: number): Promise<void> {
    await followUp([this.lanes[queue].delay(taskId, delayMs)]);
    if (delayMs <= 0) this.wake(queue);
  }

  /**
   * Active jobs whose task is not running are leftovers of a step cut short (a job finish lost with the
   * connection, a claimer that died between fetching and claiming): end them, or return them to the
   * lane when the task is still queued, so no lane slot stays taken by nothing.
   */
  private async sweepActive(queue: QueueName): Promise<void> {
    const lane = this.lanes[queue];
    const active = await lane.active();
    const statuses = await Promise.all(active.map((job) => this.client.hget(this.keys.task(job.id), 'status')));
    await followUp(
      active.map((job, index) => {
        const status = statuses[index];
        if (status === 'queued') return job.fetchedAt < Date.now() - staleFetchMs ? lane.delay(job.id, 0) : undefined;
        if (status !== 'running') return lane.finish(job.id, 'failed');
      }),
    );
  }

  private async deleteWhileAny(nextBatch: () => Promise<string[]>): Promise<number> {
    let deleted = 0;
    for (;;) {
      const taskIds = await nextBatch();
      if (taskIds.length === 0) return deleted;
      deleted += (await deleteScript.run(this.client, [this.keys.prefix, queueNames.join(','), ...taskIds])) as number;
    }
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

/**
 * bullmq steps that follow a change already recorded in the task hash. A connection lost halfway
 * leaves a job behind that the next claim drops or reconcile's sweep puts right, so the recorded
 * change stands and the call reports it; any other failure is a bug and surfaces.
 */
async function followUp(steps: (Promise<void> | undefined)[]): Promise<void> {
  for (const outcome of await Promise.allSettled(steps)) {
    if (outcome.status === 'rejected' && !(unavailable(outcome.reason) instanceof QueueUnavailableError)) throw outcome.reason;
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

type ClaimOutcome = ['run', string[]] | ['held'] | ['defer', string] | ['drop'];

/** Top-level equality on every wanted key (the key must exist, also for a null value). */
function matches(metadataJson: string | null, wanted: [string, unknown][]): boolean {
  if (metadataJson === null) return false;
  const metadata = JSON.parse(metadataJson) as Record<string, unknown>;
  return wanted.every(([key, value]) => Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value));
}
