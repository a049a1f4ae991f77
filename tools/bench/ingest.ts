// Benchmark (issue 6): ingest a 50 MB text corpus and a 200-page PDF through POST /sources on the
// embedded default with builtin embeddings. Reports chunks/s and MB/min end to end, the raw embedder's
// chunks/s on the same chunks in the same run (target: indexing ≥ 0.8× of it), p99 of GET /nodes/{id}
// while ingesting vs idle (target ≤ 3×), and peak RSS (target ≤ 1.5 GB). BENCH_MB scales the corpus.
import fs from 'node:fs';
import os from 'node:os';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { BuiltinEmbeddingAdapter } from '@rhizome/core/providers/embeddings/builtin/adapter';
import { startBenchServer } from './api-client.ts';

const corpusMb = Number(process.env.BENCH_MB ?? 50);
const pdfPages = 200;
const probeRequests = 300;

const { server, base, dataDir, cookie, expectOk } = await startBenchServer('ingest');
let peakRss = 0;
const rssSampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

function corpusText(bytes: number): string {
  const passages = (JSON.parse(fs.readFileSync('/work/shared/testdata/eval/2wiki/corpus.json', 'utf8')) as { title: string; text: string }[]).map((entry) => `${entry.title}\n\n${entry.text}`);
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const passage = `${passages[index % passages.length]} (${Math.floor(index / passages.length)})`;
    parts.push(passage);
    size += passage.length + 2;
  }
  return parts.join('\n\n');
}

async function pdfBytes(pages: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const passages = (JSON.parse(fs.readFileSync('/work/shared/testdata/eval/2wiki/corpus.json', 'utf8')) as { text: string }[]).map((entry) => entry.text.replace(/[^\x20-\x7e]/g, ' '));
  for (let page = 0; page < pages; page++) {
    const sheet = document.addPage([595, 842]);
    const words = passages.slice(page * 8, page * 8 + 8).join(' ').split(/\s+/);
    let line = '';
    let y = 800;
    for (const word of words) {
      if ((line + word).length > 95) {
        sheet.drawText(line, { x: 40, y, size: 9, font });
        y -= 12;
        line = '';
        if (y < 40) break;
      }
      line += `${word} `;
    }
    if (line && y >= 40) sheet.drawText(line, { x: 40, y, size: 9, font });
  }
  return document.save();
}

async function upload(filename: string, content: Uint8Array | string): Promise<string> {
  const form = new FormData();
  form.append('auto_confirm', 'true');
  form.append('extract_entities', 'false');
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), filename);
  const response = await fetch(`${base}/sources`, { method: 'POST', headers: { cookie }, body: form });
  if (response.status !== 202) throw new Error(`upload ${filename}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

interface SourceState {
  status: string;
  chunk_count: number;
  error_message: string | null;
  index_timings: Record<string, number> | null;
}

async function waitIndexed(id: string): Promise<SourceState> {
  for (;;) {
    const source = (await expectOk('GET', `/sources/${id}`)) as SourceState;
    if (source.status === 'indexed') return source;
    if (source.status === 'error') throw new Error(`source ${id}: ${source.error_message}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function readLatencies(nodeId: string, count: number, until?: () => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count || (until && !until()); i++) {
    const started = performance.now();
    await expectOk('GET', `/nodes/${nodeId}`);
    times.push(performance.now() - started);
    if (until?.()) break;
  }
  return times;
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))];

async function ingest(label: string, filename: string, content: Uint8Array | string, nodeId: string, idleP99: number): Promise<void> {
  const megabytes = (typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength) / 1024 / 1024;
  const started = performance.now();
  const id = await upload(filename, content);
  let done = false;
  const indexed = waitIndexed(id).finally(() => (done = true));
  const during = await readLatencies(nodeId, 0, () => done);
  const source = await indexed;
  const seconds = (performance.now() - started) / 1000;
  let caughtUp = false;
  const settled = server.platform.chunkVectors.settled().finally(() => (caughtUp = true));
  const catchingUp = await readLatencies(nodeId, 0, () => caughtUp);
  await settled;
  const vectorSeconds = (performance.now() - started) / 1000;

  const { db } = await server.platform.databases.current();
  const chunks = ((await db('document_chunks').where({ source_id: id }).orderBy('chunk_index').select('content')) as { content: string }[]).map((row) => row.content);
  const raw = new BuiltinEmbeddingAdapter({ cacheDir: server.platform.paths.modelsDir() });
  const signal = new AbortController().signal;
  await raw.embed(chunks.slice(0, 64), signal);
  const rawStarted = performance.now();
  for (let start = 0; start < chunks.length; start += 512) await raw.embed(chunks.slice(start, start + 512), signal);
  const rawPerSecond = chunks.length / ((performance.now() - rawStarted) / 1000);
  const perSecond = source.chunk_count / seconds;
  const duringP99 = during.length ? p99(during) : 0;
  console.log(`${label}: ${megabytes.toFixed(1)} MB, ${source.chunk_count} chunks in ${seconds.toFixed(1)} s = ${perSecond.toFixed(0)} chunks/s, ${(megabytes / (seconds / 60)).toFixed(1)} MB/min end to end`);
  console.log(`  step times: ${JSON.stringify(source.index_timings)}`);
  console.log(`  raw builtin embedder on the same chunks: ${rawPerSecond.toFixed(0)} chunks/s; indexing / raw = ${(perSecond / rawPerSecond).toFixed(2)} (target ≥ 0.8)`);
  console.log(`  GET /nodes/{id} p99 during ingest ${duringP99.toFixed(1)} ms over ${during.length} requests vs idle ${idleP99.toFixed(1)} ms = ${(duringP99 / idleP99).toFixed(2)}× (target ≤ 3×)`);
  console.log(`  vector index caught up ${(vectorSeconds - seconds).toFixed(1)} s after 'indexed' (${(source.chunk_count / vectorSeconds).toFixed(0)} chunks/s including it); GET /nodes/{id} p99 meanwhile ${catchingUp.length ? p99(catchingUp).toFixed(1) : '-'} ms over ${catchingUp.length} requests`);
}

try {
  console.log(`ingest benchmark: node ${process.version}, ${os.cpus().length} CPUs, builtin embeddings`);
  const node = (await expectOk('POST', '/nodes', { template_id: 'system_template_person', label: 'Probe', properties: {} }, 201)) as { id: string };
  await readLatencies(node.id, 50);
  const idleP99 = p99(await readLatencies(node.id, probeRequests));
  // Warm the builtin embedder (its one-time conversion is measured by bench:embeddings, not here).
  await new BuiltinEmbeddingAdapter({ cacheDir: server.platform.paths.modelsDir() }).embed(['warm up'], new AbortController().signal);
  // Starting the preparation and embedding threads (about a second each) is paid once per process, not per source.
  await waitIndexed(await upload('warm-up.txt', corpusText(64 * 1024)));
  await ingest(`${corpusMb} MB text corpus`, 'corpus.txt', corpusText(corpusMb * 1024 * 1024), node.id, idleP99);
  await ingest(`${pdfPages}-page PDF`, 'report.pdf', await pdfBytes(pdfPages), node.id, idleP99);
  console.log(`peak RSS of the process (API, worker and benchmark client together): ${(peakRss / 1024 / 1024).toFixed(0)} MB (target ≤ 1,536 MB)`);
} finally {
  clearInterval(rssSampler);
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
