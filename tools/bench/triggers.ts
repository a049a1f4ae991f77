// Benchmark (issue 12): 10,000 nodes created through POST /nodes with one matching trigger on the
// embedded default. Reports what dispatch costs on the API path (the bus hand-off inside the request,
// target ≤ 1 ms, and node-creation latency with the trigger against without), what dispatching one
// event costs off the request path (filter match plus enqueue), and the end-to-end throughput of the
// executions the events started. BENCH_NODES / BENCH_BASELINE / BENCH_CONCURRENCY scale it.
import fs from 'node:fs';
import { startBenchServer } from './api-client.ts';
import type { ExecutionStatus } from '@rhizome/core/automation';

const nodeCount = Number(process.env.BENCH_NODES ?? 10_000);
const baselineCount = Number(process.env.BENCH_BASELINE ?? 2_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const dispatchSamples = 2_000;

const bench = await startBenchServer('triggers');
const { server, dataDir, expectOk } = bench;
const { platform } = server;
const db = (await platform.databases.current()).db;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const ms = (value: number) => `${value.toFixed(3)} ms`;

/** Creates `count` nodes, `concurrency` requests at a time; returns each request's latency. */
async function createNodes(count: number, prefix: string): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const begin = performance.now();
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const started = performance.now();
      await expectOk('POST', '/nodes', { template_id: 'system_template_concept', label: `${prefix} ${index}` }, 201);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, seconds: (performance.now() - begin) / 1000 };
}

const executionCount = async (workflowId: string, status?: ExecutionStatus) => {
  const query = db('workflow_executions').where({ workflow_id: workflowId });
  if (status) query.where({ status });
  return Number(((await query.count({ n: '*' })) as { n: number }[])[0].n);
};

try {
  // Only the benchmark's trigger fires: the seeded auto-embedding trigger is switched off.
  await expectOk('PATCH', '/settings', { embedding: { enable_auto_embedding: false } });
  const baseline = await createNodes(baselineCount, 'Baseline');

  const workflow = (await expectOk(
    'POST',
    '/workflows',
    {
      name: 'Record node',
      steps: [
        {
          id: 'record',
          name: 'record',
          tool_type: 'system_tool',
          tool_id: 'data.merge',
          configuration: { items: [{ node: '{{inputs.entity_id}}' }] },
        },
      ],
    },
    201,
  )) as { id: string };
  await expectOk(
    'POST',
    '/triggers',
    { name: 'On node', event_source: 'node.create', filters: { entity_type: 'node' }, workflow_id: workflow.id },
    201,
  );

  // The request path's share of dispatch: publishing to the bus, which hands the event on with setImmediate.
  const publishTimes: number[] = [];
  // An event source no trigger listens on: the dispatcher looks it up and does nothing more.
  const quiet = {
    source: 'bench.quiet',
    database: platform.databases.currentName(),
    payload: { entity_type: 'node' as const, entity_id: 'none' },
  };
  for (let i = 0; i < 10_000; i++) {
    const started = performance.now();
    platform.graphEvents.publish(quiet as unknown as Parameters<typeof platform.graphEvents.publish>[0]);
    publishTimes.push(performance.now() - started);
  }
  await platform.automation.dispatcher.settled();

  const begin = performance.now();
  const triggered = await createNodes(nodeCount, 'Triggered');
  await platform.automation.dispatcher.settled();
  const queuedSeconds = (performance.now() - begin) / 1000;
  for (;;) {
    const done = (await executionCount(workflow.id, 'completed')) + (await executionCount(workflow.id, 'failed'));
    if (done >= nodeCount) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const endToEndSeconds = (performance.now() - begin) / 1000;
  const failed = await executionCount(workflow.id, 'failed');

  // Dispatching one event off the request path: cached triggers, filter match and the enqueue, awaited one by one.
  const dispatchTimes: number[] = [];
  for (let i = 0; i < dispatchSamples; i++) {
    const started = performance.now();
    await platform.automation.dispatcher.dispatch({
      source: 'node.create',
      database: platform.databases.currentName(),
      payload: { entity_type: 'node', entity_id: `synthetic_${i}` },
    });
    dispatchTimes.push(performance.now() - started);
  }
  // The same, for a burst of events arriving together (as a batch create or a commit publishes them).
  const burstBegin = performance.now();
  await Promise.all(
    Array.from({ length: dispatchSamples }, (_, i) =>
      platform.automation.dispatcher.dispatch({
        source: 'node.create',
        database: platform.databases.currentName(),
        payload: { entity_type: 'node', entity_id: `burst_${i}` },
      }),
    ),
  );
  const burstPerEvent = (performance.now() - burstBegin) / dispatchSamples;
  const unmatched: number[] = [];
  for (let i = 0; i < dispatchSamples; i++) {
    const started = performance.now();
    await platform.automation.dispatcher.dispatch({
      source: 'node.create',
      database: platform.databases.currentName(),
      payload: { entity_type: 'edge', entity_id: `synthetic_${i}` },
    });
    unmatched.push(performance.now() - started);
  }

  console.log(
    `triggers benchmark: ${nodeCount} nodes with one matching trigger (${concurrency} concurrent requests; shared, noisy host)`,
  );
  console.log(
    `  bus publish inside the request:      mean ${ms(mean(publishTimes))}, p99 ${ms(percentile(publishTimes, 99))} (target ≤ 1 ms)`,
  );
  console.log(
    `  POST /nodes without trigger (${baselineCount}): p50 ${ms(percentile(baseline.latencies, 50))}, p99 ${ms(percentile(baseline.latencies, 99))}, ${(baselineCount / baseline.seconds).toFixed(0)} nodes/s`,
  );
  console.log(
    `  POST /nodes with trigger (${nodeCount}):  p50 ${ms(percentile(triggered.latencies, 50))}, p99 ${ms(percentile(triggered.latencies, 99))}, ${(nodeCount / triggered.seconds).toFixed(0)} nodes/s`,
  );
  console.log(
    `  dispatch per event, off the path:    matching ${ms(mean(dispatchTimes))} mean / ${ms(percentile(dispatchTimes, 99))} p99 (incl. enqueue, one at a time); ${ms(burstPerEvent)} per event in a burst of ${dispatchSamples}; not matching ${ms(mean(unmatched))} mean`,
  );
  console.log(
    `  executions: ${nodeCount} queued within ${queuedSeconds.toFixed(1)} s, all finished after ${endToEndSeconds.toFixed(1)} s (${(nodeCount / endToEndSeconds).toFixed(0)} executions/s end to end; ${failed} failed)`,
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
