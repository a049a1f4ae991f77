// Benchmark (search budget: semantic p95 ≤ 50 ms over 1M chunks, recall@10 ≥ 0.95): the HNSW index
// the vector store uses, at k = 10. Builds it, saves and reloads it, then reports query latency (plain,
// and through a filter callback admitting half the labels, as a scope filter does) and recall@10 against
// exact search, for a few ef values.
// BENCH_DATA=uniform (default): random unit vectors, uniform on the sphere. The worst case for any
//   graph index: in 100-d the 10th and the 1000th neighbour are almost equally far.
// BENCH_DATA=words: the builtin embedder's 100-d word vectors (~341k, as GloVe-100-angular is for
//   ann-benchmarks), a real embedding geometry; 200 held-out words are the queries.
// BENCH_DATA=chunks: what the search benchmark indexes — passages of three random sentences of the
//   2wiki corpus embedded by the builtin model (clustered, with near-duplicates); queries are the
//   evaluation questions and title-plus-phrase queries.
// BENCH_VECTORS (default 1,000,000), BENCH_BUILD_SECONDS (stop adding after this long; default 300),
// BENCH_QUERIES (default 200), BENCH_EF (default 100,200,400,800,1600), BENCH_M and
// BENCH_EF_CONSTRUCTION (default: the store's).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuiltinEmbeddingAdapter } from '@rhizome/core/providers';
import { openWordVectors } from '@rhizome/core/providers';
import { defaultHnswParams, HnswIndex, searchEf, type HnswParams } from '@rhizome/core/search';
import { seededRandom } from './harness.ts';

const dimensions = 100;
const dataKind = process.env.BENCH_DATA ?? 'uniform';
const wanted = Number(process.env.BENCH_VECTORS ?? 1_000_000);
const buildSeconds = Number(process.env.BENCH_BUILD_SECONDS ?? 300);
const queryCount = Number(process.env.BENCH_QUERIES ?? 200);
const efValues = (process.env.BENCH_EF ?? '100,200,400,800,1600').split(',').map(Number);
const params: HnswParams = {
  ...defaultHnswParams,
  m: Number(process.env.BENCH_M ?? defaultHnswParams.m),
  efConstruction: Number(process.env.BENCH_EF_CONSTRUCTION ?? defaultHnswParams.efConstruction),
};
const k = 10;
const batch = 1_000;

const random = seededRandom(20_260_101);

function normalise(target: Float32Array, offset: number): void {
  let norm = 0;
  for (let i = 0; i < dimensions; i += 1) norm += target[offset + i] * target[offset + i];
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dimensions; i += 1) target[offset + i] /= norm;
}

/** `count` data vectors followed by `queryCount` queries, normalised, in one array. */
async function generate(): Promise<{ vectors: Float32Array; count: number }> {
  if (dataKind === 'uniform') {
    const vectors = new Float32Array((wanted + queryCount) * dimensions);
    for (let i = 0; i < vectors.length; i += 1)
      vectors[i] = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    for (let row = 0; row < wanted + queryCount; row += 1) normalise(vectors, row * dimensions);
    return { vectors, count: wanted };
  }
  if (dataKind === 'chunks') return chunkVectors();
  if (dataKind !== 'words') throw new Error(`BENCH_DATA must be uniform, words or chunks, not ${dataKind}`);
  const words = await openWordVectors(process.env.RHIZOME_MODELS_DIR ?? path.join(os.tmpdir(), 'rhizome-bench-models'));
  const count = Math.min(wanted, words.count - queryCount);
  // Shuffled, so the held-out queries are words of every frequency, not the rarest.
  const order = Array.from({ length: words.count }, (_, row) => row);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const vectors = new Float32Array((count + queryCount) * dimensions);
  for (let row = 0; row < count + queryCount; row += 1) {
    const word = order[row < count ? row : words.count - (row - count) - 1];
    for (let i = 0; i < dimensions; i += 1)
      vectors[row * dimensions + i] = words.vectors[word * dimensions + i] * words.scales[word];
    normalise(vectors, row * dimensions);
  }
  return { vectors, count };
}

async function chunkVectors(): Promise<{ vectors: Float32Array; count: number }> {
  const passages = JSON.parse(fs.readFileSync('/work/shared/testdata/eval/2wiki/corpus.json', 'utf8')) as {
    title: string;
    text: string;
  }[];
  const sentences = passages.flatMap((passage) =>
    passage.text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.length > 30),
  );
  const questions = (
    JSON.parse(fs.readFileSync('/work/shared/testdata/eval/2wiki/questions-51.json', 'utf8')) as { question: string }[]
  ).map((entry) => entry.question);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const texts = Array.from({ length: wanted }, () => `${pick(sentences)} ${pick(sentences)} ${pick(sentences)}`);
  for (let q = 0; q < queryCount; q += 1)
    texts.push(
      q < questions.length
        ? questions[q]
        : `${pick(passages).title} ${pick(sentences).split(' ').slice(2, 5).join(' ')}`,
    );
  const embedder = new BuiltinEmbeddingAdapter({
    cacheDir: process.env.RHIZOME_MODELS_DIR ?? path.join(os.tmpdir(), 'rhizome-bench-models'),
  });
  const vectors = new Float32Array(texts.length * dimensions);
  const signal = new AbortController().signal;
  for (let start = 0; start < texts.length; start += 5_000) {
    const embedded = await embedder.embed(texts.slice(start, start + 5_000), signal);
    embedded.forEach((vector, offset) => vectors.set(vector, (start + offset) * dimensions));
  }
  return { vectors, count: wanted };
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
const ms = (value: number) => `${value.toFixed(2)} ms`;

console.log(
  `data: ${dataKind}; HNSW M=${params.m} efConstruction=${params.efConstruction} (the store's search ef at this size: ${searchEf(defaultHnswParams, wanted, k)}), space cosine, ${dimensions}-d`,
);
const { vectors, count: available } = await generate();
const vectorAt = (row: number) => vectors.subarray(row * dimensions, (row + 1) * dimensions);

const index = HnswIndex.create(dimensions, params, available);
const buildStart = performance.now();
let count = 0;
while (count < available && performance.now() - buildStart < buildSeconds * 1000) {
  const end = Math.min(available, count + batch);
  const items = [];
  for (let label = count; label < end; label += 1) items.push({ label, vector: vectorAt(label) });
  index.add(items);
  count = end;
  if (count % 100_000 === 0)
    console.log(`  ${count.toLocaleString()} added, ${((performance.now() - buildStart) / 1000).toFixed(0)} s`);
}
const buildMs = performance.now() - buildStart;
const shortBy =
  count < available ? ` (build budget of ${buildSeconds} s reached)` : count < wanted ? ' (all the data set has)' : '';
console.log(`vectors: ${count.toLocaleString()} of ${wanted.toLocaleString()} wanted${shortBy}`);
console.log(
  `build: ${(buildMs / 1000).toFixed(1)} s, ${Math.round(count / (buildMs / 1000)).toLocaleString()} vectors/s`,
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-vectors-bench-'));
const file = path.join(dir, 'chunks.hnsw');
const saveStart = performance.now();
await index.save(file);
console.log(
  `save: ${ms(performance.now() - saveStart)}, file ${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MiB`,
);
index.close();

const queries = Array.from({ length: queryCount }, (_, q) => vectorAt(available + q));
const exactStart = performance.now();
const exact = queries.map((query) => {
  const top: { label: number; dot: number }[] = [];
  for (let label = 0; label < count; label += 1) {
    const offset = label * dimensions;
    let dot = 0;
    for (let i = 0; i < dimensions; i += 1) dot += vectors[offset + i] * query[i];
    if (top.length < k || dot > top[top.length - 1].dot) {
      top.push({ label, dot });
      top.sort((a, b) => b.dot - a.dot);
      if (top.length > k) top.pop();
    }
  }
  return new Set(top.map((entry) => entry.label));
});
console.log(`exact search for ${queryCount} queries: ${((performance.now() - exactStart) / 1000).toFixed(1)} s`);

const halfOfLabels = (label: number) => label % 2 === 0;
for (const ef of efValues) {
  const loadStart = performance.now();
  const loaded = await HnswIndex.load(file, dimensions, [], { ...params, efSearch: ef, efSearchMax: ef });
  const loadMs = performance.now() - loadStart;
  const latencies: number[] = [];
  const filtered: number[] = [];
  let found = 0;
  queries.forEach((query, q) => {
    let start = performance.now();
    const hits = loaded.search(query, k);
    latencies.push(performance.now() - start);
    for (const hit of hits) if (exact[q].has(hit.label)) found += 1;
    start = performance.now();
    loaded.search(query, k, halfOfLabels);
    filtered.push(performance.now() - start);
  });
  loaded.close();
  latencies.sort((a, b) => a - b);
  filtered.sort((a, b) => a - b);
  console.log(
    `ef=${ef}${ef === searchEf(defaultHnswParams, count, k) ? " (the store's)" : ''}: recall@${k} ${(found / (queryCount * k)).toFixed(3)}, ` +
      `p50 ${ms(percentile(latencies, 0.5))}, p95 ${ms(percentile(latencies, 0.95))}; ` +
      `half-admitting filter p50 ${ms(percentile(filtered, 0.5))}, p95 ${ms(percentile(filtered, 0.95))}; load ${ms(loadMs)}`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
