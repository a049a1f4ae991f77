import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PermanentTaskError } from '../src/errors.ts';
import { OperationRegistry, type TaskHandler } from '../src/registry.ts';
import { WorkerRuntime, type RuntimeSettings } from '../src/runtime.ts';
import { QueueService } from '../src/service.ts';
import type { TaskStore } from '../src/store.ts';
import {
  QueueFullError,
  maxPendingPerQueue,
  type ClaimFilter,
  type NewTask,
  type QueueName,
  type TaskRecord,
} from '../src/task.ts';
import { startPostgres, type TestPostgres } from '../../../tests/support/postgres.ts';
import { startRedis, type TestRedis } from '../../../tests/support/redis.ts';
import { embeddedTarget, openStore, type AdapterTarget, type StoreOptions } from './support/adapters.ts';
import { testRegistry } from './support/test-operations.ts';
import { sleep, until, untilHolds } from '../../../tests/support/wait.ts';

let redis: TestRedis;
let postgres: TestPostgres;
let prefixCounter = 0;
beforeAll(async () => {
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
}, 60_000);
afterAll(() => Promise.all([redis.stop(), postgres.stop()]));

const adapters: [string, () => AdapterTarget][] = [
  ['embedded', embeddedTarget],
  ['redis', () => ({ kind: 'redis', location: redis.url, prefix: `contract${++prefixCounter}` })],
  ['postgres', () => ({ kind: 'postgres', location: postgres.url, prefix: `queue_contract${++prefixCounter}` })],
];

const noFilter: ClaimFilter = { excludeOperations: new Set(), excludeSourceIds: new Set() };
const quietLogger = { info: () => undefined, warning: () => undefined, error: () => undefined };
const settings: RuntimeSettings = {
  concurrency: { operations: 3, llm: 1 },
  resultTtlMs: { operations: 60_000, llm: 30_000 },
  failedTtlMs: 120_000,
};

function newTask(overrides: Partial<NewTask> = {}): NewTask {
  return {
    queue: 'operations',
    operation: 'test.op',
    data: {},
    priority: 50,
    metadata: {},
    payload_version: 1,
    max_tries: 3,
    retry_on_crash: true,
    pausable: false,
    source_id: null,
    ...overrides,
  };
}

async function waitFor(
  store: TaskStore,
  taskId: string,
  wanted: (task: TaskRecord) => boolean,
  timeoutMs = 20_000,
): Promise<TaskRecord> {
  let task: TaskRecord | undefined;
  try {
    return await until(
      async () => {
        task = (await store.get(taskId)) ?? undefined;
        return task && wanted(task) ? task : undefined;
      },
      { timeoutMs, intervalMs: 20 },
    );
  } catch (cause) {
    throw new Error(`task ${taskId} stayed ${task?.status} (attempts ${task?.attempts}): ${task?.error}`, { cause });
  }
}

function waitForStatus(
  store: TaskStore,
  taskId: string,
  status: TaskRecord['status'],
  timeoutMs = 10_000,
): Promise<TaskRecord> {
  return waitFor(store, taskId, (task) => task.status === status, timeoutMs);
}

describe.each(adapters)('task queue contract: %s', (_name, target) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  async function store(options: StoreOptions = {}, at = target()): Promise<TaskStore> {
    const opened = await openStore(at, options);
    cleanups.push(() => opened.close());
    return opened;
  }

  function runtime(
    taskStore: TaskStore,
    registry: OperationRegistry,
    extra: Partial<ConstructorParameters<typeof WorkerRuntime>[0]> = {},
  ): WorkerRuntime {
    const worker = new WorkerRuntime({
      store: taskStore,
      registry,
      settings: () => settings,
      pauseFilter: () => noFilter,
      logger: quietLogger,
      backoff: () => 30,
      idleWaitMs: 50,
      heartbeatIntervalMs: 100,
      ...extra,
    });
    cleanups.push(() => worker.stop(200));
    return worker;
  }

  it('enqueues a queued task with every field of the task model', async () => {
    const queue = await store();
    const task = await queue.enqueue(
      newTask({ data: { a: 1 }, metadata: { source: 'x' }, priority: 70 }),
      Date.parse('2026-01-01T00:00:00Z'),
    );
    expect(task).toMatchObject({
      task_id: expect.stringMatching(/^task_/),
      queue: 'operations',
      operation: 'test.op',
      status: 'queued',
      priority: 70,
      data: { a: 1 },
      metadata: { source: 'x' },
      attempts: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      started_at: null,
      completed_at: null,
      error: null,
      error_type: null,
      payload_version: 1,
    });
    expect(await queue.get(task.task_id)).toEqual(task);
    expect(await queue.get('task_missing')).toBeNull();
  });

  it('claims by priority, then oldest first, never more than asked', async () => {
    const queue = await store();
    const low = await queue.enqueue(newTask({ priority: 0 }), 1);
    const firstMid = await queue.enqueue(newTask({ priority: 50 }), 2);
    const high = await queue.enqueue(newTask({ priority: 100 }), 3);
    const secondMid = await queue.enqueue(newTask({ priority: 50 }), 4);
    await queue.enqueue(newTask({ queue: 'llm', priority: 100 }), 5);
    const claimed = await queue.claim('operations', 3, 'w1', noFilter, 10);
    expect(claimed.map((task) => task.task_id)).toEqual([high.task_id, firstMid.task_id, secondMid.task_id]);
    expect(claimed.every((task) => task.status === 'running' && task.attempts === 1)).toBe(true);
    expect((await queue.claim('operations', 5, 'w1', noFilter, 10)).map((task) => task.task_id)).toEqual([low.task_id]);
    expect(await queue.claim('operations', 5, 'w1', noFilter, 10)).toEqual([]);
  });

  it('lists newest first with totals, and counts queued and running per lane', async () => {
    const queue = await store();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++)
      ids.push((await queue.enqueue(newTask({ queue: n % 2 ? 'llm' : 'operations' }), n + 1)).task_id);
    await queue.claim('operations', 1, 'w', noFilter, 10);
    const page = await queue.list({ offset: 1, limit: 2 });
    expect(page.total).toBe(5);
    expect(page.tasks.map((task) => task.task_id)).toEqual([ids[3], ids[2]]);
    expect((await queue.list({ queues: ['llm'], offset: 0, limit: 10 })).total).toBe(2);
    expect(await queue.counts()).toEqual(
      expect.arrayContaining([
        { queue: 'operations', queued: 2, running: 1 },
        { queue: 'llm', queued: 2, running: 0 },
      ]),
    );
  });

  it('holds back what the claim filter excludes and hands it out later without counting an attempt', async () => {
    const queue = await store();
    const paused = await queue.enqueue(newTask({ operation: 'index', pausable: true }), 1);
    const pausedSource = await queue.enqueue(newTask({ source_id: 'src_1' }), 2);
    const free = await queue.enqueue(newTask(), 3);
    const filter = { excludeOperations: new Set(['index']), excludeSourceIds: new Set(['src_1']) };
    expect((await queue.claim('operations', 5, 'w', filter, 10)).map((task) => task.task_id)).toEqual([free.task_id]);
    // A later claim on the injected clock, with the filter lifted.
    const later = await queue.claim('operations', 5, 'w', noFilter, 10 + 1_200);
    expect(later.map((task) => task.task_id).sort()).toEqual([paused.task_id, pausedSource.task_id].sort());
    expect(later.every((task) => task.attempts === 1)).toBe(true);
  });

  it('runs no more than the lane concurrency at once, and one llm task across two workers', async () => {
    const at = target();
    const llmCap = { globalLimit: (lane: QueueName) => (lane === 'llm' ? 1 : undefined) };
    const queue = await store(llmCap, at);
    const other = await store(llmCap, at);
    let running = 0;
    const peak: Record<QueueName, number> = { operations: 0, llm: 0 };
    const registry = new OperationRegistry();
    const track =
      (lane: QueueName): TaskHandler =>
      async () => {
        running++;
        peak[lane] = Math.max(peak[lane], running);
        await sleep(60);
        running--;
      };
    registry.define('ops', { queue: 'operations' }, track('operations'));
    for (let n = 0; n < 9; n++) await queue.enqueue(newTask({ operation: 'ops' }), Date.now());
    runtime(queue, registry).start(['operations']);
    await untilHolds(
      async () => (await queue.counts()).find((c) => c.queue === 'operations'),
      (counts) => counts?.queued === 0 && counts.running === 0,
      { what: 'the operations lane to drain' },
    );
    expect(peak.operations).toBe(3);

    running = 0;
    const llmRegistry = new OperationRegistry();
    llmRegistry.define('chat', { queue: 'llm' }, track('llm'));
    const llmTasks = [];
    for (let n = 0; n < 4; n++)
      llmTasks.push(await queue.enqueue(newTask({ queue: 'llm', operation: 'chat' }), Date.now()));
    const wide = { ...settings, concurrency: { operations: 3, llm: 3 } };
    runtime(queue, llmRegistry, { settings: () => wide }).start(['llm']);
    runtime(other, llmRegistry, { settings: () => wide }).start(['llm']);
    for (const task of llmTasks) await waitForStatus(queue, task.task_id, 'completed');
    expect(peak.llm).toBe(1);
  });

  it('retries a transient failure with backoff, then completes and keeps the result for the lane retention', async () => {
    const queue = await store();
    const registry = new OperationRegistry();
    const attempts: number[] = [];
    registry.define('flaky', { queue: 'operations' }, async ({ task }) => {
      attempts.push(Date.now());
      if (task.attempts < 3) throw new Error('temporarily unavailable');
      return { answer: 42 };
    });
    const task = await queue.enqueue(newTask({ operation: 'flaky' }), Date.now());
    runtime(queue, registry, { backoff: () => 150 }).start(['operations']);
    const done = await waitForStatus(queue, task.task_id, 'completed');
    expect(done.attempts).toBe(3);
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(140);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(140);
    const completedAt = Date.parse(done.completed_at!);
    expect(await queue.result(task.task_id, completedAt + 59_000)).toEqual({ result: { answer: 42 } });
    expect(await queue.result(task.task_id, completedAt + 61_000)).toBeNull();
  });

  it('fails for good after max_tries transient failures, and at once on a permanent error', async () => {
    const queue = await store();
    const registry = new OperationRegistry();
    registry.define('always', { queue: 'operations' }, async () => {
      throw new TypeError('still broken');
    });
    registry.define('bad', { queue: 'operations' }, async () => {
      throw new PermanentTaskError('the input is not a PDF', 'ValidationError');
    });
    const transient = await queue.enqueue(newTask({ operation: 'always', max_tries: 2 }), Date.now());
    const permanent = await queue.enqueue(newTask({ operation: 'bad' }), Date.now());
    const failures: string[] = [];
    runtime(queue, registry, { onTaskFailed: (task) => failures.push(task.task_id) }).start(['operations']);
    expect(await waitForStatus(queue, transient.task_id, 'failed')).toMatchObject({
      attempts: 2,
      error: 'still broken',
      error_type: 'TypeError',
    });
    expect(await waitForStatus(queue, permanent.task_id, 'failed')).toMatchObject({
      attempts: 1,
      error: 'the input is not a PDF',
      error_type: 'ValidationError',
    });
    expect(await queue.result(permanent.task_id, Date.now())).toBeNull();
    expect(failures.sort()).toEqual([transient.task_id, permanent.task_id].sort());
  });

  it('fails an unknown payload version and an unknown operation permanently, without retrying', async () => {
    const queue = await store();
    const registry = new OperationRegistry();
    let ran = 0;
    registry.define('test.op', { queue: 'operations' }, async () => void ran++);
    const future = await queue.enqueue(newTask({ payload_version: 99 }), Date.now());
    const unknown = await queue.enqueue(newTask({ operation: 'no.such.operation' }), Date.now());
    runtime(queue, registry).start(['operations']);
    expect(await waitForStatus(queue, future.task_id, 'failed')).toMatchObject({
      attempts: 1,
      error_type: 'task_unsupported_payload_version',
    });
    expect(await waitForStatus(queue, unknown.task_id, 'failed')).toMatchObject({
      attempts: 1,
      error_type: 'unknown_operation',
    });
    // Nothing is left to run at any later time: no retry was scheduled.
    expect(await queue.claim('operations', 5, 'w', noFilter, Date.now() + 3_600_000)).toEqual([]);
    expect((await queue.get(future.task_id))!.attempts).toBe(1);
    expect(ran).toBe(0);
  });

  it('cancels a queued task at once and a running one cooperatively', async () => {
    const queue = await store();
    const queued = await queue.enqueue(newTask(), Date.now());
    expect(await queue.cancel(queued.task_id, Date.now())).toBe('cancelled');
    expect((await queue.get(queued.task_id))!.status).toBe('cancelled');
    expect(await queue.claim('operations', 5, 'w', noFilter, Date.now())).toEqual([]);
    expect(await queue.cancel(queued.task_id, Date.now())).toBe('finished');
    expect(await queue.cancel('task_nope', Date.now())).toBe('not_found');

    const registry = testRegistry();
    let stoppedBySignal = false;
    registry.define('loop', { queue: 'operations' }, async ({ checkCancelled, signal }) => {
      signal.addEventListener('abort', () => (stoppedBySignal = true));
      for (;;) {
        await checkCancelled();
        await sleep(10);
      }
    });
    const running = await queue.enqueue(newTask({ operation: 'loop' }), Date.now());
    const worker = runtime(queue, registry);
    worker.start(['operations']);
    await waitForStatus(queue, running.task_id, 'running');
    expect(await queue.cancel(running.task_id, Date.now())).toBe('cancelled');
    await until(() => stoppedBySignal, { what: 'the handler to stop on the cancel signal' });
    // Once the worker has stopped, whatever it wrote after the handler ended is in the store.
    await worker.stop();
    expect((await queue.get(running.task_id))!.status).toBe('cancelled');
  });

  it('stops a running task whose record was cleared after it was cancelled', async () => {
    const queue = await store();
    const registry = new OperationRegistry();
    let stopped = false;
    registry.define('loop', { queue: 'operations' }, async ({ checkCancelled }) => {
      try {
        for (;;) {
          await checkCancelled();
          await sleep(10);
        }
      } finally {
        stopped = true;
      }
    });
    const task = await queue.enqueue(newTask({ operation: 'loop' }), Date.now());
    runtime(queue, registry).start(['operations']);
    await waitForStatus(queue, task.task_id, 'running');
    await queue.cancel(task.task_id, Date.now());
    await queue.clearHistory({ finishedBefore: Number.MAX_SAFE_INTEGER });
    expect(await queue.get(task.task_id)).toBeNull();
    await until(() => stopped, { what: 'the handler of the cleared task to stop' });
  });

  it('cancels every active task of a queue, or those whose metadata matches', async () => {
    const queue = await store();
    const a = await queue.enqueue(newTask({ metadata: { source_id: 's1', kind: 'x' } }), 1);
    const b = await queue.enqueue(newTask({ metadata: { source_id: 's2' } }), 2);
    const c = await queue.enqueue(newTask({ queue: 'llm', metadata: { source_id: 's1' } }), 3);
    expect(await queue.cancelMatching({ metadata: { source_id: 's1' }, queue: 'operations' }, 10)).toBe(1);
    expect((await queue.get(a.task_id))!.status).toBe('cancelled');
    expect((await queue.get(c.task_id))!.status).toBe('queued');
    expect(await queue.cancelMatching({ metadata: { missing: 'key' } }, 10)).toBe(0);
    expect(await queue.cancelMatching({ queue: 'llm' }, 10)).toBe(1);
    expect(await queue.cancelMatching({}, 10)).toBe(1);
    expect((await queue.get(b.task_id))!.status).toBe('cancelled');
  });

  it('retries a failed task as a new task with the same parameters', async () => {
    const queue = await store();
    const service = new QueueService(queue, new OperationRegistry(), () => ({ operations: 5, llm: 5 }));
    const original = await service.submit({
      queue: 'llm',
      operation: 'summarise',
      data: { text: 'x' },
      priority: 80,
      metadata: { m: 1 },
    });
    await queue.claim('llm', 1, 'w', noFilter, Date.now());
    await queue.fail(original.task_id, 'w', { message: 'boom', type: 'Error' }, null, Date.now() + 1000, Date.now());
    const { new_task_id, original_task_id } = await service.retry(original.task_id);
    expect(original_task_id).toBe(original.task_id);
    expect(await queue.get(new_task_id)).toMatchObject({
      status: 'queued',
      queue: 'llm',
      operation: 'summarise',
      data: { text: 'x' },
      priority: 80,
      metadata: { m: 1 },
      attempts: 0,
      retry_of: original.task_id,
    });
    expect(await queue.get(original.task_id)).toMatchObject({ status: 'failed', retried_to: new_task_id });
    await expect(service.retry(new_task_id)).rejects.toThrow(/only failed tasks/);
  });

  it('takes a fractional retry or release time (a jittered backoff), due from the next millisecond', async () => {
    const queue = await store();
    const task = await queue.enqueue(newTask(), 1_000);
    await queue.claim('operations', 1, 'w', noFilter, 1_000);
    expect(await queue.fail(task.task_id, 'w', { message: 'flaky', type: 'transient' }, 1_500.25, 0, 1_000.5)).toBe(
      true,
    );
    expect(await queue.claim('operations', 1, 'w', noFilter, 1_500)).toEqual([]);
    expect((await queue.claim('operations', 1, 'w', noFilter, 1_501)).map((t) => t.task_id)).toEqual([task.task_id]);
    await queue.release(task.task_id, 'w', 2_000.75);
    expect(await queue.claim('operations', 1, 'w', noFilter, 2_000)).toEqual([]);
    expect((await queue.claim('operations', 1, 'w', noFilter, 2_001)).map((t) => t.task_id)).toEqual([task.task_id]);
  });

  it('refuses writes from a worker whose claim is gone', async () => {
    const queue = await store();
    const task = await queue.enqueue(newTask(), 1);
    await queue.claim('operations', 1, 'w1', noFilter, 2);
    expect(await queue.complete(task.task_id, 'w2', 'x', 100, 3)).toBe(false);
    await queue.cancel(task.task_id, 4);
    expect(await queue.complete(task.task_id, 'w1', 'x', 100, 5)).toBe(false);
    expect(await queue.fail(task.task_id, 'w1', { message: 'm', type: 't' }, null, 100, 5)).toBe(false);
    expect((await queue.get(task.task_id))!.status).toBe('cancelled');
  });

  it('clears history older than a cut-off and purges expired post-mortems', async () => {
    const queue = await store();
    const old = await queue.enqueue(newTask(), 1);
    const recent = await queue.enqueue(newTask(), 2);
    const active = await queue.enqueue(newTask(), 3);
    await queue.claim('operations', 2, 'w', noFilter, 10);
    await queue.complete(old.task_id, 'w', null, 10_000, 1_000);
    await queue.fail(recent.task_id, 'w', { message: 'm', type: 't' }, null, 50_000, 5_000);
    expect(await queue.clearHistory({ finishedBefore: 2_000 })).toBe(1);
    expect(await queue.get(old.task_id)).toBeNull();
    expect(await queue.purgeExpired(49_999)).toBe(0);
    expect(await queue.purgeExpired(50_000)).toBe(1);
    expect(await queue.get(recent.task_id)).toBeNull();
    expect((await queue.get(active.task_id))!.status).toBe('queued');
  });

  /** A real worker process (support/worker-child.ts) on the queue at `at`. */
  function workerProcess(at: AdapterTarget) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'support/worker-child.ts'), JSON.stringify(at)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const kill = async () => {
      child.kill('SIGKILL');
      await exited;
    };
    cleanups.push(kill);
    return { child, kill };
  }

  it('recovers tasks abandoned by a worker process killed with SIGKILL', async () => {
    const at = target();
    const queue = await store({}, at);
    const registry = testRegistry();
    const service = new QueueService(queue, registry, () => ({ operations: 5, llm: 5 }));
    const retried = await service.submit({ queue: 'operations', operation: 'test.block', data: {} });
    const once = await service.submit({ queue: 'operations', operation: 'test.block_once', data: {} });
    const worker = workerProcess(at);
    await waitForStatus(queue, retried.task_id, 'running', 20_000);
    await waitForStatus(queue, once.task_id, 'running', 20_000);
    await worker.kill();

    expect((await queue.reconcile('operations', 60_000, Date.now())).counts).toEqual({
      recovered_orphans: 0,
      recovered_crashed: 1,
      failed_unrecoverable: 1,
    });
    expect(await queue.get(retried.task_id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await queue.get(once.task_id)).toMatchObject({ status: 'failed', error_type: 'worker_crashed' });
    expect((await queue.reconcile('operations', 60_000, Date.now())).counts).toEqual({
      recovered_orphans: 0,
      recovered_crashed: 0,
      failed_unrecoverable: 0,
    });
  }, 40_000);

  it('fails a task as crashed_twice when its worker process is killed twice under it, and the next worker stays up', async () => {
    const at = target();
    const queue = await store({}, at);
    const service = new QueueService(queue, testRegistry(), () => ({ operations: 5, llm: 5 }));
    const task = await service.submit({ queue: 'operations', operation: 'test.block', data: {} });
    for (let crash = 1; crash <= 2; crash++) {
      // Each new worker reconciles at start: the first kill puts the task back, so the second worker runs it again.
      const worker = workerProcess(at);
      await waitFor(queue, task.task_id, (record) => record.status === 'running' && record.attempts === crash);
      await worker.kill();
    }
    const survivor = workerProcess(at);
    const failed = await waitForStatus(queue, task.task_id, 'failed', 20_000);
    expect(failed.error_type).toBe('crashed_twice');
    expect(failed.error).toMatch(
      /stopped 2 times before it finished, so it is not run again \(last run: attempt 2, worker [^,]+:\d+:/,
    );
    expect(failed.attempts).toBe(2);
    const after = await service.submit({ queue: 'operations', operation: 'test.quick', data: {} });
    await waitForStatus(queue, after.task_id, 'completed', 20_000);
    expect(survivor.child.exitCode).toBeNull();
    expect(await queue.get(task.task_id)).toMatchObject({ status: 'failed', attempts: 2 });
  }, 90_000);

  it('fails a task whose handler lets an error escape, and the worker process stays up', async () => {
    const at = target();
    const queue = await store({}, at);
    const service = new QueueService(queue, testRegistry(), () => ({ operations: 5, llm: 5 }));
    const worker = workerProcess(at);
    const escaped = await service.submit({ queue: 'operations', operation: 'test.escape', data: {} });
    const thrown = await service.submit({ queue: 'operations', operation: 'test.throw_in_callback', data: {} });
    expect(await waitForStatus(queue, escaped.task_id, 'failed', 20_000)).toMatchObject({
      error_type: 'uncaught_error',
      error: 'write after the stream was destroyed',
      attempts: 1,
    });
    expect(await waitForStatus(queue, thrown.task_id, 'failed', 20_000)).toMatchObject({
      error_type: 'uncaught_error',
      error: 'thrown in a timer callback',
    });
    const after = await service.submit({ queue: 'operations', operation: 'test.quick', data: {} });
    await waitForStatus(queue, after.task_id, 'completed', 20_000);
    expect(worker.child.exitCode).toBeNull();
  }, 60_000);

  it("settles a failed task's work at once, whether its handler failed or the reconciler failed it", async () => {
    const queue = await store();
    const settled: string[] = [];
    const registry = new OperationRegistry();
    const settle = async (task: TaskRecord, failure: { type: string }) => {
      settled.push(`${task.task_id} ${failure.type}`);
    };
    registry.define(
      'bad',
      { queue: 'operations' },
      async () => {
        throw new PermanentTaskError('the input is not a PDF', 'ValidationError');
      },
      settle,
    );
    registry.define('abandoned', { queue: 'operations' }, async () => undefined, settle);
    // Abandoned by a silent worker once, re-queued, then abandoned again: the runtime's reconcile fails it.
    const abandoned = await queue.enqueue(newTask({ operation: 'abandoned' }), 1);
    await queue.claim('operations', 1, 'gone:1:a', noFilter, 1);
    await queue.reconcile(undefined, 30_000, 60_000);
    await queue.claim('operations', 1, 'gone:2:b', noFilter, 60_000);
    const bad = await queue.enqueue(newTask({ operation: 'bad' }), Date.now());
    runtime(queue, registry).start(['operations']);
    await waitForStatus(queue, bad.task_id, 'failed');
    expect(await waitForStatus(queue, abandoned.task_id, 'failed')).toMatchObject({ error_type: 'crashed_twice' });
    await until(() => settled.length === 2);
    expect(settled.sort()).toEqual([`${abandoned.task_id} crashed_twice`, `${bad.task_id} ValidationError`].sort());
  });

  it('treats a running task without a heartbeat for the timeout as abandoned', async () => {
    const queue = await store();
    const task = await queue.enqueue(newTask({ max_tries: 1 }), 1);
    await queue.claim('operations', 1, 'elsewhere:1:w', noFilter, 1_000);
    await queue.heartbeat([task.task_id], 'elsewhere:1:w', 5_000);
    expect((await queue.reconcile(undefined, 30_000, 30_000)).counts).toMatchObject({
      recovered_crashed: 0,
      failed_unrecoverable: 0,
    });
    expect((await queue.reconcile(undefined, 30_000, 35_001)).counts).toMatchObject({ failed_unrecoverable: 1 });
  });

  it('counts a worker while its health mark lives', async () => {
    const queue = await store();
    await queue.reportWorker('llm', 'w1', 1_000, 10_000);
    expect(await queue.workerCount('llm', 10_500)).toBe(1);
    expect(await queue.workerCount('operations', 10_500)).toBe(0);
    expect(await queue.workerCount('llm', 11_001)).toBe(0);
  });

  it('starts nothing paused while letting running tasks finish', async () => {
    const queue = await store();
    const registry = new OperationRegistry();
    let release: () => void = () => undefined;
    registry.define(
      'extract',
      { queue: 'operations', pausable: true },
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const first = await queue.enqueue(newTask({ operation: 'extract', pausable: true }), Date.now());
    let paused = false;
    let claims = 0;
    const pauseFilter = () => {
      claims++;
      return { excludeOperations: new Set(paused ? ['extract'] : []), excludeSourceIds: new Set<string>() };
    };
    // Settles once the worker has claimed twice more: whatever it was going to take, it has looked at.
    const twoMoreClaims = async () => {
      const seen = claims;
      await untilHolds(
        () => claims,
        (count) => count > seen + 1,
        { what: 'two more claims' },
      );
    };
    runtime(queue, registry, { pauseFilter }).start(['operations']);
    await waitForStatus(queue, first.task_id, 'running');
    paused = true;
    const second = await queue.enqueue(newTask({ operation: 'extract', pausable: true }), Date.now());
    await twoMoreClaims();
    expect((await queue.get(second.task_id))!.status).toBe('queued');
    release();
    await waitForStatus(queue, first.task_id, 'completed');
    await twoMoreClaims();
    expect((await queue.get(second.task_id))!.status).toBe('queued');
    paused = false;
    await waitForStatus(queue, second.task_id, 'running', 5_000);
    release();
  });

  it(`refuses the ${maxPendingPerQueue + 1}th pending task of a lane`, async () => {
    const queue = await store();
    // Enqueued together, so a backend batches them, as under load: every one fits, the next does not.
    const filled = await Promise.allSettled(
      Array.from({ length: maxPendingPerQueue }, (_, n) => queue.enqueue(newTask(), n)),
    );
    expect(filled.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect((await queue.counts()).find((lane) => lane.queue === 'operations')!.queued).toBe(maxPendingPerQueue);
    await expect(queue.enqueue(newTask(), 1)).rejects.toBeInstanceOf(QueueFullError);
    await expect(queue.enqueue(newTask({ queue: 'llm' }), 1)).resolves.toMatchObject({ status: 'queued' });
  }, 60_000);
});
