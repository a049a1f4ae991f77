/**
 * PDF through pdfjs-dist (legacy build, the one that runs on Node 20): text per page, page numbers on spans;
 * pages without a text layer (scans) are read by the vision model or OCR (`pdf-scans.ts`).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import { mediaReadingOf } from './media-reading.ts';
import { checkPdfStreams } from './pdf-bounds.ts';
import { readScannedPages, type ScannedPage } from './pdf-scans.ts';
import { UnreadableFileError, type LoadedDocument } from './port.ts';
import { readWhole } from './read.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjsModule: Promise<PdfJs> | null = null;

/** Loaded on first use: the library is large and most loads are not PDFs. */
function pdfjs(): Promise<PdfJs> {
  pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsModule;
}

/** Character maps and standard font data ship with pdfjs-dist; Node reads them from disk. */
const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

function infoString(info: unknown, key: string): string | null {
  const value = info && typeof info === 'object' ? (info as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function pageText(items: readonly object[]): string {
  let text = '';
  for (const item of items) {
    if (!('str' in item) || typeof item.str !== 'string') continue;
    text += item.str;
    if ('hasEOL' in item && item.hasEOL) text += '\n';
  }
  return text;
}

export const pdfLoader = defineLoader('pdf', async (input): Promise<LoadedDocument> => {
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, 'The PDF file');
  await checkPdfStreams(bytes, input.limits, input.signal);
  const { getDocument } = await pdfjs();
  const task = getDocument({
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    // pdfjs tries this empty user password itself; a file that needs a real one fails with PasswordException.
    password: '',
    cMapUrl: `${pdfjsRoot}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${pdfjsRoot}/standard_fonts/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy();
    const { name, message } = error as Error;
    if (name === 'PasswordException') {
      throw new UnreadableFileError('The PDF is password-protected; remove the password and upload it again');
    }
    throw new UnreadableFileError(`The PDF could not be read (${message})`);
  }

  try {
    const warnings: string[] = [];
    const pageTexts: (string | null)[] = [];
    const scanned: ScannedPage[] = [];
    let unreadablePages = 0;
    let textChars = 0;
    for (let number = 1; number <= document.numPages && textChars < input.limits.maxTextChars; number++) {
      input.signal.throwIfAborted();
      try {
        const page = await document.getPage(number);
        const content = await page.getTextContent();
        const text = pageText(content.items);
        if (!text.trim()) {
          const { width, height } = page.getViewport({ scale: 1 });
          scanned.push({ number, widthPt: width, heightPt: height });
        }
        page.cleanup();
        pageTexts.push(text);
        textChars += text.length;
      } catch (error) {
        unreadablePages++;
        pageTexts.push(null);
        warnings.push(`page ${number} could not be read: ${(error as Error).message}`);
      }
    }
    const scans = await readScannedPages(
      input.path,
      scanned,
      mediaReadingOf(input.limits).ocr,
      input.signal,
      input.onProgress,
    );
    warnings.push(...scans.warnings);
    const assembler = new TextAssembler(input.limits.maxTextChars);
    for (let index = 0; index < pageTexts.length && !assembler.full; index++) {
      const text = scans.texts.get(index + 1) ?? pageTexts[index];
      if (text !== null) assembler.add(text, index + 1);
    }
    if (document.numPages === 0 || unreadablePages === document.numPages) {
      throw new UnreadableFileError(
        `The PDF could not be read (${document.numPages === 0 ? 'no pages' : 'no page is readable'})`,
      );
    }
    const { info } = await document.getMetadata().catch(() => ({ info: null }));
    const result = assembler.result();
    return {
      ...result,
      warnings: [...warnings, ...result.warnings],
      format: 'pdf',
      kind: 'prose',
      title: infoString(info, 'Title'),
      metadata: {
        pageCount: document.numPages,
        author: infoString(info, 'Author'),
        producer: infoString(info, 'Producer'),
        pdfVersion: infoString(info, 'PDFFormatVersion'),
        encrypted: infoString(info, 'EncryptFilterName') !== null,
        ...(scanned.length
          ? { pagesWithoutText: scanned.length, ocrPages: [...scans.texts.keys()], visionPages: scans.visionPages }
          : {}),
      },
    };
  } finally {
    await document.destroy();
  }
});
