import { inflateRawSync } from 'node:zlib';
import { invalidPackage } from './errors.ts';

/**
 * A ZIP archive read from its central directory, checked before any entry is inflated (decision
 * 0014: jszip neither reports entry order and compression method reliably nor bounds what it
 * inflates). Every entry is refused unless its name is a plain relative path, it is a regular file,
 * and its declared size, the archive's entry count and total size, and its compression ratio stay
 * under the caps; inflating is then bounded by the declared size and checked against the CRC.
 */

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Uncompressed / compressed, for entries larger than `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

/** The CCX 3.0 reference limits (docs/api-conventions.md#ccx-packages) and a ratio far above what real JSON reaches. */
export const defaultZipLimits: ZipLimits = {
  maxEntries: 100_000,
  maxEntryBytes: 512 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxRatio: 250,
  ratioFloorBytes: 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const eocdSignature = 0x06054b50;
const zip64LocatorSignature = 0x07064b50;
const zip64EocdSignature = 0x06064b50;
const centralSignature = 0x02014b50;
const localSignature = 0x04034b50;
const fileTypeMask = 0o170000;
const regularFile = 0o100000;
const unixHost = 3;

export class ZipArchive {
  private readonly byName: Map<string, ZipEntry>;

  private constructor(
    private readonly bytes: Buffer,
    readonly entries: ZipEntry[],
  ) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
  }

  /** Parses and checks the central directory; throws a 400 naming the first problem. */
  static open(bytes: Buffer, limits: ZipLimits = defaultZipLimits): ZipArchive {
    const entries = readCentralDirectory(bytes, limits);
    checkEntries(entries, limits);
    return new ZipArchive(bytes, entries);
  }

  get(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /** The entry's bytes, inflated no further than its declared size and checked against its CRC. */
  read(entry: ZipEntry): Buffer {
    const at = entry.localHeaderOffset;
    if (at + 30 > this.bytes.length || this.bytes.readUInt32LE(at) !== localSignature)
      throw invalidPackage(`Entry '${entry.name}' has no local header`);
    const start = at + 30 + this.bytes.readUInt16LE(at + 26) + this.bytes.readUInt16LE(at + 28);
    if (start + entry.compressedSize > this.bytes.length) throw invalidPackage(`Entry '${entry.name}' is truncated`);
    const raw = this.bytes.subarray(start, start + entry.compressedSize);
    let data: Buffer;
    if (entry.method === 0) data = raw;
    else {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(entry.size, 1) });
      } catch (error) {
        const tooBig = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
        throw invalidPackage(
          tooBig
            ? `Entry '${entry.name}' inflates beyond its declared size (possible zip bomb)`
            : `Entry '${entry.name}' is corrupt: its compressed data cannot be unpacked`,
        );
      }
    }
    if (data.length !== entry.size)
      throw invalidPackage(`Entry '${entry.name}' holds ${data.length} bytes, not the ${entry.size} it declares`);
    if (crc32(data) !== entry.crc32)
      throw invalidPackage(`Entry '${entry.name}' fails its CRC check (corrupt archive)`);
    return data;
  }

  text(entry: ZipEntry): string {
    return this.read(entry).toString('utf8');
  }
}

function readCentralDirectory(bytes: Buffer, limits: ZipLimits): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(bytes);
  let count = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff) ({ count, offset } = readZip64End(bytes, eocd));
  if (count > limits.maxEntries)
    throw invalidPackage(`The archive has ${count} entries; at most ${limits.maxEntries} are accepted`);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== centralSignature)
      throw invalidPackage('The ZIP central directory is corrupt');
    const madeBy = bytes.readUInt16LE(at + 4);
    const flags = bytes.readUInt16LE(at + 8);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const externalAttributes = bytes.readUInt32LE(at + 38);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const entry: ZipEntry = {
      name,
      method: bytes.readUInt16LE(at + 10),
      crc32: bytes.readUInt32LE(at + 16),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localHeaderOffset: bytes.readUInt32LE(at + 42),
    };
    applyZip64Extra(entry, bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    if (flags & 1) throw invalidPackage(`Entry '${name}' is encrypted`);
    const fileType = (externalAttributes >>> 16) & fileTypeMask;
    if (madeBy >> 8 === unixHost && fileType !== 0 && fileType !== regularFile && !name.endsWith('/')) {
      throw invalidPackage(`Entry '${name}' is a link or special file, not a regular file`);
    }
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries.filter((entry) => !entry.name.endsWith('/'));
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (bytes.readUInt32LE(at) === eocdSignature) return at;
  }
  throw invalidPackage('The file is not a ZIP archive (no end of central directory record)');
}

function readZip64End(bytes: Buffer, eocd: number): { count: number; offset: number } {
  const locator = eocd - 20;
  if (locator < 0 || bytes.readUInt32LE(locator) !== zip64LocatorSignature)
    throw invalidPackage('The ZIP64 end of central directory locator is missing');
  const at = Number(bytes.readBigUInt64LE(locator + 8));
  if (at + 56 > bytes.length || bytes.readUInt32LE(at) !== zip64EocdSignature)
    throw invalidPackage('The ZIP64 end of central directory record is corrupt');
  return { count: Number(bytes.readBigUInt64LE(at + 32)), offset: Number(bytes.readBigUInt64LE(at + 48)) };
}

/** ZIP64 sizes and offsets replace the 32-bit fields that hold 0xFFFFFFFF, in this order. */
function applyZip64Extra(entry: ZipEntry, extra: Buffer): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 1) {
      let field = at + 4;
      for (const key of ['size', 'compressedSize', 'localHeaderOffset'] as const) {
        if (entry[key] !== 0xffffffff) continue;
        if (field + 8 > at + 4 + length) throw invalidPackage(`Entry '${entry.name}' has a truncated ZIP64 field`);
        entry[key] = Number(extra.readBigUInt64LE(field));
        field += 8;
      }
    }
    at += 4 + length;
  }
}

function checkEntries(entries: ZipEntry[], limits: ZipLimits): void {
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    checkName(entry.name);
    if (seen.has(entry.name)) throw invalidPackage(`Entry '${entry.name}' appears twice`);
    seen.add(entry.name);
    if (entry.method !== 0 && entry.method !== 8)
      throw invalidPackage(
        `Entry '${entry.name}' uses compression method ${entry.method}; only stored and deflated entries are accepted`,
      );
    if (entry.size > limits.maxEntryBytes)
      throw invalidPackage(
        `Entry '${entry.name}' declares ${entry.size} bytes; at most ${limits.maxEntryBytes} per entry are accepted`,
      );
    if (entry.method === 0 && entry.size !== entry.compressedSize)
      throw invalidPackage(`Stored entry '${entry.name}' declares inconsistent sizes`);
    if (entry.size > limits.ratioFloorBytes && entry.size > entry.compressedSize * limits.maxRatio) {
      throw invalidPackage(`Entry '${entry.name}' compresses more than ${limits.maxRatio}:1 (possible zip bomb)`);
    }
    total += entry.size;
    if (total > limits.maxTotalBytes)
      throw invalidPackage(`The archive declares more than ${limits.maxTotalBytes} bytes in total`);
  }
}

/** Archive paths are relative, forward-slashed, and never climb out of the package. */
export function checkName(name: string): void {
  if (!name || name.includes('\0')) throw invalidPackage('An entry has an empty or invalid name');
  if (name.startsWith('/') || name.includes('\\') || /^[a-zA-Z]:/.test(name))
    throw invalidPackage(`Entry '${name}' has an absolute or non-portable path`);
  if (name.split('/').some((part) => part === '..' || part === '.'))
    throw invalidPackage(`Entry '${name}' has a path traversal component`);
}

const crcTable = Int32Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value;
});

export function crc32(data: Buffer): number {
  let crc = -1;
  for (let index = 0; index < data.length; index += 1) crc = crcTable[(crc ^ data[index]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
