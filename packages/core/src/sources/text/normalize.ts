/**
 * Text normalisation before chunking. Every step is a
 * list of edits on the current text, folded into one offset map, so any position of the normalised
 * text maps back to the loader's original text and the loader's page/section spans survive.
 */
import type { TextSpan } from '../loaders/port.ts';
import { windows1252High } from './windows-1252.ts';

export interface NormalizeOptions {
  kind: 'prose' | 'structured' | 'image';
  /** null = auto: on for prose (and vision text of images), off for structured text. */
  enabled: boolean | null;
  removeStructuralNoise: boolean;
  normalizeNewlines: boolean;
  /** Spans of the original text; returned remapped onto the normalised text. */
  spans?: readonly TextSpan[];
}

export interface NormalizedText {
  text: string;
  offsetMap: OffsetMap;
  spans: TextSpan[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Which side of a removed or replaced stretch a position at its edge belongs to: a range's start or its end. */
export type Bias = 'start' | 'end';

/**
 * Map between the normalised and the original text, as segments that each either copy text verbatim
 * or replace it (an insertion or deletion is a replacement with one side empty). Segment i starts at
 * `normalized[i]` / `original[i]` and runs to the next segment's start.
 */
export class OffsetMap {
  constructor(
    readonly normalized: readonly number[],
    readonly original: readonly number[],
    readonly copied: readonly boolean[],
    readonly normalizedLength: number,
    readonly originalLength: number,
  ) {}

  static identity(length: number): OffsetMap {
    return new OffsetMap([0], [0], [true], length, length);
  }

  /** With `end` bias a position right after a deletion maps to before the deleted text, so a range end stays tight. */
  toOriginal(position: number, bias: Bias = 'start'): number {
    return project(
      this.normalized,
      this.original,
      this.copied,
      clamp(position, this.normalizedLength),
      this.normalizedLength,
      this.originalLength,
      bias,
    );
  }

  toNormalized(position: number, bias: Bias = 'start'): number {
    return project(
      this.original,
      this.normalized,
      this.copied,
      clamp(position, this.originalLength),
      this.originalLength,
      this.normalizedLength,
      bias,
    );
  }
}

const clamp = (position: number, length: number) => Math.min(Math.max(position, 0), length);

function project(
  from: readonly number[],
  to: readonly number[],
  copied: readonly boolean[],
  position: number,
  fromLength: number,
  toLength: number,
  bias: Bias,
): number {
  // The segment holding the character after the position (start bias) or before it (end bias).
  const i = lastAtOrBefore(from, bias === 'start' ? position : position - 1);
  if (copied[i]) return to[i] + (position - from[i]);
  const nextFrom = i + 1 < from.length ? from[i + 1] : fromLength;
  const nextTo = i + 1 < to.length ? to[i + 1] : toLength;
  return position >= nextFrom ? nextTo : Math.min(to[i] + (position - from[i]), nextTo);
}

function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Applies sorted, non-overlapping edits to `text` and composes their offsets with `map`. */
function applyEdits(text: string, map: OffsetMap, edits: readonly Edit[]): { text: string; map: OffsetMap } {
  if (edits.length === 0) return { text, map };
  const normalized: number[] = [];
  const original: number[] = [];
  const copied: boolean[] = [];
  const emit = (n: number, o: number, copy: boolean) => {
    const last = normalized.length - 1;
    if (copy && last >= 0 && copied[last] && original[last] + (n - normalized[last]) === o) return;
    normalized.push(n);
    original.push(o);
    copied.push(copy);
  };
  const { normalized: oldN, original: oldO, copied: oldC } = map;
  let j = 0;
  let delta = 0;
  // Carries the old segments over the untouched range [from, to] of the current text.
  const carry = (from: number, to: number) => {
    for (; j < oldN.length; j++) {
      const start = oldN[j];
      const end = j + 1 < oldN.length ? oldN[j + 1] : map.normalizedLength;
      if (start > to) return;
      if (start === end) {
        // An empty segment (a deletion) at the range's edge stays; one inside an edit goes with it.
        if (start >= from) emit(start + delta, oldO[j], oldC[j]);
        continue;
      }
      if (start >= to) return;
      if (end <= from) continue;
      const at = Math.max(from, start);
      emit(at + delta, at === start ? oldO[j] : map.toOriginal(at), oldC[j]);
      if (end > to) return;
    }
  };
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    carry(cursor, edit.start);
    emit(edit.start + delta, map.toOriginal(edit.start), false);
    parts.push(text.slice(cursor, edit.start), edit.text);
    delta += edit.text.length - (edit.end - edit.start);
    cursor = edit.end;
  }
  carry(cursor, map.normalizedLength);
  parts.push(text.slice(cursor));
  const next = parts.join('');
  return { text: next, map: new OffsetMap(normalized, original, copied, next.length, map.originalLength) };
}

function regexEdits(text: string, pattern: RegExp, replace: (match: RegExpExecArray) => string): Edit[] {
  const edits: Edit[] = [];
  for (const match of text.matchAll(pattern)) {
    const replacement = replace(match);
    if (replacement !== match[0])
      edits.push({ start: match.index, end: match.index + match[0].length, text: replacement });
  }
  return edits;
}

// --- Mojibake: UTF-8 bytes that were decoded as Windows-1252 (or Latin-1) -----------------------

/** The byte each continuation-byte character stood for (0x80–0xBF). */
const CONTINUATION_BYTE = new Map<string, number>();
for (let b = 0x80; b <= 0xbf; b++) {
  CONTINUATION_BYTE.set(String.fromCharCode(b), b);
  if (b < 0xa0) CONTINUATION_BYTE.set(windows1252High[b - 0x80], b);
}
const continuationClass = [...CONTINUATION_BYTE.keys()]
  .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  .join('');
const MOJIBAKE = new RegExp(`[\\u00c2-\\u00f4][${continuationClass}]{1,3}`, 'g');

/** Decodes one mojibake sequence; null when the bytes are not valid UTF-8 or decode to something implausible. */
function repairSequence(sequence: string): { text: string; length: number } | null {
  const lead = sequence.charCodeAt(0);
  const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  if (sequence.length < length) return null;
  const bytes = [lead];
  for (let i = 1; i < length; i++) bytes.push(CONTINUATION_BYTE.get(sequence[i])!);
  const tail = (i: number) => bytes[i] & 0x3f;
  let cp: number;
  if (length === 2) {
    cp = ((lead & 0x1f) << 6) | tail(1);
    // Two-byte sequences collide with real text ("Gruß“"); accept only Latin, Greek and Cyrillic results.
    if (cp > 0x4ff || (cp >= 0x300 && cp < 0x370)) return null;
  } else if (length === 3) {
    cp = ((lead & 0x0f) << 12) | (tail(1) << 6) | tail(2);
    if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0xe000 && cp <= 0xf8ff)) return null;
  } else {
    cp = ((lead & 0x07) << 18) | (tail(1) << 12) | (tail(2) << 6) | tail(3);
    if (cp < 0x10000 || cp > 0x10ffff) return null;
  }
  return { text: String.fromCodePoint(cp), length };
}

function mojibakeEdits(text: string): Edit[] {
  return regexEdits(text, MOJIBAKE, ([sequence]) => {
    const repaired = repairSequence(sequence);
    return repaired ? repaired.text + sequence.slice(repaired.length) : sequence;
  });
}

// --- Characters -------------------------------------------------------------------------------

const BREAKS_AND_CONTROLS =
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  /\r\n?|[\f\u2029]|[\v\u0085\u2028]|[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u00ad\u200b\u2060\ufeff]/g;

function characterEdits(text: string): Edit[] {
  return regexEdits(text, BREAKS_AND_CONTROLS, ([c]) => {
    if (c === '\f' || c === '\u2029') return '\n\n';
    if (c.startsWith('\r') || c === '\v' || c === '\u0085' || c === '\u2028') return '\n';
    return '';
  });
}

/** Characters per window of the NFC check: normalising a whole large text at once holds three copies of it. */
const nfcWindow = 1 << 20;

/**
 * NFC per run of non-ASCII characters (with the ASCII letter a combining mark may attach to), looked for
 * only in the windows whose NFC form differs. Windows end between two ASCII characters, so no run spans two.
 */
function nfcEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  for (let start = 0; start < text.length;) {
    const end = asciiBoundary(text, Math.min(text.length, start + nfcWindow));
    const window = text.slice(start, end);
    if (window.normalize('NFC') !== window) {
      for (const edit of regexEdits(window, /[^\u0080-\uffff]?[\u0080-\uffff]+/g, ([run]) => run.normalize('NFC'))) {
        edits.push({ start: start + edit.start, end: start + edit.end, text: edit.text });
      }
    }
    start = end;
  }
  return edits;
}

/** The first position at or after `from` preceded and followed by an ASCII character (or the text's end). */
function asciiBoundary(text: string, from: number): number {
  let index = from;
  while (index < text.length && (text.charCodeAt(index) >= 0x80 || text.charCodeAt(index - 1) >= 0x80)) index++;
  return index;
}

/** Horizontal space that needs work: runs, other spaces than U+0020, a space before a line end. */
const HORIZONTAL_SPACE =
  /[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]{2,}|[\t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]| (?=\n|$)/g;

/** Trailing spaces go, runs inside a line become one space; indentation is kept. */
function spaceEdits(text: string): Edit[] {
  return regexEdits(text, HORIZONTAL_SPACE, (match) => {
    const end = match.index + match[0].length;
    if (end === text.length || text.charCodeAt(end) === 10) return '';
    if (match.index === 0 || text.charCodeAt(match.index - 1) === 10) return match[0];
    return ' ';
  });
}

function blankLineEdits(text: string): Edit[] {
  return regexEdits(text, /^\s+|\n{3,}|\s+$/g, (match) => {
    if (match.index === 0 || match.index + match[0].length === text.length) return '';
    return '\n\n';
  });
}

// --- Lines ------------------------------------------------------------------------------------

interface Line {
  start: number;
  /** Exclusive, before the newline. */
  end: number;
  text: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    lines.push({ start, end, text: text.slice(start, end) });
    if (newline < 0) break;
    start = newline + 1;
  }
  return lines;
}

/** Lower-case roman numerals up to xlix, as front matter is numbered. */
const ROMAN = '(?=[ivxl])(?:xl|l?x{0,3})(?:ix|iv|v?i{0,3})';
const PAGE_NUMBER = new RegExp(
  `^(?:(?:[Pp]age|PAGE|[Pp]\\.)\\s*)?(?:\\d{1,4}|${ROMAN})(?:\\s*(?:of|/)\\s*\\d{1,4})?$|^[-–—]\\s*\\d{1,4}\\s*[-–—]$`,
);
const TOC_LINE = new RegExp(`^\\S.{0,150}?(?:\\.{3,}|(?:\\. ){3,}\\.?|…{2,}|·{3,}|_{3,})\\s*(?:\\d{1,4}|${ROMAN})$`);
const TOC_HEADING = /^(?:table of )?contents$/i;
const SECTION_MARKER = /^(?:CHAPTER|Chapter|BOOK|Book|PART|Part)\s+(?:[IVXLCDM]+|\d+|[A-Z][A-Za-z]+)\b.{0,80}$/;
/** Lines a header/footer check must leave alone: markdown headings, lists, tables, quotes. */
const STRUCTURAL_MARKUP = /^\s*(?:#|[-*+•]\s|\d+[.)]\s|\||>)/;

/** Characters between repeats of a running header when no page spans say where pages are. */
const MIN_HEADER_GAP = 1000;

function headerKey(line: string): string | null {
  const trimmed = line.trim();
  if (trimmed.length < 3 || trimmed.length > 80 || !/\p{L}/u.test(trimmed) || STRUCTURAL_MARKUP.test(trimmed))
    return null;
  return trimmed.replace(/\d+/g, '#').replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Lines repeated at the edges of many pages (running headers and footers). With page spans a line
 * must sit among the first or last three lines of at least 30 % of the pages (and of three); without
 * them it must recur five times, about a page apart, and not read like a sentence or speaker label.
 */
function repeatedHeaderLines(lines: readonly Line[], pages: readonly TextSpan[]): Set<number> {
  const byKey = new Map<string, { lines: number[]; pages: Set<number> }>();
  const note = (key: string | null, line: number, page: number) => {
    if (key === null) return;
    const entry = byKey.get(key) ?? { lines: [], pages: new Set<number>() };
    entry.lines.push(line);
    entry.pages.add(page);
    byKey.set(key, entry);
  };
  const removed = new Set<number>();
  const pageCount = new Set(pages.map((span) => span.page)).size;
  if (pageCount >= 3) {
    let first = 0;
    for (const span of pages) {
      while (first < lines.length && lines[first].end <= span.start) first++;
      const inside: number[] = [];
      for (let i = first; i < lines.length && lines[i].start < span.end; i++) if (lines[i].text.trim()) inside.push(i);
      const edges = new Set([...inside.slice(0, 3), ...inside.slice(-3)]);
      for (const i of edges) note(headerKey(lines[i].text), i, span.page!);
    }
    const needed = Math.max(3, Math.ceil(pageCount * 0.3));
    for (const entry of byKey.values()) if (entry.pages.size >= needed) entry.lines.forEach((i) => removed.add(i));
    return removed;
  }
  lines.forEach((line, i) => {
    if (!/[.!?:;,"”’)]$/.test(line.text.trim())) note(headerKey(line.text), i, 0);
  });
  for (const entry of byKey.values()) {
    if (entry.lines.length < 5) continue;
    const span = lines[entry.lines.at(-1)!].start - lines[entry.lines[0]].start;
    if (span / (entry.lines.length - 1) >= MIN_HEADER_GAP) entry.lines.forEach((i) => removed.add(i));
  }
  return removed;
}

function nearestContentLine(lines: readonly Line[], from: number, step: 1 | -1): Line | null {
  for (let i = from + step; i >= 0 && i < lines.length; i += step) if (lines[i].text.trim()) return lines[i];
  return null;
}

/** Page numbers, running headers and footers, dot-leader contents blocks; chapter markers become paragraph breaks. */
function structuralNoiseEdits(text: string, pages: readonly TextSpan[]): Edit[] {
  const lines = splitLines(text);
  const removed = repeatedHeaderLines(lines, pages);
  lines.forEach((line, i) => {
    const trimmed = line.text.trim();
    if (!PAGE_NUMBER.test(trimmed)) return;
    // A column of numbers is data, not page numbers.
    const neighbourIsNumber = [lines[i - 1], lines[i + 1]].some(
      (line) => line !== undefined && PAGE_NUMBER.test(line.text.trim()),
    );
    if (!neighbourIsNumber) removed.add(i);
  });
  for (let i = 0; i < lines.length;) {
    const block: number[] = [];
    let j = i;
    for (; j < lines.length; j++) {
      const trimmed = lines[j].text.trim();
      if (TOC_LINE.test(trimmed)) block.push(j);
      else if (trimmed) break;
    }
    if (block.length >= 2) {
      block.forEach((k) => removed.add(k));
      const heading = nearestContentLine(lines, block[0], -1);
      if (heading && TOC_HEADING.test(heading.text.trim())) removed.add(lines.indexOf(heading));
    }
    i = Math.max(j, i + 1);
  }
  const edits: Edit[] = [];
  lines.forEach((line, i) => {
    if (removed.has(i)) {
      edits.push({ start: line.start, end: Math.min(line.end + 1, text.length), text: '' });
      return;
    }
    if (!SECTION_MARKER.test(line.text.trim())) return;
    if (i > 0 && lines[i - 1].text.trim() && !removed.has(i - 1))
      edits.push({ start: line.start, end: line.start, text: '\n' });
    if (i + 1 < lines.length && lines[i + 1].text.trim() && !removed.has(i + 1))
      edits.push({ start: line.end, end: line.end, text: '\n' });
  });
  return edits;
}

const FENCE = /^\s*(?:```|~~~)/;
/** Lines that start a block of their own and must never be glued to the line before. */
const BLOCK_START = /^\s*(?:#|[-*+•]\s|\d+[.)]\s|\||>|```|~~~|(?:CHAPTER|PART|BOOK)\b)/;
const MIN_WRAPPED_LINE = 50;
/** A line ending on one of these words stops mid-sentence whatever the next line starts with. */
const OPEN_ENDING =
  /\b(?:a|an|the|and|or|but|nor|of|to|in|on|at|by|for|with|from|into|as|than|that|which|who|whose|is|are|was|were)$/i;

/** Joins hard-wrapped lines inside paragraphs and undoes line-end hyphenation. */
function lineJoinEdits(text: string): Edit[] {
  const lines = splitLines(text);
  const edits: Edit[] = [];
  let fenced = false;
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line.text)) fenced = !fenced;
    const next = lines[i + 1];
    if (fenced || !line.text.trim() || !next.text.trim() || BLOCK_START.test(next.text) || /^\s*#/.test(line.text))
      continue;
    const indent = next.text.length - next.text.trimStart().length;
    const nextContent = next.start + indent;
    const following = next.text.charAt(indent);
    const lower = /\p{Ll}/u.test(following);
    if (/\p{L}-$/u.test(line.text) && lower) {
      edits.push({ start: line.end - 1, end: nextContent, text: '' });
    } else if (
      /[,;]$/.test(line.text) ||
      OPEN_ENDING.test(line.text) ||
      (/[\p{Ll}\p{N}]$/u.test(line.text) && lower) ||
      (line.text.length >= MIN_WRAPPED_LINE && /\p{Ll}$/u.test(line.text) && /[\p{Lu}\p{N}]/u.test(following))
    ) {
      edits.push({ start: line.end, end: nextContent, text: ' ' });
    }
  }
  return edits;
}

// --- Pipeline ---------------------------------------------------------------------------------

function remapSpans(spans: readonly TextSpan[], map: OffsetMap): TextSpan[] {
  return spans
    .map((span) => ({ ...span, start: map.toNormalized(span.start), end: map.toNormalized(span.end, 'end') }))
    .filter((span) => span.end > span.start);
}

export function normalizeText(text: string, options: NormalizeOptions): NormalizedText {
  const spans = options.spans ?? [];
  const enabled = options.enabled ?? options.kind !== 'structured';
  if (!enabled) return { text, offsetMap: OffsetMap.identity(text.length), spans: spans.map((span) => ({ ...span })) };

  let state = { text, map: OffsetMap.identity(text.length) };
  const step = (edits: (current: string) => Edit[]) => {
    state = applyEdits(state.text, state.map, edits(state.text));
  };
  step(mojibakeEdits);
  step(characterEdits);
  step(nfcEdits);
  step(spaceEdits);
  if (options.removeStructuralNoise) {
    const pages = remapSpans(spans, state.map)
      .filter((span) => span.page !== null)
      .sort((a, b) => a.start - b.start);
    step((current) => structuralNoiseEdits(current, pages));
  }
  if (options.normalizeNewlines) step(lineJoinEdits);
  step(blankLineEdits);
  return { text: state.text, offsetMap: state.map, spans: remapSpans(spans, state.map) };
}
