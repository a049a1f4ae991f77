// Benchmark (issue 32): a 20-page scanned PDF and a 10-minute recording through POST /sources on the
// embedded default. Reports pages/s with OCR against the bare tools on the same pages in the same run
// (pdftoppm then tesseract, page by page), and audio seconds per second through a fake OpenAI-shaped
// transcription server (so the figure is the pipeline's overhead) against ffmpeg's extraction alone.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeTranscriber } from '../../packages/core/test/sources/loaders/fake-transcriber.ts';
import { renderPage, scannedPdf, toneWav } from '../../packages/core/test/sources/loaders/media-fixtures.ts';
import { startBenchServer } from './api-client.ts';
import { uploadSource, waitIndexed } from './ingest-sources.ts';

const run = promisify(execFile);
const pages = 20;
const audioSeconds = 600;
/** `llm.vision_dpi`'s default: the resolution pages are rendered at. */
const dpi = 150;

const bench = await startBenchServer('ingest-media');
const transcriber = await startFakeTranscriber({ firstWords: 'benchmark', segmentSeconds: 15 });
const work = path.join(bench.dataDir, 'media-inputs');
fs.mkdirSync(work);

const seconds = (started: number) => (performance.now() - started) / 1000;

async function ingest(file: string): Promise<number> {
  const started = performance.now();
  const id = await uploadSource(bench, path.basename(file), new Blob([fs.readFileSync(file)]));
  const source = await waitIndexed(bench, id);
  if (!source.chunk_count) throw new Error(`${file} gave no chunks`);
  return seconds(started);
}

try {
  // Distinct lines per page: lines repeated on every page are dropped as running headers by normalisation.
  const words = [
    'harbour',
    'quarry',
    'orchard',
    'lighthouse',
    'granary',
    'foundry',
    'ferry',
    'mill',
    'vineyard',
    'bakery',
  ];
  const lines = (page: number) => [
    `Delivery note for the ${words[page % words.length]} number ${page * 37}`,
    `Received ${page + 3} crates of ${words[(page * 3) % words.length]} goods`,
    `Signed on day ${page} by clerk ${words[(page * 7) % words.length]}`,
  ];
  const pdf = await scannedPdf(
    work,
    'scanned-20',
    Array.from({ length: pages }, (_, index) => ({ lines: lines(index + 1), scan: true })),
  );
  const bareStarted = performance.now();
  for (let page = 1; page <= pages; page++) {
    const image = await renderPage(pdf, page, dpi, path.join(work, `bare-${page}.png`));
    await run('tesseract', [image, 'stdout', '-l', 'eng', '--psm', '3']);
  }
  const bareOcr = seconds(bareStarted);
  const pipelineOcr = await ingest(pdf);
  console.log(
    `scanned PDF, ${pages} pages: ${(pages / pipelineOcr).toFixed(2)} pages/s through the API (${pipelineOcr.toFixed(1)} s); ` +
      `pdftoppm + tesseract alone ${(pages / bareOcr).toFixed(2)} pages/s (${bareOcr.toFixed(1)} s); ratio ${(bareOcr / pipelineOcr).toFixed(2)}×`,
  );

  await bench.expectOk('PATCH', '/settings', { transcription: { api_base: transcriber.baseUrl } });
  const wav = await toneWav(audioSeconds, path.join(work, 'ten-minutes.wav'));
  const mp3 = path.join(work, 'ten-minutes.mp3');
  await run('ffmpeg', ['-loglevel', 'error', '-y', '-i', wav, mp3]);
  const bareStartedAudio = performance.now();
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    mp3,
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    path.join(work, 'bare.wav'),
  ]);
  const bareAudio = seconds(bareStartedAudio);
  const pipelineAudio = await ingest(mp3);
  console.log(
    `10-minute mp3, fake transcriber: ${(audioSeconds / pipelineAudio).toFixed(0)} audio s/s through the API (${pipelineAudio.toFixed(1)} s); ` +
      `ffmpeg extraction alone ${(audioSeconds / bareAudio).toFixed(0)} audio s/s (${bareAudio.toFixed(1)} s); ratio ${(bareAudio / pipelineAudio).toFixed(2)}×`,
  );
} finally {
  await transcriber.close();
  await bench.server.stop();
  fs.rmSync(bench.dataDir, { recursive: true, force: true });
}
