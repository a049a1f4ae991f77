/** PDF pages without a text layer, read by OCR: each rendered with pdftoppm and read with tesseract, one at a time. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ocrImage, boundedDpi, rasterisePage, ToolMissingError } from '../../media/index.ts';
import type { MediaReading } from './port.ts';

export interface ScannedPage {
  /** 1-based. */
  number: number;
  widthPt: number;
  heightPt: number;
}

export interface ScanReadings {
  /** Page number → its OCR text (pages where OCR found nothing are absent). */
  texts: Map<number, string>;
  warnings: string[];
}

/** Pages named in a warning: `3, 5, 9` or `3, 5, 9 and 12 more`. */
export function pageList(pages: readonly number[]): string {
  const shown = pages.slice(0, 10).join(', ');
  return pages.length > 10 ? `${shown} and ${pages.length - 10} more` : shown;
}

/**
 * Reads the pages with OCR unless `ocr.mode` is `vision`, at most `ocr.max_pages` of them. A page that
 * fails is tried once more on its own, then becomes a warning naming it; a missing tool stops at once.
 */
export async function readScannedPages(
  pdfPath: string,
  pages: readonly ScannedPage[],
  reading: MediaReading['ocr'],
  signal: AbortSignal,
): Promise<ScanReadings> {
  const texts = new Map<number, string>();
  if (pages.length === 0) return { texts, warnings: [] };
  const numbers = pages.map((page) => page.number);
  if (reading.mode === 'vision')
    return {
      texts,
      warnings: [
        `pages ${pageList(numbers)} have no text layer and were not read: ocr.mode is 'vision', and PDF pages are read by OCR only (set ocr.mode to auto, ocr or both)`,
      ],
    };
  const warnings: string[] = [];
  const read = pages.slice(0, reading.maxPages);
  if (read.length < pages.length)
    warnings.push(
      `pages ${pageList(numbers.slice(read.length))} have no text layer and were not read: ocr.max_pages (${reading.maxPages}) was reached`,
    );
  const directory = await mkdtemp(path.join(os.tmpdir(), 'rhizome-ocr-'));
  try {
    const failed: number[] = [];
    const reasons: string[] = [];
    for (const page of read) {
      signal.throwIfAborted();
      const outcome = await readPageWithRetry(pdfPath, page, directory, reading, signal);
      if (outcome instanceof ToolMissingError) {
        warnings.push(
          `pages ${pageList(numbers.slice(numbers.indexOf(page.number)))} have no text layer and were not read: ${outcome.message}`,
        );
        break;
      }
      if (outcome instanceof Error) {
        failed.push(page.number);
        reasons.push(`page ${page.number}: ${outcome.message}`);
      } else if (outcome) texts.set(page.number, outcome);
    }
    if (failed.length)
      warnings.push(`OCR could not read pages ${pageList(failed)} (${reasons.slice(0, 3).join('; ')})`);
    return { texts, warnings };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The page's text, or the error of its second attempt (a missing tool is not retried). */
async function readPageWithRetry(
  pdfPath: string,
  page: ScannedPage,
  directory: string,
  reading: MediaReading['ocr'],
  signal: AbortSignal,
): Promise<string | Error> {
  let lastError: Error | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await readPage(pdfPath, page, directory, reading, signal);
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof ToolMissingError) return error;
      lastError = error as Error;
    }
  }
  return lastError!;
}

async function readPage(
  pdfPath: string,
  page: ScannedPage,
  directory: string,
  reading: MediaReading['ocr'],
  signal: AbortSignal,
): Promise<string> {
  const dpi = boundedDpi(page.widthPt, page.heightPt, reading.dpi, reading.maxPagePixels);
  const image = await rasterisePage(pdfPath, page.number, directory, {
    dpi,
    timeoutMs: reading.pageTimeoutMs,
    signal,
  });
  try {
    return await ocrImage(image, { languages: reading.languages, timeoutMs: reading.pageTimeoutMs, signal });
  } finally {
    await rm(image, { force: true });
  }
}
