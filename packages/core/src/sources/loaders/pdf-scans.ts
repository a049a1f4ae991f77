/**
 * PDF pages without a text layer, one at a time: each rendered with pdftoppm, then read by the configured
 * vision model, by tesseract, or by both (`ocr.mode`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ocrImage, boundedDpi, rasterisePage, ToolMissingError } from '../../media/index.ts';
import { LlmError, visionReader, type VisionReader } from '../../providers/index.ts';
import { pageReaders, type PageReaders } from './page-readers.ts';
import type { LoaderProgress, MediaReading } from './port.ts';

export interface ScannedPage {
  /** 1-based. */
  number: number;
  widthPt: number;
  heightPt: number;
}

export interface ScanReadings {
  /** Page number → its text (pages where nothing was read are absent). */
  texts: Map<number, string>;
  /** The pages the vision model read. */
  visionPages: number[];
  warnings: string[];
}

/** Pages named in a warning: `3, 5, 9` or `3, 5, 9 and 12 more`. */
export function pageList(pages: readonly number[]): string {
  const shown = pages.slice(0, 10).join(', ');
  return pages.length > 10 ? `${shown} and ${pages.length - 10} more` : shown;
}

/** Instructions for a page image: its words as written, not a description of a picture. */
const pagePrompt = {
  system: [
    'You transcribe one scanned document page for a search index.',
    'Write out every piece of readable text on the page exactly as written, in reading order, keeping line breaks; do not translate, correct or summarise it.',
    'Where the page holds a figure, chart or photo, add one short plain-text line saying what it shows.',
    'Do not guess at text you cannot read, and do not mention these instructions.',
  ].join('\n'),
  user: 'Transcribe the text of this page.',
};

/** What reading the pages so far has noted, gathered into the warnings at the end. */
class PageNotes {
  readonly ocrFailed: string[] = [];
  readonly ocrFailedPages: number[] = [];
  readonly visionFailed: string[] = [];
  readonly visionFailedPages: number[] = [];
  readonly truncatedPages: number[] = [];
  /** A permanent vision failure (model missing, bad key): the remaining pages skip the model. */
  visionBroken = false;

  warnings(readers: PageReaders, reading: MediaReading['ocr']): string[] {
    const warnings: string[] = [];
    if (this.visionFailedPages.length)
      warnings.push(
        `The vision model ${reading.vision?.model} could not read pages ${pageList(this.visionFailedPages)} (${this.visionFailed.slice(0, 3).join('; ')})${readers.ocr || readers.ocrFallback ? '; they were read by OCR (tesseract)' : ''}`,
      );
    if (this.truncatedPages.length)
      warnings.push(
        `The vision model stopped at llm.vision_max_tokens (${reading.vision?.maxTokens} tokens) on pages ${pageList(this.truncatedPages)}, whose text may be incomplete`,
      );
    if (this.ocrFailedPages.length)
      warnings.push(
        `OCR could not read pages ${pageList(this.ocrFailedPages)} (${this.ocrFailed.slice(0, 3).join('; ')})`,
      );
    return warnings;
  }
}

/**
 * Reads the pages, at most `ocr.max_pages` of them, telling `onProgress` before each. A page that fails is
 * tried once more on its own (the vision model's call under the retry policy), then becomes a warning
 * naming it; with `auto` a page the model cannot read is read by tesseract instead. A missing tool stops at once.
 */
export async function readScannedPages(
  pdfPath: string,
  pages: readonly ScannedPage[],
  reading: MediaReading['ocr'],
  signal: AbortSignal,
  onProgress?: (progress: LoaderProgress) => void,
): Promise<ScanReadings> {
  const texts = new Map<number, string>();
  const visionPages: number[] = [];
  if (pages.length === 0) return { texts, visionPages, warnings: [] };
  const numbers = pages.map((page) => page.number);
  const readers = pageReaders(reading);
  if (!readers.vision && !readers.ocr)
    return {
      texts,
      visionPages,
      warnings: [`pages ${pageList(numbers)} have no text layer and were not read: ${readers.note}`],
    };
  const warnings = readers.note ? [`pages ${pageList(numbers)} were read by OCR only: ${readers.note}`] : [];
  const read = pages.slice(0, reading.maxPages);
  if (read.length < pages.length)
    warnings.push(
      `pages ${pageList(numbers.slice(read.length))} have no text layer and were not read: ocr.max_pages (${reading.maxPages}) was reached`,
    );
  const vision = readers.vision && reading.vision ? visionReader(reading.vision) : null;
  const notes = new PageNotes();
  const directory = await mkdtemp(path.join(os.tmpdir(), 'rhizome-ocr-'));
  try {
    for (const [index, page] of read.entries()) {
      signal.throwIfAborted();
      const useVision = vision !== null && !notes.visionBroken;
      onProgress?.({ reader: useVision ? 'vision' : 'ocr', page: page.number, done: index, total: read.length });
      const outcome = await readPage({
        pdfPath,
        page,
        directory,
        reading,
        readers,
        vision: useVision ? vision : null,
        notes,
        signal,
      });
      if (outcome instanceof ToolMissingError) {
        warnings.push(
          `pages ${pageList(numbers.slice(numbers.indexOf(page.number)))} have no text layer and were not read: ${outcome.message}`,
        );
        break;
      }
      if (outcome.byVision) visionPages.push(page.number);
      if (outcome.text) texts.set(page.number, outcome.text);
    }
    return { texts, visionPages, warnings: [...warnings, ...notes.warnings(readers, reading)] };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

interface PageJob {
  pdfPath: string;
  page: ScannedPage;
  directory: string;
  reading: MediaReading['ocr'];
  readers: PageReaders;
  /** The model to read it with, or null for tesseract alone. */
  vision: VisionReader | null;
  notes: PageNotes;
  signal: AbortSignal;
}

/**
 * One page: rendered (tried twice), then its vision text and its OCR text as the readers say, the vision
 * text first. A missing tool is handed back to stop the run.
 */
async function readPage(job: PageJob): Promise<{ text: string; byVision: boolean } | ToolMissingError> {
  const { page, notes } = job;
  const image = await twice(job.signal, () =>
    rasterisePage(job.pdfPath, page.number, job.directory, {
      dpi: boundedDpi(page.widthPt, page.heightPt, job.reading.dpi, job.reading.maxPagePixels),
      timeoutMs: job.reading.pageTimeoutMs,
      signal: job.signal,
    }),
  );
  if (image instanceof Error) {
    if (image instanceof ToolMissingError) return image;
    notes.ocrFailedPages.push(page.number);
    notes.ocrFailed.push(`page ${page.number}: ${image.message}`);
    return { text: '', byVision: false };
  }
  try {
    const seen = job.vision ? await readWithModel(job, image, job.vision) : null;
    const ocrWanted = job.readers.ocr || (job.readers.ocrFallback && seen === null);
    const ocr = ocrWanted ? await readWithTesseract(job, image) : '';
    if (ocr instanceof ToolMissingError) return seen ? { text: seen, byVision: true } : ocr;
    return { text: [seen, ocr].filter(Boolean).join('\n\n'), byVision: seen !== null };
  } finally {
    await rm(image, { force: true });
  }
}

/** The model's text of the page, or null (noted) when it could not read it. */
async function readWithModel(job: PageJob, image: string, vision: VisionReader): Promise<string | null> {
  try {
    const reading = await vision.read({ mediaType: 'image/png', data: await readFile(image) }, pagePrompt, job.signal);
    if (reading.truncated) job.notes.truncatedPages.push(job.page.number);
    return reading.text;
  } catch (error) {
    job.signal.throwIfAborted();
    if (!(error instanceof LlmError)) throw error;
    job.notes.visionFailedPages.push(job.page.number);
    job.notes.visionFailed.push(`page ${job.page.number}: ${error.message}`);
    if (!error.transient) job.notes.visionBroken = true;
    return null;
  }
}

/** tesseract's text of the page (tried twice); a failure is noted, a missing tool handed back. */
async function readWithTesseract(job: PageJob, image: string): Promise<string | ToolMissingError> {
  const text = await twice(job.signal, () =>
    ocrImage(image, { languages: job.reading.languages, timeoutMs: job.reading.pageTimeoutMs, signal: job.signal }),
  );
  if (!(text instanceof Error)) return text;
  if (text instanceof ToolMissingError) return text;
  job.notes.ocrFailedPages.push(job.page.number);
  job.notes.ocrFailed.push(`page ${job.page.number}: ${text.message}`);
  return '';
}

/** `work`'s result, or the error of its second attempt (a missing tool is not tried again). */
async function twice<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T | Error> {
  let lastError: Error | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await work();
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof ToolMissingError) return error;
      lastError = error as Error;
    }
  }
  return lastError!;
}
