// Benchmark (issue 4): build a graph of 100,000 nodes / 300,000 edges through POST /nodes/batch and
// POST /edges/batch on the embedded default (report nodes/s, edges/s), then latency of the graph reads:
// GET /graph/canvas at the default caps (5,000 / 15,000; target p50 ≤ 150 ms), GET /nodes?page_size=1000
// (≤ 100 ms) and GET /nodes/{id}/connections on a node with 1,000 edges (≤ 50 ms).
// BENCH_NODES / BENCH_EDGES / BENCH_BATCH scale it; BENCH_SAMPLES sets the requests per figure.
import fs from 'node:fs';
import os from 'node:os';
import { startBenchServer } from './api-client.ts';
import { seededRandom } from './harness.ts';

const nodeCount = Number(process.env.BENCH_NODES ?? 100_000);
const edgeCount = Number(process.env.BENCH_EDGES ?? 300_000);
const batchSize = Number(process.env.BENCH_BATCH ?? 5_000);
const samples = Number(process.env.BENCH_SAMPLES ?? 20);
const hubDegree = 1_000;
const person = 'system_template_person';
const link = 'system_template_link';

const random = seededRandom(20_260_101);
const { server, dataDir, expectOk } = await startBenchServer('graph');

interface BatchResult {
  results: { index: number; success: boolean; id?: string; error?: string }[];
  succeeded: number;
  failed: number;
}

async function waitForResult(taskId: string): Promise<BatchResult> {
  for (;;) {
    const task = (await expectOk('GET', `/queue/tasks/${taskId}`)) as { status: string; error: string | null };
    if (task.status === 'completed')
      return ((await expectOk('GET', `/queue/tasks/${taskId}/result`)) as { result: BatchResult }).result;
    if (task.status === 'failed' || task.status === 'cancelled')
      throw new Error(`task ${taskId} ${task.status}: ${task.error}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Submits every batch (the lane runs them as its concurrency allows), then collects them in order. */
async function runBatches(
  endpoint: string,
  operations: { operation: 'create'; data: Record<string, unknown> }[],
): Promise<{ ids: string[]; seconds: number }> {
  const begin = performance.now();
  const taskIds: string[] = [];
  for (let start = 0; start < operations.length; start += batchSize) {
    const queued = (await expectOk(
      'POST',
      endpoint,
      { operations: operations.slice(start, start + batchSize) },
      202,
    )) as { task_id: string };
    taskIds.push(queued.task_id);
  }
  const ids: string[] = [];
  let reported = 0;
  for (const taskId of taskIds) {
    const result = await waitForResult(taskId);
    if (result.failed)
      throw new Error(
        `${endpoint}: ${result.failed} operations failed, e.g. ${result.results.find((entry) => !entry.success)?.error}`,
      );
    for (const entry of result.results) ids.push(entry.id!);
    // Cumulative rate every quarter of the way: shows whether it holds up as the graph grows (batches
    // run concurrently and are collected in order, so per-batch rates would mislead).
    if (ids.length - reported >= operations.length / 4 || ids.length === operations.length) {
      console.log(
        `  ${endpoint}: ${ids.length} done, ${Math.round(ids.length / ((performance.now() - begin) / 1000))}/s so far`,
      );
      reported = ids.length;
    }
  }
  return { ids, seconds: (performance.now() - begin) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
}

async function measure(
  label: string,
  target: number | null,
  request: (n: number) => Promise<void>,
  before?: (n: number) => Promise<void>,
): Promise<void> {
  await request(-1); // warm-up (connection, JIT); not counted
  const times: number[] = [];
  for (let n = 0; n < samples; n++) {
    await before?.(n);
    const begin = performance.now();
    await request(n);
    times.push(performance.now() - begin);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 0.5);
  const verdict = target === null ? '' : `  (target p50 ≤ ${target} ms: ${p50 <= target ? 'met' : 'NOT met'})`;
  console.log(
    `${label.padEnd(58)} p50 ${p50.toFixed(1).padStart(7)} ms  p95 ${percentile(times, 0.95).toFixed(1).padStart(7)} ms${verdict}`,
  );
}

try {
  console.log(
    `graph benchmark: ${nodeCount} nodes, ${edgeCount} edges in batches of ${batchSize}; ${samples} requests per figure; node ${process.version}, ${os.cpus().length} CPUs`,
  );

  const nodes = await runBatches(
    '/nodes/batch',
    Array.from({ length: nodeCount }, (_, n) => ({
      operation: 'create' as const,
      data: {
        template_id: person,
        label: `Person ${n}`,
        properties: {},
        position: { x: Math.round(random() * 10_000), y: Math.round(random() * 10_000) },
      },
    })),
  );
  console.log(
    `POST /nodes/batch: ${nodeCount} nodes in ${nodes.seconds.toFixed(1)} s = ${Math.round(nodeCount / nodes.seconds)} nodes/s`,
  );

  // Node 0 is the hub with exactly 1,000 edges (half each way); the rest are skewed towards the first
  // thousand nodes (30 % of endpoints), like real graphs with a few well-connected entities.
  const hub = nodes.ids[0];
  const pick = () =>
    1 + (random() < 0.3 ? Math.floor(random() * random() * 999) : Math.floor(random() * (nodeCount - 1)));
  const edgeOperations = Array.from({ length: edgeCount }, (_, n) => {
    const [from, to] = n < hubDegree ? (n % 2 === 0 ? [0, pick()] : [pick(), 0]) : [pick(), pick()];
    return {
      operation: 'create' as const,
      data: { template_id: link, source_node_id: nodes.ids[from], target_node_id: nodes.ids[to], label: 'knows' },
    };
  });
  const edges = await runBatches('/edges/batch', edgeOperations);
  console.log(
    `POST /edges/batch: ${edgeCount} edges in ${edges.seconds.toFixed(1)} s = ${Math.round(edgeCount / edges.seconds)} edges/s`,
  );

  const canvas = (await expectOk('GET', '/graph/canvas')) as {
    nodes: unknown[];
    edges: unknown[];
    total_nodes: number;
    total_edges: number;
    truncated: boolean;
  };
  console.log(
    `canvas: ${canvas.nodes.length} of ${canvas.total_nodes} nodes, ${canvas.edges.length} of ${canvas.total_edges} edges, truncated ${canvas.truncated}`,
  );

  await measure('GET /graph/canvas (graph unchanged between requests)', 150, () =>
    expectOk('GET', '/graph/canvas').then(() => undefined),
  );
  // Each request after a write (a node moved): the canvas is computed from scratch every time.
  await measure(
    'GET /graph/canvas (after a write, computed from scratch)',
    null,
    () => expectOk('GET', '/graph/canvas').then(() => undefined),
    (n) => expectOk('PATCH', `/nodes/${nodes.ids[1 + n]}/position`, { position: { x: n, y: n } }).then(() => undefined),
  );
  await measure('GET /nodes?page_size=1000 (pages 1-20)', 100, (n) =>
    expectOk('GET', `/nodes?page_size=1000&page=${Math.max(1, n + 1)}`).then(() => undefined),
  );
  const connections = (await expectOk('GET', `/nodes/${hub}/connections?page_size=1000`)) as {
    pagination: { total: number };
  };
  console.log(`hub ${hub}: ${connections.pagination.total} connections`);
  await measure('GET /nodes/{hub}/connections (default page)', 50, () =>
    expectOk('GET', `/nodes/${hub}/connections`).then(() => undefined),
  );
  await measure('GET /nodes/{hub}/connections?page_size=1000', 50, () =>
    expectOk('GET', `/nodes/${hub}/connections?page_size=1000`).then(() => undefined),
  );
  await measure('GET /graph/grounding/nodes/{hub}/neighbors?limit=1000', null, () =>
    expectOk('GET', `/graph/grounding/nodes/${hub}/neighbors?limit=1000`).then(() => undefined),
  );
  const refresh = (await expectOk('POST', '/graph/snapshot/refresh', undefined, 202)) as { task_id: string };
  const begin = performance.now();
  await waitForResult(refresh.task_id);
  console.log(`graph snapshot build (queued → completed): ${Math.round(performance.now() - begin)} ms`);
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
