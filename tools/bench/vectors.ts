// Benchmark (search budget): the HNSW chunk index at 1M × 100-d. Builds the index from random unit
// vectors (uniform on the sphere: the hardest case for HNSW, real embeddings cluster and do better),
// saves and reloads it, then reports query latency at k = 10 (plain and through a filter callback that
// admits half the labels, like a scope filter) and recall@10 against exact search, for a few ef values.
// Budget: semantic p95 ≤ 50 ms over 1M chunks, recall@10 ≥ 0.95.
// BENCH_VECTORS (default 1,000,000), BENCH_BUILD_SECONDS (stop adding after this long; default 1200),
// BENCH_QUERIES (default 200), BENCH_EF (comma-separated ef values; default 100,200,400,800).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultHnswParams, HnswIndex } from '../../packages/core/src/search/vectors/hnsw.ts';
import { seededRandom } from './harness.ts';

const dimensions = 100;
const wanted = Number(process.env.BENCH_VECTORS ?? 1_000_000);
const buildSeconds = Number(process.env.BENCH_BUILD_SECONDS ?? 1_200);
const queryCount = Number(process.env.BENCH_QUERIES ?? 200);
const efValues = (process.env.BENCH_EF ?? '100,200,400,800').split(',').map(Number);
const k = 10;
const batch = 1_000;

const random = seededRandom(20_260_101);

function fillUnit(target: Float32Array, offset: number): void {
  let norm = 0;
  for (let i = 0; i < dimensions; i += 1) {
    const value = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    target[offset + i] = value;
    norm += value * value;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dimensions; i += 1) target[offset + i] /= norm;
}

const vectorAt = (data: Float32Array, index: number) => data.subarray(index * dimensions, (index + 1) * dimensions);
const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
const ms = (value: number) => `${value.toFixed(2)} ms`;

console.log(`HNSW params: M=${defaultHnswParams.m} efConstruction=${defaultHnswParams.efConstruction} efSearch=${defaultHnswParams.efSearch} (space cosine, ${dimensions}-d)`);
const data = new Float32Array(wanted * dimensions);
for (let i = 0; i < wanted; i += 1) fillUnit(data, i * dimensions);

const index = HnswIndex.create(dimensions, { ...defaultHnswParams, initialCapacity: wanted });
const buildStart = performance.now();
let count = 0;
while (count < wanted && performance.now() - buildStart < buildSeconds * 1000) {
  const end = Math.min(wanted, count + batch);
  const items = [];
  for (let label = count; label < end; label += 1) items.push({ label, vector: vectorAt(data, label) });
  index.add(items);
  count = end;
  if (count % 100_000 === 0) console.log(`  ${count.toLocaleString()} added, ${((performance.now() - buildStart) / 1000).toFixed(0)} s`);
}
const buildMs = performance.now() - buildStart;
console.log(`vectors: ${count.toLocaleString()} of ${wanted.toLocaleString()} wanted${count < wanted ? ` (build budget of ${buildSeconds} s reached)` : ''}`);
console.log(`build: ${(buildMs / 1000).toFixed(1)} s, ${Math.round(count / (buildMs / 1000)).toLocaleString()} vectors/s`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-vectors-bench-'));
const file = path.join(dir, 'chunks.hnsw');
const saveStart = performance.now();
await index.save(file);
console.log(`save: ${ms(performance.now() - saveStart)}, file ${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MiB`);
index.close();

const queries = new Float32Array(queryCount * dimensions);
for (let q = 0; q < queryCount; q += 1) fillUnit(queries, q * dimensions);
const exactStart = performance.now();
const exact: Set<number>[] = [];
for (let q = 0; q < queryCount; q += 1) {
  const query = vectorAt(queries, q);
  const top: { label: number; dot: number }[] = [];
  for (let label = 0; label < count; label += 1) {
    const offset = label * dimensions;
    let dot = 0;
    for (let i = 0; i < dimensions; i += 1) dot += data[offset + i] * query[i];
    if (top.length < k || dot > top[top.length - 1].dot) {
      top.push({ label, dot });
      top.sort((a, b) => b.dot - a.dot);
      if (top.length > k) top.pop();
    }
  }
  exact.push(new Set(top.map((entry) => entry.label)));
}
console.log(`exact search for ${queryCount} queries: ${((performance.now() - exactStart) / 1000).toFixed(1)} s`);

const halfOfLabels = (label: number) => label % 2 === 0;
for (const ef of efValues) {
  const loadStart = performance.now();
  const loaded = await HnswIndex.load(file, dimensions, [], { ...defaultHnswParams, efSearch: ef });
  const loadMs = performance.now() - loadStart;
  const latencies: number[] = [];
  const filtered: number[] = [];
  let found = 0;
  for (let q = 0; q < queryCount; q += 1) {
    const query = vectorAt(queries, q);
    let start = performance.now();
    const hits = loaded.search(query, k);
    latencies.push(performance.now() - start);
    for (const hit of hits) if (exact[q].has(hit.label)) found += 1;
    start = performance.now();
    loaded.search(query, k, halfOfLabels);
    filtered.push(performance.now() - start);
  }
  loaded.close();
  latencies.sort((a, b) => a - b);
  filtered.sort((a, b) => a - b);
  const marker = ef === defaultHnswParams.efSearch ? ' (default)' : '';
  console.log(
    `ef=${ef}${marker}: recall@${k} ${(found / (queryCount * k)).toFixed(3)}, p50 ${ms(percentile(latencies, 0.5))}, p95 ${ms(percentile(latencies, 0.95))}; ` +
      `with a half-admitting filter p50 ${ms(percentile(filtered, 0.5))}, p95 ${ms(percentile(filtered, 0.95))}; load ${ms(loadMs)}`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
