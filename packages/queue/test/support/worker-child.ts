// A real worker process for crash tests: runs the test operations against the queue named in argv.
import { WorkerRuntime } from '../../src/runtime.ts';
import { openStore, type AdapterTarget } from './adapters.ts';
import { testRegistry } from './test-operations.ts';

const target = JSON.parse(process.argv[2]) as AdapterTarget;
const store = await openStore(target);
const runtime = new WorkerRuntime({
  store,
  registry: testRegistry(),
  settings: () => ({
    concurrency: { operations: 4, llm: 1 },
    resultTtlMs: { operations: 60_000, llm: 60_000 },
    failedTtlMs: 60_000,
  }),
  pauseFilter: () => ({ excludeOperations: new Set(), excludeSourceIds: new Set() }),
  logger: { info: () => undefined, warning: () => undefined, error: () => undefined },
  heartbeatIntervalMs: 200,
});
runtime.start(['operations']);
console.log(`worker ready ${runtime.workerId}`);
