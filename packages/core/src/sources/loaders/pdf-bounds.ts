/**
 * Bounds what the streams of a PDF inflate to, before pdfjs reads it: pdfjs inflates a stream whole into
 * memory, so a 1 MB file holding a FlateDecode stream of a gigabyte of zeros would take gigabytes. Every
 * Flate stream is inflated here first, counted as it streams and thrown away: one that inflates past
 * `maxStreamBytes`, or all together past the loader's unpacked limit, refuses the file — like the
 * archive bounds of zip-based documents.
 */
import zlib from 'node:zlib';
import { UnreadableFileError, type LoaderLimits } from './port.ts';

/** Far more than the text content and fonts of any page; a scanned page's image is not text and is not counted. */
export const maxStreamBytes = 64 * 1024 * 1024;

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const isDelimiter = (byte: number | undefined) => byte === undefined || byte <= 0x20 || byte === 0x3e; // space or '>'

interface RawStream {
  dictionary: string;
  data: Buffer;
}

/** Each `stream … endstream` of the file with the dictionary before it, read as written (no xref needed). */
function* rawStreams(bytes: Buffer): Generator<RawStream> {
  let previousEnd = 0;
  for (let at = bytes.indexOf('stream', 0, 'latin1'); at >= 0; at = bytes.indexOf('stream', at + 6, 'latin1')) {
    const eol = bytes[at + 6] === 0x0d ? (bytes[at + 7] === 0x0a ? 2 : 1) : bytes[at + 6] === 0x0a ? 1 : 0;
    if (eol === 0 || !isDelimiter(bytes[at - 1])) continue; // "endstream", or a word in text
    const start = at + 6 + eol;
    const end = bytes.indexOf('endstream', start, 'latin1');
    if (end < 0) return;
    const dictionaryStart = Math.max(bytes.lastIndexOf('obj', at, 'latin1'), previousEnd);
    yield { dictionary: bytes.toString('latin1', dictionaryStart, at), data: bytes.subarray(start, end) };
    previousEnd = end + 'endstream'.length;
    at = previousEnd - 6;
  }
}

/** How much `data` inflates to, counted up to just past `limit`; a damaged or non-zlib stream counts what came out. */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        inflate.destroy();
        resolve(size);
      }
    });
    inflate.on('end', () => resolve(size));
    inflate.on('error', () => resolve(size));
    inflate.end(data);
  });
}

export async function checkPdfStreams(bytes: Buffer, limits: LoaderLimits, signal: AbortSignal): Promise<void> {
  let total = 0;
  for (const { dictionary, data } of rawStreams(bytes)) {
    signal.throwIfAborted();
    if (!/\/(?:FlateDecode|Fl)\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const size = await inflatedSize(data, Math.min(maxStreamBytes, limits.maxUnpackedBytes - total));
    if (size > maxStreamBytes)
      throw new UnreadableFileError(`The PDF has a stream that inflates to more than ${mib(maxStreamBytes)} MiB`);
    total += size;
    if (total > limits.maxUnpackedBytes)
      throw new UnreadableFileError(`The PDF's streams inflate to more than ${mib(limits.maxUnpackedBytes)} MiB`);
  }
}
