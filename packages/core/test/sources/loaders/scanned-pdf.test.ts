import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '@rhizome/contracts/settings';
import { mediaReading } from '../../../src/sources/loaders/media-reading.ts';
import type { LoaderLimits } from '../../../src/sources/loaders/port.ts';
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
