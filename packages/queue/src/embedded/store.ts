import { EventEmitter } from 'node:events';
import { MicroBatch } from '../batch.ts';
import { isDeadLocalWorker, isoOrNull, newTaskId } from '../ids.ts';
import type { TaskStore } from '../store.ts';
import {
  maxPendingPerQueue,
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
  type TaskStatus,
} from '../task.ts';
import { crashFailures, crashLimit, crashedTwicePostMortem } from '../crashes.ts';
import { addedColumns, queueSchema, recountLanes, type TaskRow } from './schema.ts';
import { SqliteFile } from './sqlite.ts';

export interface EmbeddedStoreOptions {
  /** A cap on running tasks of a lane across every process sharing the file (the llm lane's 1). */
  globalLimit?: (queue: QueueName) => number | undefined;
}

interface Completion {
  taskId: string;
  workerId: string;
  result: string;
  retainUntil: number;
  now: number;
}

const activeStatuses = "('queued', 'running')";
const terminalStatuses = "('completed', 'failed', 'cancelled')";

/**
 * The embedded default's queue: `<data_dir>/queue.db` (SQLite, WAL). Claims are one atomic UPDATE …
 * RETURNING, so several worker processes can share the file without taking a task twice.
 */
export class EmbeddedTaskStore implements TaskStore {
  readonly kind = 'embedded';
  private readonly wake = new EventEmitter().setMaxListeners(0);
  private readonly completions = new MicroBatch<Completion, boolean>((items) => this.completeBatch(items), 500);
  private enqueueChain: Promise<unknown> = Promise.resolve();
  private readonly enqueues = new MicroBatch<{ task: NewTask; now: number }, TaskRecord>(
    (items) => this.enqueueBatch(items),
    500,
  );

  private constructor(
    private readonly db: SqliteFile,
    private readonly options: EmbeddedStoreOptions,
  ) {}

  static async open(file: string, options: EmbeddedStoreOptions = {}): Promise<EmbeddedTaskStore> {
    const db = await SqliteFile.open(file);
    await db.exec(queueSchema);
    await addMissingColumns(db);
    await db.exec(`BEGIN IMMEDIATE; ${recountLanes} COMMIT;`);
    return new EmbeddedTaskStore(db, options);
  }

  enqueue(task: NewTask, now: number): Promise<TaskRecord> {
    return this.enqueues.push({ task, now });
  }

  /**
   * Inserts a batch in one statement. Each lane's room under the pending limit is read just before: exact
   * for one process (its batches run one after another); processes sharing the file may overshoot the
   * limit by at most a batch, which a backpressure limit tolerates.
   */
  private enqueueBatch(items: { task: NewTask; now: number }[]): Promise<(TaskRecord | Error)[]> {
    // Batches run one after another, so each reads the counts its predecessor left.
    const run = this.enqueueChain.then(() => this.insertBatch(items));
    this.enqueueChain = run.catch(() => undefined);
    return run;
  }

  private async insertBatch(items: { task: NewTask; now: number }[]): Promise<(TaskRecord | Error)[]> {
    const pending = await this.db.all<{ queue: QueueName; n: number }>(
      "SELECT queue, n FROM lane_counts WHERE status = 'queued'",
    );
    const room = new Map(pending.map((lane) => [lane.queue, maxPendingPerQueue - lane.n]));
    const accepted = items.filter(({ task }) => {
      const left = room.get(task.queue) ?? maxPendingPerQueue;
      room.set(task.queue, left - 1);
      return left > 0;
    });
    const rows = accepted.map(({ task, now }) => [
      newTaskId(),
      task.queue,
      task.operation,
      task.priority,
      JSON.stringify(task.data),
      JSON.stringify(task.metadata),
      task.max_tries,
      task.retry_on_crash ? 1 : 0,
      task.payload_version,
      task.pausable ? 1 : 0,
      task.source_id,
      now,
      task.retry_of ?? null,
    ]);
    const inserted = await this.db.all<TaskRow>(
      `INSERT INTO tasks (task_id, queue, operation, status, priority, data, metadata, max_tries, retry_on_crash,
         payload_version, pausable, source_id, created_at, run_after, retry_of)
       SELECT r.value ->> 0, r.value ->> 1, r.value ->> 2, 'queued', r.value ->> 3, r.value ->> 4, r.value ->> 5, r.value ->> 6,
         r.value ->> 7, r.value ->> 8, r.value ->> 9, r.value ->> 10, r.value ->> 11, 0, r.value ->> 12
       FROM json_each(?) r
       RETURNING *`,
      [JSON.stringify(rows)],
    );
    const byId = new Map(inserted.map((row) => [row.task_id, row]));
    const idOf = new Map(accepted.map((item, index) => [item, rows[index][0] as string]));
    for (const queue of new Set(inserted.map((row) => row.queue))) this.wake.emit(queue);
    return items.map((item) => {
      const row = byId.get(idOf.get(item) ?? '');
      return row ? toRecord(row) : new QueueFullError(item.task.queue);
    });
  }

  async get(taskId: string): Promise<TaskRecord | null> {
    const row = await this.db.get<TaskRow>('SELECT * FROM tasks WHERE task_id = ?', [taskId]);
    return row ? toRecord(row) : null;
  }

  async list(options: {
    queues?: QueueName[];
    offset: number;
    limit: number;
  }): Promise<{ tasks: TaskRecord[]; total: number }> {
    const where = options.queues ? 'WHERE queue IN (SELECT value FROM json_each(?))' : '';
    const filter = options.queues ? [JSON.stringify(options.queues)] : [];
    const total = await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM tasks ${where}`, filter);
    const rows = await this.db.all<TaskRow>(`SELECT * FROM tasks ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`, [
      ...filter,
      options.limit,
      options.offset,
    ]);
    return { tasks: rows.map(toRecord), total: total?.n ?? 0 };
  }

  async counts(): Promise<LaneCounts[]> {
    const rows = await this.db.all<{ queue: QueueName; status: TaskStatus; n: number }>(
      `SELECT queue, status, n FROM lane_counts WHERE status IN ${activeStatuses}`,
    );
    return (['operations', 'llm'] as const).map((queue) => ({
      queue,
      queued: rows.find((row) => row.queue === queue && row.status === 'queued')?.n ?? 0,
      running: rows.find((row) => row.queue === queue && row.status === 'running')?.n ?? 0,
    }));
  }

  async result(taskId: string, now: number): Promise<{ result: unknown } | null> {
    const row = await this.db.get<Pick<TaskRow, 'status' | 'result' | 'retain_until'>>(
      'SELECT status, result, retain_until FROM tasks WHERE task_id = ?',
      [taskId],
    );
    if (!row || row.status !== 'completed' || row.retain_until === null || row.retain_until <= now) return null;
    return { result: row.result === null ? null : JSON.parse(row.result) };
  }

  async cancel(taskId: string, now: number): Promise<CancelOutcome> {
    const changed = await this.db.run(
      `UPDATE tasks SET status = 'cancelled', cancel_requested = 1, completed_at = ? WHERE task_id = ? AND status IN ${activeStatuses}`,
      [now, taskId],
    );
    if (changed) return 'cancelled';
    return (await this.db.get('SELECT 1 FROM tasks WHERE task_id = ?', [taskId])) ? 'finished' : 'not_found';
  }

  async cancelMatching(
    filter: { queue?: QueueName; metadata?: Record<string, unknown> },
    now: number,
  ): Promise<number> {
    const conditions = [`status IN ${activeStatuses}`];
    const params: unknown[] = [now];
    if (filter.queue) {
      conditions.push('queue = ?');
      params.push(filter.queue);
    }
    for (const [key, value] of Object.entries(filter.metadata ?? {})) {
      conditions.push(`json_extract(metadata, ?) IS ? AND json_type(metadata, ?) IS NOT NULL`);
      params.push(
        jsonPath(key),
        value === null ? null : typeof value === 'object' ? JSON.stringify(value) : value,
        jsonPath(key),
      );
    }
    return this.db.run(
      `UPDATE tasks SET status = 'cancelled', cancel_requested = 1, completed_at = ? WHERE ${conditions.join(' AND ')}`,
      params,
    );
  }

  clearHistory(filter: { queue?: QueueName; finishedBefore: number }): Promise<number> {
    return this.db.run(
      `DELETE FROM tasks WHERE status IN ${terminalStatuses} AND completed_at < ? AND (? IS NULL OR queue = ?)`,
      [filter.finishedBefore, filter.queue ?? null, filter.queue ?? null],
    );
  }

  async markRetried(taskId: string, newTaskId: string): Promise<void> {
    await this.db.run('UPDATE tasks SET retried_to = ? WHERE task_id = ?', [newTaskId, taskId]);
  }

  purgeExpired(now: number): Promise<number> {
    return this.db.run(
      `DELETE FROM tasks WHERE status IN ${terminalStatuses} AND retain_until IS NOT NULL AND retain_until <= ?`,
      [now],
    );
  }

  async claim(
    queue: QueueName,
    max: number,
    workerId: string,
    filter: ClaimFilter,
    now: number,
  ): Promise<TaskRecord[]> {
    const globalLimit = this.options.globalLimit?.(queue) ?? max;
    // The lane's global cap is read inside the one UPDATE, so two processes cannot both take the last slot.
    const rows = await this.db.all<TaskRow>(
      `UPDATE tasks SET status = 'running', worker_id = ?, started_at = ?, heartbeat_at = ?, attempts = attempts + 1
       WHERE seq IN (
         SELECT seq FROM tasks
         WHERE queue = ? AND status = 'queued' AND run_after <= ?
           AND operation NOT IN (SELECT value FROM json_each(?))
           AND (source_id IS NULL OR source_id NOT IN (SELECT value FROM json_each(?)))
         ORDER BY priority DESC, seq
         LIMIT max(0, min(?, ? - (SELECT n FROM lane_counts WHERE queue = ? AND status = 'running'))))
       RETURNING *`,
      [
        workerId,
        now,
        now,
        queue,
        now,
        JSON.stringify([...filter.excludeOperations]),
        JSON.stringify([...filter.excludeSourceIds]),
        max,
        globalLimit,
        queue,
      ],
    );
    return rows.sort((a, b) => b.priority - a.priority || a.seq - b.seq).map(toRecord);
  }

  async heartbeat(taskIds: string[], workerId: string, now: number): Promise<void> {
    if (taskIds.length === 0) return;
    await this.db.run(
      "UPDATE tasks SET heartbeat_at = ? WHERE task_id IN (SELECT value FROM json_each(?)) AND worker_id = ? AND status = 'running'",
      [now, JSON.stringify(taskIds), workerId],
    );
  }

  async isCancelRequested(taskId: string): Promise<boolean> {
    const row = await this.db.get<{ cancel_requested: number }>(
      'SELECT cancel_requested FROM tasks WHERE task_id = ?',
      [taskId],
    );
    // A task whose record is gone (history cleared after a cancel) must stop too.
    return !row || row.cancel_requested === 1;
  }

  complete(taskId: string, workerId: string, result: unknown, retainUntil: number, now: number): Promise<boolean> {
    return this.completions.push({ taskId, workerId, result: JSON.stringify(result ?? null), retainUntil, now });
  }

  /** Completes a batch in one UPDATE (same worker: one process), reporting which the claim guard allowed. */
  private async completeBatch(items: Completion[]): Promise<boolean[]> {
    const byTask = Object.fromEntries(
      items.map((item) => [item.taskId, [item.result, item.retainUntil, item.now, item.workerId]]),
    );
    const done = await this.db.all<{ task_id: string }>(
      `UPDATE tasks SET status = 'completed', error = NULL, error_type = NULL,
         result = (SELECT json_extract(value, '$[0]') FROM json_each(?1) WHERE key = tasks.task_id),
         retain_until = (SELECT json_extract(value, '$[1]') FROM json_each(?1) WHERE key = tasks.task_id),
         completed_at = (SELECT json_extract(value, '$[2]') FROM json_each(?1) WHERE key = tasks.task_id)
       WHERE task_id IN (SELECT key FROM json_each(?1)) AND status = 'running'
         AND worker_id = (SELECT json_extract(value, '$[3]') FROM json_each(?1) WHERE key = tasks.task_id)
       RETURNING task_id`,
      [JSON.stringify(byTask)],
    );
    const completed = new Set(done.map((row) => row.task_id));
    return items.map((item) => completed.has(item.taskId));
  }

  async fail(
    taskId: string,
    workerId: string,
    failure: TaskFailure,
    retryAt: number | null,
    retainUntil: number,
    now: number,
  ): Promise<boolean> {
    const changed =
      retryAt === null
        ? await this.db.run(
            `UPDATE tasks SET status = 'failed', completed_at = ?, error = ?, error_type = ?, retain_until = ?
             WHERE task_id = ? AND worker_id = ? AND status = 'running'`,
            [now, failure.message, failure.type, retainUntil, taskId, workerId],
          )
        : await this.db.run(
            `UPDATE tasks SET status = 'queued', run_after = ?, error = ?, error_type = ?, worker_id = NULL, heartbeat_at = NULL
             WHERE task_id = ? AND worker_id = ? AND status = 'running'`,
            [retryAt, failure.message, failure.type, taskId, workerId],
          );
    return changed === 1;
  }

  async release(taskId: string, workerId: string, runAfter: number): Promise<void> {
    await this.db.run(
      `UPDATE tasks SET status = 'queued', run_after = ?, attempts = attempts - 1, worker_id = NULL, heartbeat_at = NULL
       WHERE task_id = ? AND worker_id = ? AND status = 'running'`,
      [runAfter, taskId, workerId],
    );
  }

  async reconcile(queue: QueueName | undefined, heartbeatTimeoutMs: number, now: number): Promise<ReconcileOutcome> {
    type Running = Pick<
      TaskRow,
      | 'task_id'
      | 'worker_id'
      | 'heartbeat_at'
      | 'started_at'
      | 'attempts'
      | 'max_tries'
      | 'retry_on_crash'
      | 'queue'
      | 'crashes'
    >;
    const running = await this.db.all<Running>(
      `SELECT task_id, worker_id, heartbeat_at, started_at, attempts, max_tries, retry_on_crash, queue, crashes
       FROM tasks WHERE status = 'running' AND (? IS NULL OR queue = ?)`,
      [queue ?? null, queue ?? null],
    );
    const counts: ReconcileCounts = { recovered_orphans: 0, recovered_crashed: 0, failed_unrecoverable: 0 };
    const failedTaskIds: string[] = [];
    for (const task of running) {
      const silent = (task.heartbeat_at ?? 0) < now - heartbeatTimeoutMs;
      if (!silent && !isDeadLocalWorker(task.worker_id ?? '')) continue;
      const crashes = task.crashes + 1;
      // Each write is guarded by the state seen: a task finished or reclaimed meanwhile keeps its newer state.
      const guard = "WHERE task_id = ? AND status = 'running' AND worker_id IS ?";
      if (crashes < crashLimit && task.retry_on_crash && task.attempts < task.max_tries) {
        const changed = await this.db.run(
          `UPDATE tasks SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, run_after = 0, crashes = ?, error = ?, error_type = ? ${guard}`,
          [crashes, crashFailures.rerun.message, crashFailures.rerun.type, task.task_id, task.worker_id],
        );
        counts.recovered_crashed += changed;
        if (changed) this.wake.emit(task.queue);
      } else {
        const failure =
          crashes >= crashLimit
            ? { type: crashFailures.crashedTwice.type, message: crashedTwicePostMortem(task) }
            : crashFailures.unrecoverable;
        const changed = await this.db.run(
          `UPDATE tasks SET status = 'failed', completed_at = ?, error = ?, error_type = ?, retain_until = ?, crashes = ? ${guard}`,
          [now, failure.message, failure.type, now + failedRetentionMs, crashes, task.task_id, task.worker_id],
        );
        counts.failed_unrecoverable += changed;
        if (changed) failedTaskIds.push(task.task_id);
      }
    }
    return { counts, failedTaskIds };
  }

  async reportWorker(queue: QueueName, workerId: string, ttlMs: number, now: number): Promise<void> {
    await this.db.run(
      'INSERT INTO workers (queue, worker_id, expires_at) VALUES (?, ?, ?) ON CONFLICT (queue, worker_id) DO UPDATE SET expires_at = excluded.expires_at',
      [queue, workerId, now + ttlMs],
    );
  }

  async workerCount(queue: QueueName, now: number): Promise<number> {
    await this.db.run('DELETE FROM workers WHERE expires_at <= ?', [now]);
    const row = await this.db.get<{ n: number }>('SELECT count(*) AS n FROM workers WHERE queue = ?', [queue]);
    return row?.n ?? 0;
  }

  waitForWork(queue: QueueName, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake.off(queue, done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.wake.once(queue, done);
    });
  }

  async ping(): Promise<void> {
    await this.db.get('SELECT 1');
  }

  async close(): Promise<void> {
    this.wake.removeAllListeners();
    await this.db.close();
  }
}

/** Post-mortem retention of tasks failed by the reconciler (failed_result_ttl's default: 14 days). */
export const failedRetentionMs = 14 * 24 * 3600 * 1000;

async function addMissingColumns(db: SqliteFile): Promise<void> {
  const present = new Set((await db.all<{ name: string }>('PRAGMA table_info(tasks)')).map((column) => column.name));
  for (const column of addedColumns.filter(({ name }) => !present.has(name))) {
    // Another process opening the same file may add it first.
    await db.exec(`ALTER TABLE tasks ADD COLUMN ${column.name} ${column.definition}`).catch((error: Error) => {
      if (!error.message.includes('duplicate column')) throw error;
    });
  }
}

function jsonPath(key: string): string {
  return `$."${key.replace(/"/g, '""')}"`;
}

/** A stored row as the task model (the PostgreSQL store keeps the same columns). */
export function toRecord(row: TaskRow): TaskRecord {
  return {
    task_id: row.task_id,
    queue: row.queue as QueueName,
    operation: row.operation,
    status: row.status as TaskStatus,
    priority: row.priority,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    attempts: row.attempts,
    max_tries: row.max_tries,
    retry_on_crash: row.retry_on_crash === 1,
    payload_version: row.payload_version,
    created_at: isoOrNull(row.created_at)!,
    started_at: isoOrNull(row.started_at),
    completed_at: isoOrNull(row.completed_at),
    error: row.error,
    error_type: row.error_type,
    run_after: row.run_after,
    retried_to: row.retried_to,
    retry_of: row.retry_of,
    pausable: row.pausable === 1,
    source_id: row.source_id,
  };
}
