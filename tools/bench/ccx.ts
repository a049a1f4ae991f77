// Benchmark (issue 11): export and import of a CCX package of a database with BENCH_NODES nodes
// (default 100,000), BENCH_EDGES edges (300,000) and BENCH_CHUNKS chunks (20,000) in 200 sources, with
// a citation per node, generated straight into the embedded default's SQLite. The export runs as the
// API's task (POST /exports), the import as the task queueCcxImport queues (into an empty database).
// Target: each ≤ 60 s with the process's peak RSS ≤ 1.5 GB. Prints durations, sizes and peak RSS.
import fs from 'node:fs';
import { indexNewNodes } from '@rhizome/core/graph';
import { exportFile } from '@rhizome/core/ccx';
import { queueCcxImport } from '@rhizome/core/ccx';
import { startBenchServer } from './api-client.ts';
import { seededRandom } from './harness.ts';

const nodeCount = Number(process.env.BENCH_NODES ?? 100_000);
const edgeCount = Number(process.env.BENCH_EDGES ?? 300_000);
const chunkCount = Number(process.env.BENCH_CHUNKS ?? 20_000);
const sourceCount = 200;

const random = seededRandom(11);
const { server, dataDir, expectOk } = await startBenchServer('ccx');
const platform = server.platform;
const { db } = await platform.databases.current();
const words =
  'knowledge graph entity relation source chunk citation physics chemistry history river mountain city treaty engine theory experiment'.split(
    ' ',
  );
const text = (count: number) =>
  Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(' ');
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 50);

async function generate(): Promise<void> {
  const started = performance.now();
  const at = new Date().toISOString();
  const templates = Array.from({ length: 20 }, (_, index) => ({
    id: `btpl_${index}`,
    name: `Type ${index}`,
    template_type: index < 15 ? 'node' : 'edge',
    properties: JSON.stringify([{ name: 'description', property_type: 'text' }]),
    created_at: at,
    updated_at: at,
  }));
  await db('graph_templates').insert(templates);
  await db.transaction(async (trx) => {
    for (let source = 0; source < sourceCount; source += 1) {
      await trx('sources').insert({
        id: `bsrc_${source}`,
        title: `Source ${source}`,
        filename: `source-${source}.txt`,
        source_type: 'file',
        status: 'committed',
        created_at: at,
        updated_at: at,
      });
    }
    const perSource = chunkCount / sourceCount;
    for (let start = 0; start < chunkCount; start += 100) {
      await trx('document_chunks').insert(
        Array.from({ length: Math.min(100, chunkCount - start) }, (_, offset) => {
          const index = start + offset;
          return {
            id: `bch_${index}`,
            source_id: `bsrc_${Math.floor(index / perSource)}`,
            chunk_index: index % perSource,
            content: text(80),
            created_at: at,
          };
        }),
      );
    }
  });
  for (let start = 0; start < nodeCount; start += 2_000) {
    const nodes = Array.from({ length: Math.min(2_000, nodeCount - start) }, (_, offset) => {
      const index = start + offset;
      return { id: `bnode_${index}`, label: `Entity ${index}`, properties: { description: text(12) } };
    });
    await db.transaction(async (trx) => {
      for (let index = 0; index < nodes.length; index += 100) {
        const slice = nodes.slice(index, index + 100);
        await trx('graph_nodes').insert(
          slice.map((node, offset) => ({
            id: node.id,
            template_id: `btpl_${(start + index + offset) % 15}`,
            label: node.label,
            properties: JSON.stringify(node.properties),
            extracted: true,
            created_at: at,
            updated_at: at,
          })),
        );
        const chunkOf = () => Math.floor(random() * chunkCount);
        const cited = slice.map((node) => ({ node, chunk: chunkOf() }));
        await trx('node_sources').insert(
          cited.map(({ node, chunk }) => ({
            node_id: node.id,
            source_id: `bsrc_${Math.floor(chunk / (chunkCount / sourceCount))}`,
          })),
        );
        await trx('source_citations').insert(
          cited.map(({ node, chunk }) => ({
            id: `bcit_${node.id}`,
            entity_uri: node.id,
            source_id: `bsrc_${Math.floor(chunk / (chunkCount / sourceCount))}`,
            chunk_id: `bch_${chunk}`,
            confidence: 0.8,
            context_snippet: text(6),
            created_at: at,
          })),
        );
      }
      await indexNewNodes(trx, nodes);
    });
  }
  for (let start = 0; start < edgeCount; start += 5_000) {
    const edges = Array.from({ length: Math.min(5_000, edgeCount - start) }, (_, offset) => {
      const source = Math.floor(random() * nodeCount);
      const target = (source + 1 + Math.floor(random() * (nodeCount - 1))) % nodeCount;
      return {
        id: `bedge_${start + offset}`,
        template_id: `btpl_${15 + ((start + offset) % 5)}`,
        source_node_id: `bnode_${source}`,
        target_node_id: `bnode_${target}`,
        label: 'related_to',
        properties: JSON.stringify({ confidence: 0.7 }),
        extracted: true,
        created_at: at,
        updated_at: at,
      };
    });
    await db.transaction(async (trx) => {
      for (let index = 0; index < edges.length; index += 100)
        await trx('graph_edges').insert(edges.slice(index, index + 100));
    });
  }
  console.log(
    `generated ${nodeCount} nodes, ${edgeCount} edges, ${chunkCount} chunks in ${sourceCount} sources, ${nodeCount} citations in ${seconds(started)} s`,
  );
}

async function waitForTask(taskId: string): Promise<Record<string, unknown>> {
  for (;;) {
    // A poll can meet a keep-alive connection the server closed while the import held the event loop: ask again.
    const task = (await expectOk('GET', `/queue/tasks/${taskId}`).catch(() => ({
      status: 'unknown',
      error: null,
    }))) as { status: string; error: string | null };
    if (task.status === 'completed')
      return ((await expectOk('GET', `/queue/tasks/${taskId}/result`)) as { result: Record<string, unknown> }).result;
    if (task.status === 'failed' || task.status === 'cancelled')
      throw new Error(`task ${taskId} ${task.status}: ${task.error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

await generate();

global.gc?.();
const baseline = process.memoryUsage.rss();
peakRss = baseline;
let started = performance.now();
const queued = (await expectOk('POST', '/exports', undefined, 202)) as { task_id: string };
const exported = await waitForTask(queued.task_id);
const exportSeconds = seconds(started);
const exportPeak = peakRss;
console.log(
  `export: ${exportSeconds} s, package ${mib(Number(exported.size_bytes))} (${JSON.stringify(exported.counts)}), peak RSS ${mib(exportPeak)} (${mib(baseline)} before)`,
);

const bytes = fs.readFileSync(exportFile(platform.paths, queued.task_id));
await platform.databases.create('restored');
// Imported nodes are embedded by the import's own background pass; the per-node auto-embed trigger stays out of the figures.
await expectOk('PATCH', '/settings', { embedding: { enable_auto_embedding: false } });
// The import queues the re-embedding of what came without vectors: held back, it stays out of the figures.
await expectOk('POST', '/system/processing/pause', {});
global.gc?.();
peakRss = process.memoryUsage.rss();
started = performance.now();
const { task_id } = await queueCcxImport(platform, { bytes, merge: false, database: 'restored' });
const validatedSeconds = seconds(started);
const imported = await waitForTask(task_id);
console.log(
  `import: ${seconds(started)} s (of which ${validatedSeconds} s synchronous validation), peak RSS ${mib(peakRss)}; ` +
    `${imported.nodes_imported} nodes, ${imported.edges_imported} edges, ${imported.chunks_imported} chunks, ${imported.citations_imported} citations`,
);
clearInterval(sampler);
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
