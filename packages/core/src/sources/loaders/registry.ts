/** All loaders, and `loadDocument`: sniff the content, pick the loader, enforce the text limit. */
import { truncateDocument } from './assemble.ts';
import { csvLoader, tsvLoader } from './csv.ts';
import { docLoader } from './doc.ts';
import { docxLoader } from './docx.ts';
import { epubLoader } from './epub.ts';
import { htmlLoader } from './html.ts';
import { imageLoader } from './image.ts';
import { jsonLoader, jsonlLoader } from './json.ts';
import { odpLoader, odsLoader, odtLoader } from './opendocument.ts';
import { pdfLoader } from './pdf.ts';
import { UnreadableFileError, type LoadedDocument, type Loader, type LoaderFormat, type LoaderInput } from './port.ts';
import { pptxLoader } from './pptx.ts';
import { readHead } from './read.ts';
import { audioLoader, videoLoader } from './recording.ts';
import { rstLoader } from './rst.ts';
import { rtfLoader } from './rtf.ts';
import { describeUnsupported, legacyRefusal, SNIFF_BYTES, sniffMediaType } from './sniff.ts';
import { markdownLoader, textLoader } from './text.ts';
import { xlsmLoader, xlsxLoader } from './xlsx.ts';
import { xmlLoader } from './xml.ts';

export const allLoaders: readonly Loader[] = [
  textLoader,
  markdownLoader,
  pdfLoader,
  docxLoader,
  htmlLoader,
  csvLoader,
  tsvLoader,
  jsonLoader,
  jsonlLoader,
  xmlLoader,
  xlsxLoader,
  pptxLoader,
  epubLoader,
  rstLoader,
  imageLoader,
  audioLoader,
  videoLoader,
  odtLoader,
  odsLoader,
  odpLoader,
  rtfLoader,
  xlsmLoader,
  docLoader,
];

const byFormat = new Map<LoaderFormat, Loader>(allLoaders.map((loader) => [loader.format, loader]));

export function loaderFor(format: LoaderFormat): Loader {
  const loader = byFormat.get(format);
  if (!loader) throw new UnreadableFileError(`No loader reads ${format} files`);
  return loader;
}

/** Sniffs the stored file (its first `SNIFF_BYTES`), loads it with the matching loader and caps its text. */
export async function loadDocument(input: LoaderInput): Promise<LoadedDocument & { mediaType: string }> {
  input.signal.throwIfAborted();
  const head = await readHead(input.path, SNIFF_BYTES);
  if (head.length === 0)
    throw new UnreadableFileError(`${input.filename} is empty (0 bytes): there is nothing to index`);
  const sniffed = sniffMediaType(head, input.filename);
  if (!sniffed) {
    const legacy = legacyRefusal(head, input.filename);
    if (legacy) throw new UnreadableFileError(legacy);
    const kind = describeUnsupported(head, input.filename);
    throw new UnreadableFileError(
      kind
        ? `${input.filename} is ${kind}, which is not a supported document format`
        : `${input.filename} is not in a supported document format`,
    );
  }
  const document = await loaderFor(sniffed.format).load(input);
  return { ...truncateDocument(document, input.limits.maxTextChars), mediaType: sniffed.mediaType };
}
