import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type OcrMode, type Settings } from '@rhizome/contracts/settings';
import { bytesOfBase64 } from '../../../../../tests/support/fakes/controls.ts';
import { startFakeOllama, type FakeOllama } from '../../../../../tests/support/fakes/ollama.ts';
import { loaderLimits } from '../../../src/sources/loaders/limits.ts';
import { mediaReading } from '../../../src/sources/loaders/media-reading.ts';
import type { LoadedDocument, LoaderLimits, LoaderProgress } from '../../../src/sources/loaders/port.ts';
import { loadDocument } from '../../../src/sources/loaders/registry.ts';
import { boundedDpi } from '../../../src/media/pdf-raster.ts';
import { scannedPdf, textPdf } from './media-fixtures.ts';

function limitsWith(change: (settings: Settings) => void): LoaderLimits {
  const settings = defaultSettings();
  change(settings);
  return { maxUnpackedBytes: 64 * 1024 * 1024, maxEntries: 64, maxTextChars: 1_000_000, media: mediaReading(settings) };
}

/** Scanned PDF pages read by tesseract after pdftoppm, beside the pages that have a text layer. */
describe('PDF pages without a text layer', () => {
  let dir: string;
  let mixed: string;
  const load = (file: string, limits: LoaderLimits = limitsWith(() => {})) =>
    loadDocument({ path: file, filename: path.basename(file), limits, signal: new AbortController().signal });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rhizome-scans-'));
    mixed = await scannedPdf(dir, 'mixed', [
      { lines: ['The orchard ledger opens here.'], scan: false },
      { lines: ['Scanned invoice from', 'Marmalade Harbour Company'], scan: true },
      { lines: ['Closing remarks about pears.'], scan: false },
      { lines: ['Second scan mentions', 'Lighthouse Quarterly'], scan: true },
    ]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads text pages from the text layer and scanned pages by OCR, each span on its own page', async () => {
    const doc = await load(mixed);
    const pageOf = (word: string) => {
      const at = doc.text.indexOf(word);
      expect(at, `${word} in ${JSON.stringify(doc.text)}`).toBeGreaterThanOrEqual(0);
      return doc.spans.find((span) => span.start <= at && at < span.end)?.page;
    };
    expect(pageOf('orchard')).toBe(1);
    expect(pageOf('Marmalade')).toBe(2);
    expect(pageOf('pears')).toBe(3);
    expect(pageOf('Lighthouse')).toBe(4);
    expect(doc.metadata).toMatchObject({ pageCount: 4, pagesWithoutText: 2, ocrPages: [2, 4] });
    expect(doc.warnings).toEqual([]);
  });

  it('with ocr.mode vision leaves scanned pages unread and names them in a warning', async () => {
    const doc = await load(
      mixed,
      limitsWith((settings) => (settings.ocr.mode = 'vision')),
    );
    expect(doc.text).toContain('orchard');
    expect(doc.text).not.toContain('Marmalade');
    expect(doc.warnings).toEqual([expect.stringMatching(/^pages 2, 4 have no text layer .*ocr\.mode/)]);
  });

  it('stops at ocr.max_pages, naming the pages it did not read', async () => {
    const doc = await load(
      mixed,
      limitsWith((settings) => (settings.ocr.max_pages = 1)),
    );
    expect(doc.text).toContain('Marmalade');
    expect(doc.text).not.toContain('Lighthouse');
    expect(doc.warnings).toEqual([expect.stringMatching(/^pages 4 have no text layer .*ocr\.max_pages \(1\)/)]);
  });

  it('names the page OCR could not read, after trying it again, and keeps the rest', async () => {
    const doc = await load(
      mixed,
      limitsWith((settings) => (settings.ocr.languages = 'notalanguage')),
    );
    expect(doc.text).toContain('orchard');
    expect(doc.warnings).toEqual([expect.stringMatching(/^OCR could not read pages 2, 4 \(page 2: tesseract failed/)]);
  });

  it('renders a huge page at a resolution that keeps it within ocr.max_page_pixels', () => {
    expect(boundedDpi(612, 792, 150, 40_000_000)).toBe(150);
    const dpi = boundedDpi(14_400, 14_400, 150, 40_000_000);
    expect(dpi).toBeLessThan(150);
    expect(((14_400 * dpi) / 72) ** 2).toBeLessThanOrEqual(40_000_000);
  });

  it('leaves a PDF with a text layer on every page to pdfjs alone', async () => {
    const doc = await load(await textPdf(path.join(dir, 'plain.pdf'), [['Only typed words here.']]));
    expect(doc.text).toBe('Only typed words here.');
    expect(doc.metadata).not.toHaveProperty('ocrPages');
  });
});

/** Scanned pages read by a vision model over HTTP (a fake Ollama on 127.0.0.1), by tesseract, or both. */
describe('PDF pages without a text layer and a vision model', () => {
  let dir: string;
  let mixed: string;
  let ollama: FakeOllama;
  const chatCalls = () => ollama.requests.filter((request) => request.path === '/api/chat');
  const limitsFor = (mode: OcrMode, enableVision: boolean | null = null) => {
    const settings = defaultSettings();
    settings.ocr.mode = mode;
    settings.llm.chat_provider = 'localllm';
    settings.llm.localllm_vision_model = 'qwen3-vl:8b';
    settings.llm.localllm_instances = [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true, healthy: true }];
    settings.retries.llm_max_retries = 1;
    settings.backoff.retry_delays = [0];
    return loaderLimits(settings, enableVision);
  };
  const load = (mode: OcrMode, onProgress?: (progress: LoaderProgress) => void, enableVision: boolean | null = null) =>
    loadDocument({
      path: mixed,
      filename: 'mixed.pdf',
      limits: limitsFor(mode, enableVision),
      signal: new AbortController().signal,
      onProgress,
    });
  const pageOf = (doc: LoadedDocument, word: string) => {
    const at = doc.text.indexOf(word);
    expect(at, `${word} in ${JSON.stringify(doc.text)}`).toBeGreaterThanOrEqual(0);
    return doc.spans.find((span) => span.start <= at && at < span.end)?.page;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rhizome-scan-vision-'));
    mixed = await scannedPdf(dir, 'mixed', [
      { lines: ['The orchard ledger opens here.'], scan: false },
      { lines: ['Scanned invoice from', 'Marmalade Harbour Company'], scan: true },
      { lines: ['Closing remarks about pears.'], scan: false },
      { lines: ['Second scan mentions', 'Lighthouse Quarterly'], scan: true },
    ]);
    ollama = await startFakeOllama({ models: ['qwen3-vl:8b'] });
  });
  afterAll(async () => {
    await ollama.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('auto: the model reads each scanned page (its image sent), tesseract none, each text on its page', async () => {
    ollama.requests.length = 0;
    ollama.scriptChat('Kestrel tide tables', 'Gannet ferry timetable');
    const told: LoaderProgress[] = [];
    const doc = await load('auto', (progress) => told.push(progress));
    expect(pageOf(doc, 'Kestrel')).toBe(2);
    expect(pageOf(doc, 'Gannet')).toBe(4);
    expect(pageOf(doc, 'orchard')).toBe(1);
    expect(doc.text).not.toContain('Marmalade');
    expect(doc.metadata).toMatchObject({ ocrPages: [2, 4], visionPages: [2, 4] });
    expect(doc.warnings).toEqual([]);
    const sent = chatCalls().map((request) => request.body as { model: string; messages: { images?: string[] }[] });
    expect(sent.map((body) => body.model)).toEqual(['qwen3-vl:8b', 'qwen3-vl:8b']);
    expect(
      sent.every((body) => bytesOfBase64(body.messages.at(-1)!.images![0]).subarray(1, 4).toString() === 'PNG'),
    ).toBe(true);
    expect(told).toEqual([
      { reader: 'vision', page: 2, done: 0, total: 2 },
      { reader: 'vision', page: 4, done: 1, total: 2 },
    ]);
  });

  it('auto: a page the model fails on (500, after its retry) is read by tesseract, the others by the model', async () => {
    ollama.requests.length = 0;
    ollama.failNext(500, 2);
    ollama.scriptChat('Gannet ferry timetable');
    const doc = await load('auto');
    expect(pageOf(doc, 'Marmalade')).toBe(2);
    expect(pageOf(doc, 'Gannet')).toBe(4);
    expect(doc.metadata).toMatchObject({ visionPages: [4] });
    expect(chatCalls()).toHaveLength(3);
    expect(doc.warnings).toEqual([
      expect.stringMatching(
        /^The vision model qwen3-vl:8b could not read pages 2 \(page 2: .*\); they were read by OCR/,
      ),
    ]);
  });

  it('both: the model text, then the OCR text, on the same page', async () => {
    ollama.scriptChat('Kestrel tide tables', 'Gannet ferry timetable');
    const doc = await load('both');
    expect(pageOf(doc, 'Kestrel')).toBe(2);
    expect(pageOf(doc, 'Marmalade')).toBe(2);
    expect(doc.text.indexOf('Kestrel')).toBeLessThan(doc.text.indexOf('Marmalade'));
    expect(pageOf(doc, 'Lighthouse')).toBe(4);
  });

  it('ocr: tesseract alone, the model never called', async () => {
    ollama.requests.length = 0;
    const doc = await load('ocr');
    expect(pageOf(doc, 'Marmalade')).toBe(2);
    expect(doc.metadata).toMatchObject({ visionPages: [] });
    expect(chatCalls()).toEqual([]);
  });

  it('a source uploaded with enable_vision=false: tesseract alone, the model never called', async () => {
    ollama.requests.length = 0;
    const doc = await load('auto', undefined, false);
    expect(pageOf(doc, 'Marmalade')).toBe(2);
    expect(chatCalls()).toEqual([]);
    const vision = await load('vision', undefined, false);
    expect(vision.text).not.toContain('Marmalade');
    expect(vision.warnings).toEqual([expect.stringMatching(/^pages 2, 4 have no text layer .*enable_vision=false/)]);
    expect(chatCalls()).toEqual([]);
  });
});
