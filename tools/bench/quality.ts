// Benchmark (issue 10): quality scoring through the API of the embedded default.
// - A corpus of BENCH_SOURCES committed sources (default 1,000) with BENCH_ENTITIES entities each (200),
//   2 relationships per entity, citations over 10 chunks per source, written straight into SQLite.
//   Timed: POST /quality/recalculate (every source scored from its graph and cached), GET /quality/summary
//   when no score is cached (the summary scores the whole corpus first) and with the cache (target ≤ 500 ms).
// - One source of BENCH_LARGE_ENTITIES entities (5,000) with 2.5 relationships per entity:
//   GET /quality/sources/{id}/details, always computed (target ≤ 300 ms).
import fs from 'node:fs';
import type { Db } from '@rhizome/core/storage';
import { startBenchServer } from './api-client.ts';
import { cpuMs, seededRandom } from './harness.ts';

const sourceCount = Number(process.env.BENCH_SOURCES ?? 1_000);
const entitiesPerSource = Number(process.env.BENCH_ENTITIES ?? 200);
const largeEntities = Number(process.env.BENCH_LARGE_ENTITIES ?? 5_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);
const chunksPerSource = 10;
const domains = ['biographical', 'historical', 'scientific', 'news', 'legal'];
const relationshipTypes = ['related_to', 'part_of', 'located_in', 'member_of', 'knows'];

const random = seededRandom(10);
const { server, dataDir, expectOk } = await startBenchServer('quality');
const { db } = await server.platform.databases.current();
const at = new Date().toISOString();
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
const figures = (values: number[]) =>
  `p50 ${quantile(values, 0.5).toFixed(0)} ms, p95 ${quantile(values, 0.95).toFixed(0)} ms`;

async function insertAll(trx: Db, table: string, rows: Record<string, unknown>[], size = 100): Promise<void> {
  for (let start = 0; start < rows.length; start += size) await trx(table).insert(rows.slice(start, start + size));
}

/** One committed source with its chunks, entities (properties as a commit writes them), relationships and citations. */
async function generateSource(id: string, entityCount: number, relationshipsPerEntity: number): Promise<void> {
  const chunks = Array.from({ length: chunksPerSource }, (_, index) => ({
    id: `${id}_c${index}`,
    source_id: id,
    chunk_index: index,
    content: `Chunk ${index} of ${id}`,
    created_at: at,
  }));
  const nodes = Array.from({ length: entityCount }, (_, index) => {
    const own = Object.fromEntries(
      Array.from({ length: Math.floor(random() * 8) }, (_, key) => [`property_${key}`, `value ${key}`]),
    );
    const properties = {
      ...own,
      description: 'd'.repeat(Math.floor(random() * 300)),
      aliases: Array.from({ length: Math.floor(random() * 4) }, (_, alias) => `Alias ${alias}`),
      confidence: 0.5 + random() / 2,
      extraction_domain: 'bench',
    };
    return {
      id: `${id}_n${index}`,
      template_id: 'system_template_concept',
      label: `Entity ${index} of ${id}`,
      properties: JSON.stringify(properties),
      extracted: true,
      created_at: at,
      updated_at: at,
    };
  });
  const citations = nodes.flatMap((node) =>
    Array.from({ length: 1 + Math.floor(random() * 5) }, (_, index) => ({
      id: `${node.id}_cit${index}`,
      entity_uri: node.id,
      source_id: id,
      chunk_id: pick(chunks).id,
      confidence: random(),
      created_at: at,
    })),
  );
  const edges = Array.from({ length: Math.round(entityCount * relationshipsPerEntity) }, (_, index) => {
    const from = Math.floor(random() * entityCount);
    const to = (from + 1 + Math.floor(random() * (entityCount - 1))) % entityCount;
    const properties = { justification: 'j'.repeat(Math.floor(random() * 80)), confidence: random() };
    return {
      id: `${id}_e${index}`,
      template_id: 'system_template_link',
      source_node_id: nodes[from].id,
      target_node_id: nodes[to].id,
      label: pick(relationshipTypes),
      properties: JSON.stringify(properties),
      extracted: true,
      created_at: at,
      updated_at: at,
    };
  });
  await db.transaction(async (trx) => {
    await trx('sources').insert({
      id,
      title: `${id}.txt`,
      filename: `${id}.txt`,
      status: 'committed',
      extraction_domain: pick(domains),
      chunk_count: chunksPerSource,
      created_at: at,
      updated_at: at,
    });
    await insertAll(trx, 'document_chunks', chunks);
    await insertAll(trx, 'graph_nodes', nodes);
    await insertAll(
      trx,
      'node_sources',
      nodes.map((node) => ({ node_id: node.id, source_id: id })),
      400,
    );
    await insertAll(trx, 'source_citations', citations);
    await insertAll(trx, 'graph_edges', edges);
    await insertAll(
      trx,
      'edge_sources',
      edges.map((edge) => ({ edge_id: edge.id, source_id: id })),
      400,
    );
    await insertAll(
      trx,
      'relationship_citations',
      edges.map((edge) => ({
        id: `${edge.id}_cit`,
        edge_id: edge.id,
        source_id: id,
        chunk_id: pick(chunks).id,
        confidence: random(),
        created_at: at,
      })),
    );
  });
}

/** Wall time, and the CPU time of this process (server and client both run here; SQLite's threads count too): the host is shared, so wall time alone says little. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; cpu: number; result: T }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, cpu: cpuMs(process.cpuUsage(cpu)), result };
}

async function repeat(apiPath: string): Promise<string> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runs; run++) {
    const measured = await timed(() => expectOk('GET', apiPath));
    times.push(measured.ms);
    cpu.push(measured.cpu);
  }
  return `${figures(times)}; CPU p50 ${quantile(cpu, 0.5).toFixed(0)} ms`;
}

try {
  let started = performance.now();
  for (let index = 0; index < sourceCount; index++) await generateSource(`src_bench_${index}`, entitiesPerSource, 2);
  console.log(
    `corpus: ${sourceCount} sources × ${entitiesPerSource} entities, ${2 * entitiesPerSource} relationships each, written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const recalculated = await timed(
    () => expectOk('POST', '/quality/recalculate', {}) as Promise<{ recalculated_count: number; errors: unknown[] }>,
  );
  if (recalculated.result.recalculated_count !== sourceCount)
    throw new Error(`recalculated ${recalculated.result.recalculated_count} of ${sourceCount}`);
  console.log(
    `POST /quality/recalculate (${sourceCount} sources scored and cached): ${recalculated.ms.toFixed(0)} ms (CPU ${recalculated.cpu.toFixed(0)} ms)`,
  );
  await db('source_quality_scores').delete();
  const cold = await timed(() => expectOk('GET', '/quality/summary') as Promise<{ total_sources: number }>);
  if (cold.result.total_sources !== sourceCount)
    throw new Error(`summary covers ${cold.result.total_sources} of ${sourceCount} sources`);
  console.log(
    `GET /quality/summary, nothing cached (scores the whole corpus first): ${cold.ms.toFixed(0)} ms (CPU ${cold.cpu.toFixed(0)} ms)`,
  );
  console.log(
    `GET /quality/summary over ${sourceCount} cached scores: ${await repeat('/quality/summary')} (target ≤ 500 ms)`,
  );
  console.log(
    `GET /quality/analyze?page_size=50 over ${sourceCount} cached scores: ${await repeat('/quality/analyze?page_size=50&sort_by=avg_entity_quality')}`,
  );

  started = performance.now();
  await generateSource('src_bench_large', largeEntities, 2.5);
  console.log(
    `large source: ${largeEntities} entities, ${Math.round(largeEntities * 2.5)} relationships, written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const details = (await expectOk('GET', '/quality/sources/src_bench_large/details')) as { entity_scores: unknown[] };
  if (details.entity_scores.length !== largeEntities)
    throw new Error(`details scored ${details.entity_scores.length} of ${largeEntities} entities`);
  console.log(
    `GET /quality/sources/{id}/details (${largeEntities} entities): ${await repeat('/quality/sources/src_bench_large/details')} (target ≤ 300 ms)`,
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
