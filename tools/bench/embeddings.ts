// Benchmark (issue 6): the builtin embedder. (1) texts/s on 10,000 chunk-sized (~900 character) English texts,
// median of BENCH_RUNS runs (target ≥ 2,000/s on 2 cores); (2) time to the first embedding in a fresh process
// once the binary cache exists (target ≤ 2 s), and the one-time conversion of the package's JSON.
// Texts are 2Wiki passages (BENCH_CORPUS, default the shared eval set) joined in a seeded order; without that
// file, words sampled from the vocabulary by Zipf's law.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuiltinEmbeddingAdapter } from '@rhizome/core/providers';
import { binaryPath, openWordVectors } from '@rhizome/core/providers';
import { pinProcess, seededRandom } from './harness.ts';

const textCount = Number(process.env.BENCH_TEXTS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const startups = 3;
const chunkChars = 900;
const corpusFile = process.env.BENCH_CORPUS ?? '/work/shared/testdata/eval/2wiki/corpus.json';
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-embeddings-bench-'));
const signal = new AbortController().signal;

const random = seededRandom(20_260_101);

/** Pieces of text (passages, or single words) joined in random order and cut into chunks at word boundaries. */
function chunksFrom(nextPiece: () => string): string[] {
  const texts: string[] = [];
  let current = '';
  while (texts.length < textCount) {
    current += (current ? ' ' : '') + nextPiece();
    if (current.length < chunkChars) continue;
    const cut = current.lastIndexOf(' ', chunkChars);
    texts.push(current.slice(0, cut > 0 ? cut : chunkChars));
    current = current.slice(cut > 0 ? cut + 1 : chunkChars);
  }
  return texts;
}

async function benchTexts(): Promise<{ texts: string[]; source: string }> {
  if (fs.existsSync(corpusFile)) {
    const passages = (JSON.parse(fs.readFileSync(corpusFile, 'utf8')) as { title: string; text: string }[]).map(
      (p) => `${p.title}. ${p.text}`,
    );
    return {
      texts: chunksFrom(() => passages[Math.floor(random() * passages.length)]),
      source: `passages of ${corpusFile}`,
    };
  }
  const words = await openWordVectors(cacheDir);
  // Zipf: rank r (1-based) with probability about ∝ 1/r, drawn as r = count^u.
  return {
    texts: chunksFrom(() => words.wordAt(Math.floor(words.count ** random()) - 1)),
    source: 'words sampled from the vocabulary by Zipf',
  };
}

interface FirstEmbedding {
  /** From spawn to exit, as the parent sees it. */
  wallMs: number;
  /** The child's own clock (ms since its start): when its code began, when the adapter was imported, when it had the vector. */
  begun: number;
  imported: number;
  embedded: number;
}

/** Spawns a fresh process that imports the adapter and embeds one text. */
async function firstEmbeddingInChild(): Promise<FirstEmbedding> {
  // The adapter's own file, not the providers face: the figure is the cost of loading the embedder alone.
  const adapterUrl = new URL('../../packages/core/src/providers/embeddings/builtin/adapter.ts', import.meta.url).href;
  const code = `const begun = performance.now();
    const { BuiltinEmbeddingAdapter } = await import(${JSON.stringify(adapterUrl)});
    const imported = performance.now();
    await new BuiltinEmbeddingAdapter({ cacheDir: ${JSON.stringify(cacheDir)} }).embed(['startup probe'], new AbortController().signal);
    console.log(JSON.stringify({ begun, imported, embedded: performance.now() }));`;
  const begin = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallMs = performance.now() - begin;
  if (exitCode !== 0) throw new Error(`startup probe exited with ${exitCode}: ${output}`);
  return { wallMs, ...(JSON.parse(output) as Omit<FirstEmbedding, 'wallMs'>) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

try {
  // One CPU-bound process (and its children, which inherit the affinity): pinned to one core when taskset exists.
  pinProcess(process.pid);
  console.log(`builtin embeddings benchmark: node ${process.version}, ${os.cpus().length} CPUs, cache ${cacheDir}`);

  const conversion = await firstEmbeddingInChild();
  const size = fs.statSync(binaryPath(cacheDir)).size;
  console.log(
    `first use with no cache (conversion + load + embed), fresh process: ${(conversion.wallMs / 1000).toFixed(1)} s; binary ${(size / 2 ** 20).toFixed(1)} MiB`,
  );
  const starts: FirstEmbedding[] = [];
  for (let n = 0; n < startups; n++) starts.push(await firstEmbeddingInChild());
  const startup = median(starts.map((s) => s.wallMs));
  const part = (of: (s: FirstEmbedding) => number) => Math.round(median(starts.map(of)));
  console.log(
    `startup to first embedding, fresh process, binary cached: median ${Math.round(startup)} ms from spawn to exit ` +
      `(node + tsx ${part((s) => s.begun)} ms, importing the adapter ${part((s) => s.imported - s.begun)} ms, ` +
      `loading the binary + first embedding ${part((s) => s.embedded - s.imported)} ms)  (target ≤ 2,000 ms: ${startup <= 2000 ? 'met' : 'NOT met'})`,
  );

  const { texts, source } = await benchTexts();
  const averageChars = Math.round(texts.reduce((sum, text) => sum + text.length, 0) / texts.length);
  const adapter = new BuiltinEmbeddingAdapter({ cacheDir });
  const embedAll = async () => {
    const begin = performance.now();
    for (let start = 0; start < texts.length; start += adapter.maxBatch)
      await adapter.embed(texts.slice(start, start + adapter.maxBatch), signal);
    return texts.length / ((performance.now() - begin) / 1000);
  };
  await embedAll(); // warm-up (load, JIT); not counted
  const rates = [];
  for (let n = 0; n < runs; n++) rates.push(await embedAll());
  const rate = median(rates);
  console.log(
    `embed ${texts.length} texts of ${averageChars} chars on average (${source}): median ${Math.round(rate)} texts/s over ${runs} runs ` +
      `(${rates.map(Math.round).join(', ')})  (target ≥ 2,000: ${rate >= 2000 ? 'met' : 'NOT met'})`,
  );
} finally {
  fs.rmSync(cacheDir, { recursive: true, force: true });
}
