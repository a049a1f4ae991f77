import { spawn } from 'node:child_process';
import os from 'node:os';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore, type RedisStoreOptions } from '../src/redis/store.ts';
import { QueueUnavailableError, type ClaimFilter, type NewTask, type QueueName } from '../src/task.ts';
import { startRedis, type TestRedis } from '../../../tests/support/redis.ts';
import { sleep } from '../../../tests/support/wait.ts';

let redis: TestRedis;
let admin: Redis;
let prefixCounter = 0;
beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  admin.disconnect();
  await redis.stop();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const noFilter: ClaimFilter = { excludeOperations: new Set(), excludeSourceIds: new Set() };

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

async function connect(options: RedisStoreOptions = {}, url = redis.url): Promise<RedisTaskStore> {
  const store = await RedisTaskStore.connect(url, { prefix: `redis-test${++prefixCounter}`, ...options });
  cleanups.push(() => store.close());
  return store;
}

/** The sizes of a lane's scheduling sets, to check that no entry outlives its task's state. */
async function laneSets(prefix: string, lane: QueueName): Promise<Record<string, number>> {
  const base = `${prefix}:queue:${lane}`;
  const [pending, deferred, queued, running] = await Promise.all([
    admin.zcard(`${base}:pending`),
    admin.zcard(`${base}:deferred`),
    admin.scard(`${base}:queued`),
    admin.scard(`${base}:running`),
  ]);
  return { pending, deferred, queued, running };
}

const emptyLane = { pending: 0, deferred: 0, queued: 0, running: 0 };

describe('RedisTaskStore', () => {
  it('claims priority 0-100 higher first and FIFO within a priority', async () => {
    const store = await connect();
    const order = [0, 50, 100, 0, 50, 100, 1, 99];
    const ids: string[] = [];
    for (const [index, priority] of order.entries())
      ids.push((await store.enqueue(newTask({ priority }), index)).task_id);
    const claimed: string[] = [];
    // One at a time, so the order is the pending set's and not that of one claimed batch.
    for (let round = 0; round < order.length; round++)
      claimed.push(...(await store.claim('operations', 1, 'w', noFilter, 100)).map((task) => task.task_id));
    expect(claimed).toEqual([ids[2], ids[5], ids[7], ids[1], ids[4], ids[6], ids[0], ids[3]]);
    expect(await store.claim('operations', 1, 'w', noFilter, 100)).toEqual([]);
  });

  it('hands back what the claim filter excludes, uncounted, without blocking the lane behind it', async () => {
    const store = await connect({ globalLimit: (lane) => (lane === 'llm' ? 1 : undefined) });
    const excluded = await store.enqueue(newTask({ queue: 'llm', operation: 'extract', priority: 100 }), 1);
    const ofPausedSource = await store.enqueue(newTask({ queue: 'llm', source_id: 'src_1', priority: 90 }), 2);
    const free = await store.enqueue(newTask({ queue: 'llm', priority: 10 }), 3);
    const filter = { excludeOperations: new Set(['extract']), excludeSourceIds: new Set(['src_1']) };

    // The llm lane runs one task at a time across processes; held-back jobs must not occupy that slot.
    expect((await store.claim('llm', 1, 'w', filter, 10)).map((task) => task.task_id)).toEqual([free.task_id]);
    expect(await store.claim('llm', 1, 'w', filter, 10)).toEqual([]);
    for (const task of [excluded, ofPausedSource])
      expect(await store.get(task.task_id)).toMatchObject({ status: 'queued', attempts: 0 });
    await store.complete(free.task_id, 'w', null, 1_000, 11);

    // Processing resumes while the source stays paused.
    const [first] = await store.claim('llm', 1, 'w', { ...filter, excludeOperations: new Set() }, 12);
    expect(first).toMatchObject({ task_id: excluded.task_id, attempts: 1 });
    await store.complete(first.task_id, 'w', null, 1_000, 13);
    expect(await store.claim('llm', 1, 'w', { ...filter, excludeOperations: new Set() }, 14)).toEqual([]);
    const [second] = await store.claim('llm', 1, 'w', noFilter, 15);
    expect(second).toMatchObject({ task_id: ofPausedSource.task_id, attempts: 1 });
  });

  it('refuses every worker write after a cancel and frees the lane slot at once', async () => {
    const prefix = `redis-test${++prefixCounter}`;
    const store = await connect({ prefix, globalLimit: (lane) => (lane === 'llm' ? 1 : undefined) });
    const task = await store.enqueue(newTask({ queue: 'llm' }), 1);
    const next = await store.enqueue(newTask({ queue: 'llm' }), 2);
    await store.claim('llm', 1, 'w1', noFilter, 3);
    expect(await store.claim('llm', 1, 'w2', noFilter, 3)).toEqual([]);

    expect(await store.cancel(task.task_id, 4)).toBe('cancelled');
    expect(await store.isCancelRequested(task.task_id)).toBe(true);
    await store.heartbeat([task.task_id], 'w1', 5);
    await store.release(task.task_id, 'w1', 0);
    expect(await store.complete(task.task_id, 'w1', 'late', 1_000, 6)).toBe(false);
    expect(await store.fail(task.task_id, 'w1', { message: 'm', type: 't' }, 7, 1_000, 6)).toBe(false);
    expect(await store.fail(task.task_id, 'w1', { message: 'm', type: 't' }, null, 1_000, 6)).toBe(false);
    expect(await store.get(task.task_id)).toMatchObject({ status: 'cancelled', attempts: 1, error: null });
    expect(await store.result(task.task_id, 7)).toBeNull();

    expect((await store.claim('llm', 1, 'w2', noFilter, 8)).map((claimed) => claimed.task_id)).toEqual([next.task_id]);
    await store.complete(next.task_id, 'w2', null, 1_000, 9);
    expect(await laneSets(prefix, 'llm')).toEqual(emptyLane);
  });

  it('caps a lane for a process without the globalLimit option by the limit another one stored', async () => {
    const prefix = `redis-test${++prefixCounter}`;
    await connect({ prefix, globalLimit: (lane) => (lane === 'llm' ? 1 : undefined) });
    const plain = await connect({ prefix });
    for (let n = 0; n < 3; n++) await plain.enqueue(newTask({ queue: 'llm' }), n);
    expect(await plain.claim('llm', 3, 'w', noFilter, 5)).toHaveLength(1);
    expect(await plain.claim('llm', 3, 'w', noFilter, 5)).toEqual([]);
    expect(await plain.claim('operations', 3, 'w', noFilter, 5)).toEqual([]);
  });

  it('puts a retried task back at its old place among its priority', async () => {
    const store = await connect();
    const first = await store.enqueue(newTask(), 1);
    const second = await store.enqueue(newTask(), 2);
    await store.claim('operations', 1, 'w', noFilter, 3);
    await store.fail(first.task_id, 'w', { message: 'again', type: 'Error' }, 4, 0, 3);
    expect((await store.claim('operations', 5, 'w', noFilter, 4)).map((task) => task.task_id)).toEqual([
      first.task_id,
      second.task_id,
    ]);
  });

  it('runs an abandoned task once more after reconcile, never twice', async () => {
    const prefix = `redis-test${++prefixCounter}`;
    const store = await connect({ prefix });
    const other = await connect({ prefix });
    const task = await store.enqueue(newTask(), 1);
    await store.claim('operations', 1, 'gone:1:a', noFilter, 1_000);

    expect((await other.reconcile('operations', 30_000, 20_000)).counts).toEqual({
      recovered_orphans: 0,
      recovered_crashed: 0,
      failed_unrecoverable: 0,
    });
    expect((await other.reconcile('operations', 30_000, 40_000)).counts).toEqual({
      recovered_orphans: 0,
      recovered_crashed: 1,
      failed_unrecoverable: 0,
    });
    expect(await store.get(task.task_id)).toMatchObject({ status: 'queued', attempts: 1 });

    const claims = await Promise.all([
      store.claim('operations', 5, 'b', noFilter, 41_000),
      other.claim('operations', 5, 'c', noFilter, 41_000),
    ]);
    expect(claims.flat().map((claimed) => claimed.task_id)).toEqual([task.task_id]);
    const winner = claims[0].length ? 'b' : 'c';
    expect(await store.claim('operations', 5, 'd', noFilter, 42_000)).toEqual([]);
    expect(await store.complete(task.task_id, 'gone:1:a', 'stale', 100_000, 43_000)).toBe(false);
    expect(await store.complete(task.task_id, winner, 'fresh', 100_000, 43_000)).toBe(true);
    expect(await store.result(task.task_id, 43_001)).toEqual({ result: 'fresh' });
    expect(await laneSets(prefix, 'operations')).toEqual(emptyLane);
  });

  it('recognises a dead worker process on this host before its heartbeat times out', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    const store = await connect();
    const task = await store.enqueue(newTask({ retry_on_crash: false }), 1);
    await store.claim('operations', 1, `${os.hostname()}:${child.pid}:x`, noFilter, 2);
    expect((await store.reconcile(undefined, 60_000, 3)).counts).toEqual({
      recovered_orphans: 0,
      recovered_crashed: 0,
      failed_unrecoverable: 1,
    });
    expect(await store.get(task.task_id)).toMatchObject({ status: 'failed', error_type: 'worker_crashed' });
  });

  it('drops a running entry whose task hash is gone', async () => {
    const prefix = `redis-test${++prefixCounter}`;
    const store = await connect({ prefix });
    const task = await store.enqueue(newTask(), 1);
    await store.claim('operations', 1, 'w', noFilter, 2);
    await admin.del(`${prefix}:task:${task.task_id}`);
    expect((await store.reconcile('operations', 60_000, 3)).counts).toEqual({
      recovered_orphans: 1,
      recovered_crashed: 0,
      failed_unrecoverable: 0,
    });
    expect(await store.counts()).toContainEqual({ queue: 'operations', queued: 0, running: 0 });
    expect(await laneSets(prefix, 'operations')).toEqual(emptyLane);
  });

  it('keeps a retried task back until run_after on the caller clock, however little real time passed', async () => {
    const store = await connect();
    const task = await store.enqueue(newTask(), 1_000);
    await store.claim('operations', 1, 'w', noFilter, 1_000);
    expect(await store.fail(task.task_id, 'w', { message: 'try later', type: 'Error' }, 3_601_000, 0, 1_000)).toBe(
      true,
    );
    expect(await store.claim('operations', 1, 'w', noFilter, 3_600_999)).toEqual([]);
    expect(await store.claim('operations', 1, 'w', noFilter, 3_601_000)).toMatchObject([
      { task_id: task.task_id, attempts: 2, error: 'try later' },
    ]);
  });

  it('wakes an idle claimer in another process well within 50 ms of an enqueue', async () => {
    const prefix = `redis-test${++prefixCounter}`;
    const producer = await connect({ prefix });
    const consumer = await connect({ prefix });
    const latencies: number[] = [];
    for (let round = 0; round < 5; round++) {
      const waiting = consumer.waitForWork('llm', 5_000);
      await sleep(20);
      const started = performance.now();
      await producer.enqueue(newTask({ queue: 'llm' }), Date.now());
      await waiting;
      latencies.push(performance.now() - started);
      expect(await consumer.claim('llm', 1, 'w', noFilter, Date.now())).toHaveLength(1);
    }
    expect(Math.max(...latencies)).toBeLessThan(50);
  });

  it('keeps stores with different prefixes apart on one server', async () => {
    const a = await connect({ prefix: `iso-a${++prefixCounter}` });
    const b = await connect({ prefix: `iso-b${prefixCounter}` });
    const task = await a.enqueue(newTask(), 1);
    expect(await b.get(task.task_id)).toBeNull();
    expect((await b.list({ offset: 0, limit: 10 })).total).toBe(0);
    expect(await b.claim('operations', 5, 'w', noFilter, 2)).toEqual([]);
    expect(await b.cancel(task.task_id, 2)).toBe('not_found');
    expect((await a.claim('operations', 5, 'w', noFilter, 2)).map((claimed) => claimed.task_id)).toEqual([
      task.task_id,
    ]);
  });

  it('fails fast with QueueUnavailableError when Redis is down', async () => {
    const own = await startRedis();
    cleanups.push(() => own.stop());
    const store = await connect({}, own.url);
    const task = await store.enqueue(newTask(), 1);
    await own.stop();

    const calls: [string, () => Promise<unknown>][] = [
      ['enqueue', () => store.enqueue(newTask(), 2)],
      ['get', () => store.get(task.task_id)],
      ['claim', () => store.claim('operations', 1, 'w', noFilter, 2)],
      ['complete', () => store.complete(task.task_id, 'w', null, 10, 2)],
      ['counts', () => store.counts()],
      ['ping', () => store.ping()],
    ];
    for (const [name, call] of calls) {
      const started = performance.now();
      await expect(call(), name).rejects.toBeInstanceOf(QueueUnavailableError);
      expect(performance.now() - started, name).toBeLessThan(1_000);
    }
    const started = performance.now();
    await expect(RedisTaskStore.connect(own.url)).rejects.toBeInstanceOf(QueueUnavailableError);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
