import { EventEmitter } from 'node:events';
import pg from 'pg';
import { MicroBatch } from '../batch.ts';
import { failedRetentionMs, toRecord } from '../embedded/store.ts';
import type { TaskRow } from '../embedded/schema.ts';
import { isDeadLocalWorker, newTaskId } from '../ids.ts';
import type { TaskStore } from '../store.ts';
import {
  maxPendingPerQueue,
  QueueFullError,
  QueueUnavailableError,
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
import { postgresQueueSchema } from './schema.ts';

export interface PostgresStoreOptions {
  /** The schema holding the queue's tables; `rhizome_system` in a deployment. */
  schema: string;
  /** A cap on running tasks of a lane across every process sharing the queue (the llm lane's 1). */
  globalLimit?: (queue: QueueName) => number | undefined;
  /** Connections of the queue's own pool (claims and completions stay quick beside the databases' statements). */
  maxConnections?: number;
  statementTimeoutMs?: number;
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
const int8 = 20;
/** The first key of the advisory locks the queue takes; the second names the schema and the lane. */
const queueLockSpace = 0x52485a51;

/** bigint columns (times, sequence numbers) arrive as numbers, as SQLite's integers do. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Socket errors and server codes that mean the server cannot be reached now, not that a statement is wrong. */
const connectionCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const connectionMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

function unavailable(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof QueueUnavailableError) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  const lost = connectionCodes.has(code) || /^(08|57P0)/.test(code) || connectionMessages.test(error.message);
  return lost
    ? new QueueUnavailableError(`The task queue's PostgreSQL server is unavailable: ${error.message}`)
    : error;
}

/**
 * A time for a bigint column: a jittered backoff makes fractional milliseconds, which the server refuses
 * where SQLite keeps them. Rounded up, a task is never due before the moment asked for.
 */
const wholeMs = (time: number): number => Math.ceil(time);

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/**
 * The queue in a PostgreSQL server, so processes on several machines share it. Claims take rows with
 * `FOR UPDATE SKIP LOCKED`, so concurrent claimers never wait on each other nor take a task twice; a lane
 * with a global cap is claimed under an advisory lock, so two processes cannot both take its last slot.
 * Wake-ups travel as NOTIFY on a channel named after the schema, so an idle worker anywhere claims at once.
 */
export class PostgresTaskStore implements TaskStore {
  readonly kind = 'postgres';
  private readonly wake = new EventEmitter().setMaxListeners(0);
  private readonly completions = new MicroBatch<Completion, boolean>((items) => this.completeBatch(items), 500);
  private enqueueChain: Promise<unknown> = Promise.resolve();
  private readonly enqueues = new MicroBatch<{ task: NewTask; now: number }, TaskRecord>(
    (items) => this.enqueueBatch(items),
    500,
  );
  private listener: pg.Client | undefined;
  private listenRetry: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly options: PostgresStoreOptions,
  ) {}

  static async connect(url: string, options: PostgresStoreOptions): Promise<PostgresTaskStore> {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 5,
      statement_timeout: options.statementTimeoutMs,
      options: `-c search_path=${quote(options.schema)}`,
      types,
    });
    // An idle connection the server drops reports here; the pool replaces it on the next checkout.
    pool.on('error', () => undefined);
    const store = new PostgresTaskStore(url, pool, options);
    try {
      await store.transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [queueLockSpace, options.schema]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(options.schema)}`);
        await client.query(postgresQueueSchema);
      });
    } catch (error) {
      await pool.end();
      throw unavailable(error);
    }
    await store.listen();
    return store;
  }

  private get channel(): string {
    return `${this.options.schema}_queue`;
  }

  private async query<Row extends pg.QueryResultRow>(
    sql: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<Row>> {
    try {
      return await this.pool.query<Row>(sql, values);
    } catch (error) {
      throw unavailable(error);
    }
  }

  private async rows<Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.query<Row>(sql, values)).rows;
  }

  private async changed(sql: string, values: unknown[] = []): Promise<number> {
    return (await this.query(sql, values)).rowCount ?? 0;
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw unavailable(error);
    }
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw unavailable(error);
    } finally {
      client.release();
    }
  }

  /** Tells every process (this one at once) that `queue` may have a due task. */
  private async notify(queues: Iterable<string>): Promise<void> {
    for (const queue of new Set(queues)) {
      this.wake.emit(queue);
      await this.query('SELECT pg_notify($1, $2)', [this.channel, queue]).catch(() => undefined);
    }
  }

  /** One connection LISTENs for other processes' wake-ups; when it drops, it is opened again a second later. */
  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    const retry = () => {
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
      if (!this.closed && !this.listenRetry)
        this.listenRetry = setTimeout(() => {
          this.listenRetry = undefined;
          void this.listen();
        }, 1000);
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) this.wake.emit(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${quote(this.channel)}`);
      this.listener = client;
    } catch {
      retry();
    }
  }

  enqueue(task: NewTask, now: number): Promise<TaskRecord> {
    return this.enqueues.push({ task, now });
  }

  /** As the embedded queue: each batch reads the lanes' room left by its predecessor, then inserts at once. */
  private enqueueBatch(items: { task: NewTask; now: number }[]): Promise<(TaskRecord | Error)[]> {
    const run = this.enqueueChain.then(() => this.insertBatch(items));
    this.enqueueChain = run.catch(() => undefined);
    return run;
  }

  private async insertBatch(items: { task: NewTask; now: number }[]): Promise<(TaskRecord | Error)[]> {
    const pending = await this.rows<{ queue: QueueName; n: number }>(
      "SELECT queue, count(*)::int AS n FROM tasks WHERE status = 'queued' GROUP BY queue",
    );
    const room = new Map(pending.map((lane) => [lane.queue, maxPendingPerQueue - lane.n]));
    const accepted = items.filter(({ task }) => {
      const left = room.get(task.queue) ?? maxPendingPerQueue;
      room.set(task.queue, left - 1);
      return left > 0;
    });
    const rows = accepted.map(({ task, now }) => ({
      task_id: newTaskId(),
      queue: task.queue,
      operation: task.operation,
      priority: task.priority,
      data: JSON.stringify(task.data),
      metadata: JSON.stringify(task.metadata),
      max_tries: task.max_tries,
      retry_on_crash: task.retry_on_crash ? 1 : 0,
      payload_version: task.payload_version,
      pausable: task.pausable ? 1 : 0,
      source_id: task.source_id,
      created_at: now,
      retry_of: task.retry_of ?? null,
    }));
    const inserted = rows.length
      ? await this.rows<TaskRow>(
          `INSERT INTO tasks (task_id, queue, operation, status, priority, data, metadata, max_tries, retry_on_crash,
             payload_version, pausable, source_id, created_at, run_after, retry_of)
           SELECT task_id, queue, operation, 'queued', priority, data, metadata, max_tries, retry_on_crash,
             payload_version, pausable, source_id, created_at, 0, retry_of
           FROM json_populate_recordset(NULL::tasks, $1::json)
           RETURNING *`,
          [JSON.stringify(rows)],
        )
      : [];
    const byId = new Map(inserted.map((row) => [row.task_id, row]));
    const idOf = new Map(accepted.map((item, index) => [item, rows[index].task_id]));
    await this.notify(inserted.map((row) => row.queue));
    return items.map((item) => {
      const row = byId.get(idOf.get(item) ?? '');
      return row ? toRecord(row) : new QueueFullError(item.task.queue);
    });
  }

  async get(taskId: string): Promise<TaskRecord | null> {
    const [row] = await this.rows<TaskRow>('SELECT * FROM tasks WHERE task_id = $1', [taskId]);
    return row ? toRecord(row) : null;
  }

  async list(options: {
    queues?: QueueName[];
    offset: number;
    limit: number;
  }): Promise<{ tasks: TaskRecord[]; total: number }> {
    const where = options.queues ? 'WHERE queue = ANY($1::text[])' : '';
    const filter = options.queues ? [options.queues] : [];
    const next = filter.length + 1;
    const [total] = await this.rows<{ n: number }>(`SELECT count(*)::int AS n FROM tasks ${where}`, filter);
    const rows = await this.rows<TaskRow>(
      `SELECT * FROM tasks ${where} ORDER BY seq DESC LIMIT $${next} OFFSET $${next + 1}`,
      [...filter, options.limit, options.offset],
    );
    return { tasks: rows.map(toRecord), total: total?.n ?? 0 };
  }

  async counts(): Promise<LaneCounts[]> {
    const rows = await this.rows<{ queue: QueueName; status: TaskStatus; n: number }>(
      `SELECT queue, status, count(*)::int AS n FROM tasks WHERE status IN ${activeStatuses} GROUP BY queue, status`,
    );
    return (['operations', 'llm'] as const).map((queue) => ({
      queue,
      queued: rows.find((row) => row.queue === queue && row.status === 'queued')?.n ?? 0,
      running: rows.find((row) => row.queue === queue && row.status === 'running')?.n ?? 0,
    }));
  }

  async result(taskId: string, now: number): Promise<{ result: unknown } | null> {
    const [row] = await this.rows<Pick<TaskRow, 'status' | 'result' | 'retain_until'>>(
      'SELECT status, result, retain_until FROM tasks WHERE task_id = $1',
      [taskId],
    );
    if (!row || row.status !== 'completed' || row.retain_until === null || row.retain_until <= now) return null;
    return { result: row.result === null ? null : JSON.parse(row.result) };
  }

  async cancel(taskId: string, now: number): Promise<CancelOutcome> {
    const changed = await this.changed(
      `UPDATE tasks SET status = 'cancelled', cancel_requested = 1, completed_at = $1 WHERE task_id = $2 AND status IN ${activeStatuses}`,
      [now, taskId],
    );
    if (changed) return 'cancelled';
    return (await this.rows('SELECT 1 FROM tasks WHERE task_id = $1', [taskId])).length ? 'finished' : 'not_found';
  }

  async cancelMatching(
    filter: { queue?: QueueName; metadata?: Record<string, unknown> },
    now: number,
  ): Promise<number> {
    const conditions = [`status IN ${activeStatuses}`];
    const params: unknown[] = [now];
    if (filter.queue) {
      params.push(filter.queue);
      conditions.push(`queue = $${params.length}`);
    }
    for (const [key, value] of Object.entries(filter.metadata ?? {})) {
      params.push(key, JSON.stringify(value));
      conditions.push(`metadata::jsonb -> $${params.length - 1} = $${params.length}::jsonb`);
    }
    return this.changed(
      `UPDATE tasks SET status = 'cancelled', cancel_requested = 1, completed_at = $1 WHERE ${conditions.join(' AND ')}`,
      params,
    );
  }

  clearHistory(filter: { queue?: QueueName; finishedBefore: number }): Promise<number> {
    return this.changed(
      `DELETE FROM tasks WHERE status IN ${terminalStatuses} AND completed_at < $1 AND ($2::text IS NULL OR queue = $2)`,
      [filter.finishedBefore, filter.queue ?? null],
    );
  }

  async markRetried(taskId: string, newTaskId: string): Promise<void> {
    await this.query('UPDATE tasks SET retried_to = $1 WHERE task_id = $2', [newTaskId, taskId]);
  }

  purgeExpired(now: number): Promise<number> {
    return this.changed(
      `DELETE FROM tasks WHERE status IN ${terminalStatuses} AND retain_until IS NOT NULL AND retain_until <= $1`,
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
    const globalLimit = this.options.globalLimit?.(queue);
    const take = (client: pg.PoolClient | pg.Pool, limit: number) =>
      client.query<TaskRow>(
        `WITH picked AS (
           SELECT seq FROM tasks
           WHERE queue = $1 AND status = 'queued' AND run_after <= $2
             AND NOT (operation = ANY($3::text[]))
             AND (source_id IS NULL OR NOT (source_id = ANY($4::text[])))
           ORDER BY priority DESC, seq
           LIMIT $5
           FOR UPDATE SKIP LOCKED)
         UPDATE tasks SET status = 'running', worker_id = $6, started_at = $2, heartbeat_at = $2, attempts = attempts + 1
         FROM picked WHERE tasks.seq = picked.seq
         RETURNING tasks.*`,
        [queue, now, [...filter.excludeOperations], [...filter.excludeSourceIds], limit, workerId],
      );
    let rows: TaskRow[];
    if (globalLimit === undefined) {
      try {
        rows = (await take(this.pool, max)).rows;
      } catch (error) {
        throw unavailable(error);
      }
    } else {
      // Counting the lane's running tasks and taking more must not interleave with another process doing the same.
      rows = await this.transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
          queueLockSpace,
          `${this.options.schema}:${queue}`,
        ]);
        const running = await client.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM tasks WHERE queue = $1 AND status = 'running'",
          [queue],
        );
        const room = Math.max(0, Math.min(max, globalLimit - running.rows[0].n));
        return room ? (await take(client, room)).rows : [];
      });
    }
    return rows.sort((a, b) => b.priority - a.priority || a.seq - b.seq).map(toRecord);
  }

  async heartbeat(taskIds: string[], workerId: string, now: number): Promise<void> {
    if (taskIds.length === 0) return;
    await this.query(
      "UPDATE tasks SET heartbeat_at = $1 WHERE task_id = ANY($2::text[]) AND worker_id = $3 AND status = 'running'",
      [now, taskIds, workerId],
    );
  }

  async isCancelRequested(taskId: string): Promise<boolean> {
    const [row] = await this.rows<{ cancel_requested: number }>(
      'SELECT cancel_requested FROM tasks WHERE task_id = $1',
      [taskId],
    );
    // A task whose record is gone (history cleared after a cancel) must stop too.
    return !row || row.cancel_requested === 1;
  }

  complete(taskId: string, workerId: string, result: unknown, retainUntil: number, now: number): Promise<boolean> {
    return this.completions.push({ taskId, workerId, result: JSON.stringify(result ?? null), retainUntil, now });
  }

  /** Completes a batch in one UPDATE, reporting which the claim guard allowed. */
  private async completeBatch(items: Completion[]): Promise<boolean[]> {
    const done = await this.rows<{ task_id: string }>(
      `UPDATE tasks SET status = 'completed', error = NULL, error_type = NULL,
         result = done.result, retain_until = done.retain_until, completed_at = done.now
       FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[])
         AS done (task_id, result, retain_until, now, worker_id)
       WHERE tasks.task_id = done.task_id AND tasks.status = 'running' AND tasks.worker_id = done.worker_id
       RETURNING tasks.task_id`,
      [
        items.map((item) => item.taskId),
        items.map((item) => item.result),
        items.map((item) => item.retainUntil),
        items.map((item) => item.now),
        items.map((item) => item.workerId),
      ],
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
    if (retryAt === null)
      return (
        (await this.changed(
          `UPDATE tasks SET status = 'failed', completed_at = $1, error = $2, error_type = $3, retain_until = $4
           WHERE task_id = $5 AND worker_id = $6 AND status = 'running'`,
          [wholeMs(now), failure.message, failure.type, wholeMs(retainUntil), taskId, workerId],
        )) === 1
      );
    const [row] = await this.rows<{ queue: string }>(
      `UPDATE tasks SET status = 'queued', run_after = $1, error = $2, error_type = $3, worker_id = NULL, heartbeat_at = NULL
       WHERE task_id = $4 AND worker_id = $5 AND status = 'running' RETURNING queue`,
      [wholeMs(retryAt), failure.message, failure.type, taskId, workerId],
    );
    if (row) await this.notify([row.queue]);
    return row !== undefined;
  }

  async release(taskId: string, workerId: string, runAfter: number): Promise<void> {
    const rows = await this.rows<{ queue: string }>(
      `UPDATE tasks SET status = 'queued', run_after = $1, attempts = attempts - 1, worker_id = NULL, heartbeat_at = NULL
       WHERE task_id = $2 AND worker_id = $3 AND status = 'running' RETURNING queue`,
      [wholeMs(runAfter), taskId, workerId],
    );
    await this.notify(rows.map((row) => row.queue));
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
    const running = await this.rows<Running>(
      `SELECT task_id, worker_id, heartbeat_at, started_at, attempts, max_tries, retry_on_crash, queue, crashes
       FROM tasks WHERE status = 'running' AND ($1::text IS NULL OR queue = $1)`,
      [queue ?? null],
    );
    const counts: ReconcileCounts = { recovered_orphans: 0, recovered_crashed: 0, failed_unrecoverable: 0 };
    const failedTaskIds: string[] = [];
    for (const task of running) {
      const silent = (task.heartbeat_at ?? 0) < now - heartbeatTimeoutMs;
      if (!silent && !isDeadLocalWorker(task.worker_id ?? '')) continue;
      const crashes = task.crashes + 1;
      // Each write is guarded by the state seen: a task finished or reclaimed meanwhile keeps its newer state.
      const guard = (first: number) =>
        `WHERE task_id = $${first} AND status = 'running' AND worker_id IS NOT DISTINCT FROM $${first + 1}`;
      if (crashes < crashLimit && task.retry_on_crash && task.attempts < task.max_tries) {
        const changed = await this.changed(
          `UPDATE tasks SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, run_after = 0, crashes = $1, error = $2, error_type = $3 ${guard(4)}`,
          [crashes, crashFailures.rerun.message, crashFailures.rerun.type, task.task_id, task.worker_id],
        );
        counts.recovered_crashed += changed;
        if (changed) await this.notify([task.queue]);
      } else {
        const failure =
          crashes >= crashLimit
            ? { type: crashFailures.crashedTwice.type, message: crashedTwicePostMortem(task) }
            : crashFailures.unrecoverable;
        const changed = await this.changed(
          `UPDATE tasks SET status = 'failed', completed_at = $1, error = $2, error_type = $3, retain_until = $4, crashes = $5 ${guard(6)}`,
          [now, failure.message, failure.type, now + failedRetentionMs, crashes, task.task_id, task.worker_id],
        );
        counts.failed_unrecoverable += changed;
        if (changed) failedTaskIds.push(task.task_id);
      }
    }
    return { counts, failedTaskIds };
  }

  async reportWorker(queue: QueueName, workerId: string, ttlMs: number, now: number): Promise<void> {
    await this.query(
      'INSERT INTO workers (queue, worker_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (queue, worker_id) DO UPDATE SET expires_at = excluded.expires_at',
      [queue, workerId, now + ttlMs],
    );
  }

  async workerCount(queue: QueueName, now: number): Promise<number> {
    await this.query('DELETE FROM workers WHERE expires_at <= $1', [now]);
    const [row] = await this.rows<{ n: number }>('SELECT count(*)::int AS n FROM workers WHERE queue = $1', [queue]);
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
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.listenRetry);
    this.wake.removeAllListeners();
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}
