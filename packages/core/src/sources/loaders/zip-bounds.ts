/**
 * Opens a zip-based document (docx, xlsx, pptx, epub) within the loader limits. The central directory is
 * read first, so an archive with too many entries, too large declared sizes or unsafe entry names is
 * refused before jszip parses it; every inflation is then counted as it streams, because a zip bomb
 * declares small sizes and inflates to gigabytes.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import JSZip from 'jszip';
import { decodeText } from './encoding.ts';
import { UnreadableFileError, type LoaderLimits } from './port.ts';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_SIZE = 22;
const ZIP64_MARKER = 0xffffffff;

interface CentralEntry {
  name: string;
  declaredSize: number;
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - 0xffff);
  for (let p = bytes.length - EOCD_SIZE; p >= lowest; p--) {
    if (bytes.readUInt32LE(p) === EOCD_SIGNATURE) return p;
  }
  return -1;
}

/** Absolute, drive-qualified or parent-escaping names (zip-slip), which no office file or EPUB contains. */
export function isUnsafeEntryName(name: string): boolean {
  return name.startsWith('/') || name.startsWith('\\') || /^[a-zA-Z]:/.test(name) || name.split(/[\\/]/).includes('..');
}

function readCentralDirectory(bytes: Buffer, limits: LoaderLimits, what: string): CentralEntry[] {
  const corrupt = (detail: string): UnreadableFileError =>
    new UnreadableFileError(`${what} is not a valid zip archive (${detail})`);
  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0) throw corrupt('no end of central directory');
  const count = bytes.readUInt16LE(eocd + 10);
  const offset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === ZIP64_MARKER)
    throw new UnreadableFileError(`${what} is a ZIP64 archive, which loaders do not open`);
  if (count > limits.maxEntries)
    throw new UnreadableFileError(`${what} has ${count} entries, more than the limit of ${limits.maxEntries}`);

  const entries: CentralEntry[] = [];
  let declaredTotal = 0;
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== CENTRAL_SIGNATURE)
      throw corrupt('damaged central directory');
    const declaredSize = bytes.readUInt32LE(p + 24);
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    const name = bytes.toString(
      (bytes.readUInt16LE(p + 8) & 0x800) !== 0 ? 'utf8' : 'latin1',
      p + 46,
      p + 46 + nameLength,
    );
    if (isUnsafeEntryName(name))
      throw new UnreadableFileError(`${what} contains an unsafe entry name: ${JSON.stringify(name)}`);
    declaredTotal += declaredSize;
    if (declaredTotal > limits.maxUnpackedBytes) {
      throw new UnreadableFileError(`${what} unpacks to more than the limit of ${limits.maxUnpackedBytes} bytes`);
    }
    entries.push({ name, declaredSize });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export class BoundedArchive {
  private inflatedBytes = 0;

  constructor(
    private readonly zip: JSZip,
    private readonly limits: LoaderLimits,
    private readonly what: string,
    /** File entries (no directories), in central-directory order. */
    readonly names: readonly string[],
  ) {}

  get inflated(): number {
    return this.inflatedBytes;
  }

  has(name: string): boolean {
    return this.zip.file(name) !== null;
  }

  /** The entry's bytes, or null when the archive has no such entry. */
  async readBytes(name: string): Promise<Buffer | null> {
    const file = this.zip.file(name);
    return file ? this.inflate(file, true) : null;
  }

  /** The entry as text (XML parts are UTF-8 or UTF-16 with a BOM), or null when absent. */
  async readText(name: string): Promise<string | null> {
    const bytes = await this.readBytes(name);
    return bytes ? decodeText(bytes).text : null;
  }

  /** Inflates every entry without keeping it, proving the archive safe to hand to another library (mammoth). */
  async inflateAll(): Promise<void> {
    for (const name of this.names) {
      const file = this.zip.file(name);
      if (file) await this.inflate(file, false);
    }
  }

  private inflate(file: JSZip.JSZipObject, keep: true): Promise<Buffer>;
  private inflate(file: JSZip.JSZipObject, keep: false): Promise<null>;
  private inflate(file: JSZip.JSZipObject, keep: boolean): Promise<Buffer | null> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const stream = file.nodeStream('nodebuffer') as Readable;
      stream.on('data', (chunk: Buffer) => {
        this.inflatedBytes += chunk.length;
        if (this.inflatedBytes > this.limits.maxUnpackedBytes) {
          stream.destroy();
          reject(
            new UnreadableFileError(
              `${this.what} unpacks to more than the limit of ${this.limits.maxUnpackedBytes} bytes`,
            ),
          );
        } else if (keep) chunks.push(chunk);
      });
      // jszip's own wording ("Bug : uncompressed data size mismatch") says nothing to the person who sent the file.
      stream.on('error', () =>
        reject(
          new UnreadableFileError(
            `${this.what} is damaged: its entry ${file.name} does not unpack to the size and checksum the archive records`,
          ),
        ),
      );
      stream.on('end', () => resolve(keep ? Buffer.concat(chunks) : null));
    });
  }
}

/** `what` names the file in error messages ("the DOCX file"). */
export async function openArchive(bytes: Buffer, limits: LoaderLimits, what: string): Promise<BoundedArchive> {
  const entries = readCentralDirectory(bytes, limits, what);
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { createFolders: false });
  } catch (error) {
    const detail = /encrypt/i.test((error as Error).message) ? 'it is encrypted' : 'its entry headers are damaged';
    throw new UnreadableFileError(`${what} is not a valid zip archive (${detail})`);
  }
  return new BoundedArchive(
    zip,
    limits,
    what,
    entries.filter((entry) => !entry.name.endsWith('/')).map((entry) => entry.name),
  );
}

/**
 * Resolves a reference found in one entry (`../media/a.png`, `chapter%201.xhtml#x`, `/xl/sheet1.xml`) to an
 * entry name, or null when it points outside the archive.
 */
export function resolveEntryPath(fromEntry: string, reference: string): string | null {
  let target = reference.replace(/[?#].*$/, '');
  try {
    target = decodeURIComponent(target);
  } catch {
    // A stray % is part of the name.
  }
  const joined = target.startsWith('/') ? target.slice(1) : path.posix.join(path.posix.dirname(fromEntry), target);
  const normalized = path.posix.normalize(joined);
  return normalized.startsWith('../') || normalized === '..' || normalized === '.' ? null : normalized;
}
