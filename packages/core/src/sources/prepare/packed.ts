import type { PageStart } from '../text/chunk.ts';
import type { PreparedChunk } from './prepare.ts';

/**
 * Prepared chunks as they cross the thread boundary: a segment's chunks as columns in a few buffers that
 * are transferred, not copied. Cloned as strings and objects, a 50 MB text's 71k chunks took a
 * serialisation buffer of twice their size in the preparation thread, a second copy on the receiving
 * thread, and 0.4 s of the receiving event loop to deserialise and collect; this way the receiver holds
 * the buffers and builds a chunk's object only when a stretch of chunks is read.
 */
export interface PackedChunks {
  count: number;
  /** The chunks' contents, UTF-8, back to back. */
  contents: Uint8Array;
  /** Where each chunk's content ends in `contents`. */
  contentEnds: Float64Array;
  /** The chunks' ids, back to back (all ids have one length). */
  ids: string;
  /** `fieldCount` numbers a chunk (see `fields`); NaN stands for null. */
  numbers: Float64Array;
  /** The distinct section names, which `section` numbers point into. */
  sections: string[];
  /** Page starts of the chunks that run over a page break, by chunk position. */
  pageStarts: [number, PageStart[]][];
}

/** Chunks read a stretch at a time: a large document's are built wave by wave, not all at once. */
export interface ChunkList {
  readonly length: number;
  slice(start?: number, end?: number): PreparedChunk[];
}

const fields = ['index', 'start', 'end', 'page', 'originalStart', 'originalEnd', 'tokenEstimate'] as const;
/** Two more numbers a chunk: its offset match (`offsetMatches` position) and its section (`sections` position). */
const fieldCount = fields.length + 2;
const offsetMatches: PreparedChunk['offsetMatch'][] = ['exact', 'fuzzy', 'none'];

export function packChunks(chunks: readonly PreparedChunk[]): PackedChunks {
  const contentEnds = new Float64Array(chunks.length);
  let size = 0;
  chunks.forEach((chunk, index) => {
    size += Buffer.byteLength(chunk.content);
    contentEnds[index] = size;
  });
  // Not from the shared pool: the buffer must own its memory to be transferred.
  const contents = Buffer.allocUnsafeSlow(size);
  const numbers = new Float64Array(chunks.length * fieldCount);
  const sections = new Map<string, number>();
  const pageStarts: [number, PageStart[]][] = [];
  let offset = 0;
  chunks.forEach((chunk, position) => {
    offset += contents.write(chunk.content, offset);
    const base = position * fieldCount;
    fields.forEach((field, at) => (numbers[base + at] = chunk[field] ?? Number.NaN));
    numbers[base + fields.length] = offsetMatches.indexOf(chunk.offsetMatch);
    if (chunk.section !== null && !sections.has(chunk.section)) sections.set(chunk.section, sections.size);
    numbers[base + fields.length + 1] = chunk.section === null ? Number.NaN : sections.get(chunk.section)!;
    if (chunk.pageStarts) pageStarts.push([position, chunk.pageStarts]);
  });
  const ids = chunks.map((chunk) => chunk.id).join('');
  if (chunks.length && ids.length !== chunks.length * chunks[0].id.length)
    throw new Error('chunk ids of different lengths cannot be packed');
  return { count: chunks.length, contents, contentEnds, ids, numbers, sections: [...sections.keys()], pageStarts };
}

/** What the sending thread must transfer rather than copy. */
export function packedBuffers(packed: PackedChunks): ArrayBuffer[] {
  const { contents, contentEnds, numbers } = packed;
  return [contents.buffer as ArrayBuffer, contentEnds.buffer as ArrayBuffer, numbers.buffer as ArrayBuffer];
}

/** The chunks again, each built when a stretch of them is read. */
export class PackedChunkList implements ChunkList {
  private readonly contents: Buffer;
  private readonly pageStarts: Map<number, PageStart[]>;
  private readonly idLength: number;

  constructor(private readonly packed: PackedChunks) {
    const { contents } = packed;
    this.contents = Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength);
    this.pageStarts = new Map(packed.pageStarts);
    this.idLength = packed.count ? packed.ids.length / packed.count : 0;
  }

  get length(): number {
    return this.packed.count;
  }

  slice(start = 0, end = this.packed.count): PreparedChunk[] {
    const chunks: PreparedChunk[] = [];
    for (let position = Math.max(0, start); position < Math.min(end, this.packed.count); position++)
      chunks.push(this.at(position));
    return chunks;
  }

  private at(position: number): PreparedChunk {
    const { contentEnds, numbers, sections, ids } = this.packed;
    const base = position * fieldCount;
    const number = (at: number) => (Number.isNaN(numbers[base + at]) ? null : numbers[base + at]);
    const field = (name: (typeof fields)[number]) => number(fields.indexOf(name));
    const section = number(fields.length + 1);
    return {
      id: ids.slice(position * this.idLength, (position + 1) * this.idLength),
      index: field('index')!,
      content: this.contents.toString('utf8', position === 0 ? 0 : contentEnds[position - 1], contentEnds[position]),
      start: field('start')!,
      end: field('end')!,
      page: field('page'),
      originalStart: field('originalStart'),
      originalEnd: field('originalEnd'),
      tokenEstimate: field('tokenEstimate')!,
      offsetMatch: offsetMatches[numbers[base + fields.length]],
      section: section === null ? null : sections[section],
      pageStarts: this.pageStarts.get(position) ?? null,
    };
  }
}
