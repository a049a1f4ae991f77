/**
 * Media type from content first: magic numbers (a `.pdf` that is a PNG is a PNG), the entries at the start
 * of a zip, then text heuristics, where the extension picks among text formats unless the content clearly
 * says otherwise. Works on the first few KB only.
 */
import { decodeText, looksLikeText } from './encoding.ts';
import { canonicalMediaType, extensionOf, formatForExtension } from './formats.ts';
import { imageFormat } from './image.ts';
import { oleKind, oleRefusals } from './ole-sniff.ts';
import type { LoaderFormat } from './port.ts';
import { sniffRecording } from './recording-sniff.ts';

export interface SniffResult {
  mediaType: string;
  format: LoaderFormat;
}

/** How much of a file sniffing reads. */
export const SNIFF_BYTES = 16 * 1024;

const LOCAL_HEADER = Buffer.from('PK\x03\x04', 'latin1');
const ZIP_FORMATS: Record<string, LoaderFormat> = { 'word/': 'docx', 'xl/': 'xlsx', 'ppt/': 'pptx' };
/** The `mimetype` entry an OpenDocument package starts with (templates read as their documents). */
const OPENDOCUMENT_TYPES: Record<string, LoaderFormat> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
};
/** Zip-based formats a package-looking zip may be taken for by its extension alone. */
const PACKAGE_FORMATS = new Set<LoaderFormat>(['docx', 'xlsx', 'xlsm', 'pptx', 'epub', 'odt', 'ods', 'odp']);
const TEXT_FORMATS = new Set<LoaderFormat>(['text', 'markdown', 'csv', 'tsv', 'json', 'jsonl', 'xml', 'html', 'rst']);
/** Text formats whose extension is trusted over content that merely starts with `<` or `{`. */
const PLAIN_TEXT_FORMATS = new Set<LoaderFormat>(['text', 'markdown', 'csv', 'tsv', 'rst']);

function result(format: LoaderFormat): SniffResult {
  return { format, mediaType: canonicalMediaType(format) };
}

/** Names of the zip entries whose local headers lie within `head`. */
function zipEntries(head: Buffer): { name: string; dataStart: number }[] {
  const entries: { name: string; dataStart: number }[] = [];
  let p = head.indexOf(LOCAL_HEADER);
  while (p >= 0 && p + 30 <= head.length && entries.length < 256) {
    const flags = head.readUInt16LE(p + 6);
    const compressedSize = head.readUInt32LE(p + 18);
    const nameLength = head.readUInt16LE(p + 26);
    const extraLength = head.readUInt16LE(p + 28);
    if (p + 30 + nameLength > head.length) break;
    const dataStart = p + 30 + nameLength + extraLength;
    entries.push({ name: head.toString('utf8', p + 30, p + 30 + nameLength), dataStart });
    // With a data descriptor (flag bit 3) the size comes after the data, so look for the next header instead.
    const next = (flags & 0x08) === 0 && compressedSize !== 0xffffffff ? dataStart + compressedSize : -1;
    p =
      next > p && next + 4 <= head.length && head.readUInt32LE(next) === 0x04034b50
        ? next
        : head.indexOf(LOCAL_HEADER, dataStart);
  }
  return entries;
}

/** The format a stored `mimetype` entry names (EPUB and OpenDocument put it first, uncompressed). */
function mimetypeFormat(head: Buffer, dataStart: number): LoaderFormat | null {
  const declared = head.toString('latin1', dataStart, Math.min(head.length, dataStart + 80));
  if (declared.startsWith('application/epub+zip')) return 'epub';
  const match = /^application\/vnd\.oasis\.opendocument\.[a-z-]+/.exec(declared);
  return match ? (OPENDOCUMENT_TYPES[match[0]] ?? null) : null;
}

function sniffZip(head: Buffer, filename: string): SniffResult | null {
  const entries = zipEntries(head);
  const first = entries[0];
  const declared = first?.name === 'mimetype' ? mimetypeFormat(head, first.dataStart) : null;
  if (declared) return result(declared);
  for (const { name } of entries) {
    for (const [prefix, format] of Object.entries(ZIP_FORMATS)) {
      if (!name.startsWith(prefix)) continue;
      // A macro-enabled workbook is told by its macro part or, when that lies past the head, its name.
      const macros =
        format === 'xlsx' &&
        (extensionOf(filename) === '.xlsm' || entries.some((entry) => entry.name === 'xl/vbaProject.bin'));
      return result(macros ? 'xlsm' : format);
    }
  }
  // The telling entries may lie past the head; a package-looking zip then goes by its extension.
  const byExtension = formatForExtension(filename);
  const looksLikePackage =
    entries.length === 0 ||
    entries.some(
      ({ name }) =>
        name === '[Content_Types].xml' ||
        name.startsWith('_rels/') ||
        name.startsWith('docProps/') ||
        name === 'mimetype' ||
        name.startsWith('META-INF/') ||
        name === 'content.xml' ||
        name === 'meta.xml',
    );
  if (looksLikePackage && byExtension && PACKAGE_FORMATS.has(byExtension)) return result(byExtension);
  return null;
}

/** RTF starts with `{\rtf` (Word writes `{\rtf1`), possibly after a BOM or white space. */
function isRtf(head: Buffer): boolean {
  return /^(?:\uFEFF|\xEF\xBB\xBF)?\s*\{\\rtf/.test(head.toString('latin1', 0, 64));
}

type TextShape = 'html' | 'xml' | 'json' | 'plain';

function textShape(text: string): TextShape {
  const start = text.replace(/^\s+/, '').slice(0, 1024);
  if (
    /^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<!doctype\s+html/i.test(start) ||
    /^(?:<!--[\s\S]*?-->\s*)*<html[\s>]/i.test(start)
  )
    return 'html';
  if (/^<\?xml/.test(start) || /^<[A-Za-z_][\w:.-]*[\s>/]/.test(start))
    return /<html[\s>]/i.test(start) ? 'html' : 'xml';
  if (/^[{[]/.test(start)) return 'json';
  return 'plain';
}

const FORMAT_OF_SHAPE: Record<TextShape, LoaderFormat> = { html: 'html', xml: 'xml', json: 'json', plain: 'text' };

function sniffText(head: Buffer, filename: string): SniffResult | null {
  if (!looksLikeText(head)) return null;
  const shape = textShape(decodeText(head, { partial: true }).text);
  const declared = formatForExtension(filename);
  if (declared && PLAIN_TEXT_FORMATS.has(declared)) return result(shape === 'html' ? 'html' : declared);
  // An HTML fragment need not start with a tag.
  if (declared === 'html') return result(shape === 'json' ? 'json' : 'html');
  if ((declared === 'json' || declared === 'jsonl') && shape === 'json') return result(declared);
  return result(FORMAT_OF_SHAPE[shape]);
}

/**
 * The media type and loader format of a file from its first bytes (`SNIFF_BYTES` of them) and its name, or
 * null for binary content no loader reads (including plain archives) or a zip that is no document.
 */
export function sniffMediaType(head: Buffer, filename: string): SniffResult | null {
  const image = imageFormat(head);
  if (image) return { format: 'image', mediaType: `image/${image}` };
  const recording = sniffRecording(head);
  if (recording) return recording;
  const pdfHeader = head.subarray(0, 1024).indexOf('%PDF-');
  // pdfjs accepts a header up to 1 KB in (after a binary wrapper); text that merely mentions %PDF- is not one.
  if (pdfHeader === 0 || (pdfHeader > 0 && !looksLikeText(head.subarray(0, pdfHeader)))) return result('pdf');
  if (head.length >= 4 && head.readUInt32LE(0) === 0x04034b50) return sniffZip(head, filename);
  const ole = oleKind(head, filename);
  if (ole) return ole === 'doc' ? result('doc') : null;
  if (isRtf(head)) return result('rtf');
  if (head.length === 0) {
    const byExtension = formatForExtension(filename);
    return byExtension && TEXT_FORMATS.has(byExtension) ? result(byExtension) : null;
  }
  return sniffText(head, filename);
}

/** A name for binary content that sniffing refuses, for the error message; null when it is just unknown. */
export function describeUnsupported(head: Buffer, filename: string): string | null {
  if (head.length >= 4 && (head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50)) {
    return extensionOf(filename) === '.zip'
      ? 'a zip archive'
      : 'a zip archive that is not a DOCX, XLSX, PPTX, EPUB or OpenDocument document';
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'a gzip archive';
  if (head.length > 262 && head.toString('latin1', 257, 262) === 'ustar') return 'a tar archive';
  return null;
}

/**
 * The refusal of a legacy Office file Rhizome does not read (.xls, .ppt, other OLE files), naming the file,
 * its format and what to do instead; null for any other content.
 */
export function legacyRefusal(head: Buffer, filename: string): string | null {
  const kind = oleKind(head, filename);
  return kind && kind !== 'doc' ? `'${filename}' is ${oleRefusals[kind]}` : null;
}
