// Benchmark (issue 3): no-op task throughput (enqueue + complete) and idle pickup latency, embedded
// SQLite queue vs Redis/Valkey, in one run. Targets: embedded ≥ 2,000 tasks/s, Redis ≥ 5,000 tasks/s,
// pickup p99 ≤ 50 ms when idle.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  EmbeddedTaskStore,
  OperationRegistry,
  QueueFullError,
  QueueService,
  WorkerRuntime,
  type TaskStore,
} from '@rhizome/queue';
import { startRedis } from '../../tests/support/redis.ts';

const throughputTasks = Number(process.env.BENCH_TASKS ?? 20_000);
const latencySamples = 300;
const quiet = { info: () => undefined, warning: () => undefined, error: () => undefined };

interface Figures {
  tasksPerSecond: number;
  pickupP50Ms: number;
  pickupP99Ms: number;
}

async function measure(store: TaskStore): Promise<Figures> {
  const registry = new OperationRegistry();
  const started = new Map<string, number>();
  let completed = 0;
  let allDone: () => void = () => undefined;
  registry.define('bench.noop', { queue: 'operations' }, async ({ task }) => {
    started.set(task.task_id, Date.now());
    if (++completed === target) allDone();
    return null;
  });
  let target = throughputTasks;
  const runtime = new WorkerRuntime({
    store,
    registry,
    logger: quiet,
    pauseFilter: () => ({ excludeOperations: new Set(), excludeSourceIds: new Set() }),
    settings: () => ({
      concurrency: { operations: 8, llm: 1 },
      resultTtlMs: { operations: 60_000, llm: 60_000 },
      failedTtlMs: 60_000,
    }),
  });
  const queue = new QueueService(store, registry, () => ({ operations: 5, llm: 5 }));
  runtime.start(['operations']);

  const finished = new Promise<void>((resolve) => (allDone = resolve));
  const begin = performance.now();
  const producers = 16;
  await Promise.all(
    Array.from({ length: producers }, async (_, producer) => {
      for (let n = producer; n < throughputTasks; n += producers) await submitWithBackpressure(queue);
    }),
  );
  await finished;
  const tasksPerSecond = Math.round(throughputTasks / ((performance.now() - begin) / 1000));
  await waitIdle(store);

  completed = 0;
  target = Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  for (let n = 0; n < latencySamples; n++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const task = await queue.submit({ queue: 'operations', operation: 'bench.noop', data: {} });
    const enqueuedAt = Date.parse(task.created_at);
    while (!started.has(task.task_id)) await new Promise((resolve) => setImmediate(resolve));
    latencies.push(started.get(task.task_id)! - enqueuedAt);
  }
  await runtime.stop(1000);
  latencies.sort((a, b) => a - b);
  return {
    tasksPerSecond,
    pickupP50Ms: latencies[Math.floor(latencies.length * 0.5)],
    pickupP99Ms: latencies[Math.floor(latencies.length * 0.99)],
  };
}

/** A full lane answers 503; a real client waits and tries again, and so does the benchmark's producer. */
async function submitWithBackpressure(queue: QueueService): Promise<void> {
  for (;;) {
    try {
      await queue.submit({ queue: 'operations', operation: 'bench.noop', data: {} });
      return;
    } catch (error) {
      if (!(error instanceof QueueFullError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

async function waitIdle(store: TaskStore): Promise<void> {
  for (;;) {
    const counts = await store.counts();
    if (counts.every((lane) => lane.queued === 0 && lane.running === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function print(label: string, figures: Figures, target: number): void {
  console.log(
    `${label.padEnd(10)} ${String(figures.tasksPerSecond).padStart(6)} tasks/s (target ≥ ${target})  pickup p50 ${figures.pickupP50Ms} ms  p99 ${figures.pickupP99Ms} ms (target ≤ 50)`,
  );
}

console.log(
  `queue benchmark: ${throughputTasks} no-op tasks, 16 producers, 8 concurrent handlers; ${latencySamples} idle pickups; node ${process.version}`,
);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-queue-bench-'));
const embedded = await EmbeddedTaskStore.open(path.join(dir, 'queue.db'));
print('embedded', await measure(embedded), 2000);
await embedded.close();
fs.rmSync(dir, { recursive: true, force: true });

const redis = await startRedis();
try {
  const { RedisTaskStore } = await import('@rhizome/queue/redis/store');
  const store = await RedisTaskStore.connect(redis.url, { prefix: 'bench' });
  print('redis', await measure(store), 5000);
  await store.close();
  for (const workers of [1, 2]) {
    // A prefix per run: each measurement starts from an empty queue.
    const prefix = `bench-split-${workers}`;
    const producers = await RedisTaskStore.connect(redis.url, { prefix });
    const rate = await measureSplit(producers, redis.url, prefix, workers);
    console.log(
      `redis, ${workers} worker process(es) beside the producers (as in the stack): ${rate} tasks/s (target ≥ 5000)`,
    );
    await producers.close();
  }
} finally {
  await redis.stop();
}

/** Producers here, the worker in a child process: enqueue-to-all-completed throughput. */
async function measureSplit(store: TaskStore, url: string, prefix: string, count: number): Promise<number> {
  const workers = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'queue-worker.ts'), url, prefix], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) =>
          worker.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('worker ready') && resolve()),
        ),
    ),
  );
  const queue = new QueueService(store, new OperationRegistry(), () => ({ operations: 5, llm: 5 }));
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async (_, producer) => {
      for (let n = producer; n < throughputTasks; n += 16) await submitWithBackpressure(queue);
    }),
  );
  await waitIdle(store);
  const rate = Math.round(throughputTasks / ((performance.now() - begin) / 1000));
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise((resolve) => {
          worker.once('exit', resolve);
          worker.kill('SIGTERM');
        }),
    ),
  );
  return rate;
}
