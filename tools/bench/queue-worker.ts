// The queue benchmark's worker process: runs no-op tasks from the Redis store named in argv, as
// neuron-worker does in the stack while cortex-api enqueues from another process.
import { OperationRegistry, WorkerRuntime } from '@rhizome/queue';
import { RedisTaskStore } from '@rhizome/queue/redis/store';

const [url, prefix] = process.argv.slice(2);
const store = await RedisTaskStore.connect(url, { prefix });
const registry = new OperationRegistry();
registry.define('bench.noop', { queue: 'operations' }, async () => null);
const runtime = new WorkerRuntime({
  store,
  registry,
  logger: { info: () => undefined, warning: () => undefined, error: () => undefined },
  pauseFilter: () => ({ excludeOperations: new Set(), excludeSourceIds: new Set() }),
  settings: () => ({
    concurrency: { operations: 8, llm: 1 },
    resultTtlMs: { operations: 60_000, llm: 60_000 },
    failedTtlMs: 60_000,
  }),
});
runtime.start(['operations']);
console.log('worker ready');
process.on(
  'SIGTERM',
  () =>
    void runtime
      .stop(1000)
      .then(() => store.close())
      .then(() => process.exit(0)),
);
