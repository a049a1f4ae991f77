/**
 * Small-chunk splitting: recursive splitting on the separator order below with the
 * separator kept at the end of its piece, then greedy packing towards `small_chunk_size` with a
 * word-aligned overlap. Pieces are offset ranges into the text, never copies, so the cost is linear
 * and `text.slice(chunk.start, chunk.end) === chunk.content` holds for every chunk.
 */
import { createHash } from 'node:crypto';
import type { Settings } from '@rhizome/contracts/settings';
import type { TextSpan } from '../loaders/port.ts';

export interface Chunk {
  index: number;
  /** `chk_` + 24 hex of sha256(sourceId:index:content): the same content re-indexed keeps its id. */
  id: string;
  content: string;
  /** Offsets into the chunked text, end exclusive. */
  start: number;
  end: number;
  /** The page the chunk starts on. */
  page: number | null;
  /** For a chunk that runs over a page break: where each of its pages begins in `content`, the first at 0. */
  pageStarts: PageStart[] | null;
  section: string | null;
  /** Characters / 4, rounded up. */
  tokenEstimate: number;
}

export interface PageStart {
  offset: number;
  page: number;
}

/** The page of the character at `offset` in a chunk's content: the last page begun at or before it. */
export function pageAtOffset(
  chunk: { page: number | null; pageStarts: readonly PageStart[] | null },
  offset: number,
): number | null {
  let page = chunk.page;
  for (const start of chunk.pageStarts ?? []) if (start.offset <= offset) page = start.page;
  return page;
}

export type ChunkingOptions = Pick<
  Settings['chunking'],
  'small_chunk_size' | 'small_chunk_overlap' | 'min_chunk_size' | 'max_chunk_size' | 'respect_boundaries'
>;

const BOUNDARY_SEPARATORS = ['. ', '! ', '? ', '\n\n', '\n', '; ', ', ', ' ', ''];
const WORD_SEPARATORS = [' ', '\n', ''];

function chunkId(sourceId: string, index: number, content: string): string {
  return 'chk_' + createHash('sha256').update(`${sourceId}:${index}:${content}`).digest('hex').slice(0, 24);
}

const estimateTokens = (content: string) => Math.ceil(content.length / 4);

function isSpace(code: number): boolean {
  return (
    code <= 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

interface Limits {
  target: number;
  max: number;
  min: number;
  overlap: number;
}

function limitsOf(options: ChunkingOptions): Limits {
  const target = options.small_chunk_size;
  return {
    target,
    max: Math.max(options.max_chunk_size, target),
    min: Math.min(options.min_chunk_size, target),
    overlap: Math.min(options.small_chunk_overlap, Math.floor(target / 2)),
  };
}

/** Chunk ranges as flat [start, end, start, end …] pairs, before whitespace trimming. */
function chunkRanges(text: string, limits: Limits, separators: readonly string[]): number[] {
  const { target, max, min, overlap } = limits;
  const ranges: number[] = [];
  let start = -1;
  let end = -1;
  // Piece starts inside the current chunk: the preferred places for the next chunk's overlap to begin.
  let pieceStarts: number[] = [];

  const skipSpace = (from: number) => {
    let p = from;
    while (p < end && isSpace(text.charCodeAt(p))) p++;
    return p;
  };

  const overlapStart = (nextEnd: number): number => {
    const lowest = Math.max(end - overlap, nextEnd - target, skipSpace(start) + 1);
    if (lowest >= end) return end;
    const atPiece = pieceStarts.find((p) => p >= lowest);
    if (atPiece !== undefined) return skipSpace(atPiece);
    for (let p = lowest; p < end; p++) if (isSpace(text.charCodeAt(p - 1)) && !isSpace(text.charCodeAt(p))) return p;
    return end;
  };

  const addPiece = (pieceStart: number, pieceEnd: number) => {
    if (start < 0) {
      start = pieceStart;
      end = pieceEnd;
      return;
    }
    const length = pieceEnd - start;
    if (length <= target || (end - start < min && length <= max)) {
      pieceStarts.push(pieceStart);
      end = pieceEnd;
      return;
    }
    ranges.push(start, end);
    const next = overlapStart(pieceEnd);
    pieceStarts = pieceStarts.filter((p) => p > next);
    if (pieceStart > next) pieceStarts.push(pieceStart);
    start = next;
    end = pieceEnd;
  };

  const hardCut = (from: number, to: number) => {
    if (to - from <= max) return addPiece(from, to);
    for (let p = from; p < to;) {
      let q = Math.min(p + target, to);
      const code = text.charCodeAt(q);
      if (q < to && code >= 0xdc00 && code <= 0xdfff) q--;
      addPiece(p, q);
      p = q;
    }
  };

  const split = (from: number, to: number, level: number) => {
    if (to - from <= target) return addPiece(from, to);
    // A sliced string shares the parent's characters, so searching it costs only its own length.
    const slice = text.slice(from, to);
    let l = level;
    while (separators[l] !== '' && !slice.includes(separators[l])) l++;
    const separator = separators[l];
    if (separator === '') return hardCut(from, to);
    for (let at = 0; at < slice.length;) {
      const found = slice.indexOf(separator, at);
      const pieceEnd = found < 0 ? slice.length : found + separator.length;
      if (pieceEnd - at <= target) addPiece(from + at, from + pieceEnd);
      else split(from + at, from + pieceEnd, l + 1);
      at = pieceEnd;
    }
  };

  split(0, text.length, 0);
  if (start < 0) return ranges;
  const last = ranges.length - 2;
  // A short tail joins the chunk before it rather than standing alone.
  if (last >= 0 && end - ranges[last + 1] < min && end - ranges[last] <= max) ranges[last + 1] = end;
  else ranges.push(start, end);
  return ranges;
}

/** The spans a chunk's range [start, end) overlaps, in order. Chunk starts only grow, so one forward pointer serves every lookup. */
function spanLookup(spans: readonly TextSpan[]): (start: number, end: number) => TextSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let i = 0;
  return (start, end) => {
    while (i < sorted.length && sorted[i].end <= start) i++;
    const overlapping: TextSpan[] = [];
    for (let j = i; j < sorted.length && sorted[j].start < end; j++)
      if (sorted[j].end > start) overlapping.push(sorted[j]);
    return overlapping;
  };
}

/** Where the pages after the chunk's first begin within it; null when it stays on one page. */
function pageStartsOf(spans: readonly TextSpan[], chunkStart: number): PageStart[] | null {
  const starts: PageStart[] = [];
  for (const span of spans) {
    if (span.page === null || span.page === starts.at(-1)?.page) continue;
    starts.push({ offset: Math.max(0, span.start - chunkStart), page: span.page });
  }
  return starts.length > 1 ? starts : null;
}

/**
 * Splits `text` into chunks of at most `max_chunk_size` characters aiming at `small_chunk_size`, each
 * starting `small_chunk_overlap` characters or less before the previous one ends. Whitespace-only text
 * yields no chunk; any other text at least one. `firstIndex`: the index of the first chunk, when `text`
 * is a segment of a document whose earlier segments gave that many chunks.
 */
export function chunkText(
  sourceId: string,
  text: string,
  spans: readonly TextSpan[],
  options: ChunkingOptions,
  firstIndex = 0,
): Chunk[] {
  const separators = options.respect_boundaries ? BOUNDARY_SEPARATORS : WORD_SEPARATORS;
  const ranges = chunkRanges(text, limitsOf(options), separators);
  const spansOf = spanLookup(spans);
  const chunks: Chunk[] = [];
  for (let r = 0; r < ranges.length; r += 2) {
    let start = ranges[r];
    let end = ranges[r + 1];
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    if (start === end) continue;
    const content = text.slice(start, end);
    const index = firstIndex + chunks.length;
    const overlapping = spansOf(start, end);
    const first = overlapping[0]?.start <= start ? overlapping[0] : null;
    const pageStarts = pageStartsOf(overlapping, start);
    chunks.push({
      index,
      id: chunkId(sourceId, index, content),
      content,
      start,
      end,
      page: overlapping[0]?.page ?? null,
      pageStarts,
      section: first?.section ?? null,
      tokenEstimate: estimateTokens(content),
    });
  }
  return chunks;
}
