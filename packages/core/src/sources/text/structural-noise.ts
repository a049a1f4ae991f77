/**
 * Structural noise of paged documents: page numbers, running headers and footers, dot-leader contents
 * blocks. Patterns are only tried on lines whose first or last character allows a match.
 */
import type { TextSpan } from '../loaders/port.ts';
import type { Edit } from './offset-map.ts';
import { Lines } from './lines.ts';

/** Lower-case roman numerals up to xlix, as front matter is numbered. */
const ROMAN = '(?=[ivxl])(?:xl|l?x{0,3})(?:ix|iv|v?i{0,3})';
const PAGE_NUMBER = new RegExp(
  `^(?:(?:[Pp]age|PAGE|[Pp]\\.)\\s*)?(?:\\d{1,4}|${ROMAN})(?:\\s*(?:of|/)\\s*\\d{1,4})?$|^[-–—]\\s*\\d{1,4}\\s*[-–—]$`,
);
const TOC_LINE = new RegExp(`^\\S.{0,150}?(?:\\.{3,}|(?:\\. ){3,}\\.?|…{2,}|·{3,}|_{3,})\\s*(?:\\d{1,4}|${ROMAN})$`);
/** Every leader TOC_LINE accepts contains one of these. */
const TOC_LEADER = /\.\.\.|\. \. \.|……|···|___/;
const TOC_HEADING = /^(?:table of )?contents$/i;
const SECTION_MARKER = /^(?:CHAPTER|Chapter|BOOK|Book|PART|Part)\s+(?:[IVXLCDM]+|\d+|[A-Z][A-Za-z]+)\b.{0,80}$/;
/** Lines a header/footer check must leave alone: markdown headings, lists, tables, quotes. */
const STRUCTURAL_MARKUP = /^\s*(?:#|[-*+•]\s|\d+[.)]\s|\||>)/;

/** The characters a line PAGE_NUMBER matches can end on, a TOC_LINE line, and a sentence-like line. */
const PAGE_NUMBER_LAST = new Set([...'0123456789ivxl-–—'].map((c) => c.charCodeAt(0)));
const TOC_LINE_LAST = new Set([...'0123456789ivxl'].map((c) => c.charCodeAt(0)));
const SENTENCE_LAST = new Set([...'.!?:;,"”’)'].map((c) => c.charCodeAt(0)));
const SECTION_MARKER_FIRST = new Set([...'CBP'].map((c) => c.charCodeAt(0)));

/** White space runs other than a lone space: what collapsing every run to one space changes. */
const SPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

/** Characters between repeats of a running header when no page spans say where pages are. */
const MIN_HEADER_GAP = 1000;
const MIN_HEADER_LENGTH = 3;
const MAX_HEADER_LENGTH = 80;

/** Page numbers, running headers and footers, dot-leader contents blocks; chapter markers become paragraph breaks. */
export function structuralNoiseEdits(text: string, pages: readonly TextSpan[]): Edit[] {
  const lines = new Lines(text);
  const removed = new Uint8Array(lines.count);
  markRepeatedHeaders(lines, pages, removed);
  markPageNumbers(lines, removed);
  markContentsBlocks(lines, removed);
  return noiseEdits(lines, removed);
}

function isPageNumber(lines: Lines, line: number): boolean {
  return PAGE_NUMBER_LAST.has(lines.lastCode(line)) && PAGE_NUMBER.test(lines.trimmed(line));
}

function markPageNumbers(lines: Lines, removed: Uint8Array): void {
  for (let i = 0; i < lines.count; i++) {
    if (!isPageNumber(lines, i)) continue;
    // A column of numbers is data, not page numbers.
    const neighbourIsNumber =
      (i > 0 && isPageNumber(lines, i - 1)) || (i + 1 < lines.count && isPageNumber(lines, i + 1));
    if (!neighbourIsNumber) removed[i] = 1;
  }
}

function isContentsLine(lines: Lines, line: number): boolean {
  if (!TOC_LINE_LAST.has(lines.lastCode(line))) return false;
  const trimmed = lines.trimmed(line);
  return TOC_LEADER.test(trimmed) && TOC_LINE.test(trimmed);
}

/** Two or more dot-leader lines (blank lines between them allowed), and the "Contents" heading above them. */
function markContentsBlocks(lines: Lines, removed: Uint8Array): void {
  for (let i = 0; i < lines.count;) {
    const block: number[] = [];
    let j = i;
    for (; j < lines.count; j++) {
      if (isContentsLine(lines, j)) block.push(j);
      else if (!lines.isBlank(j)) break;
    }
    if (block.length >= 2) {
      block.forEach((k) => (removed[k] = 1));
      const heading = nearestContentLine(lines, block[0], -1);
      if (heading >= 0 && TOC_HEADING.test(lines.trimmed(heading))) removed[heading] = 1;
    }
    i = Math.max(j, i + 1);
  }
}

function nearestContentLine(lines: Lines, from: number, step: 1 | -1): number {
  for (let i = from + step; i >= 0 && i < lines.count; i += step) if (!lines.isBlank(i)) return i;
  return -1;
}

function headerKey(lines: Lines, line: number): string | null {
  const length = lines.contentEnd(line) - lines.contentStart(line);
  if (length < MIN_HEADER_LENGTH || length > MAX_HEADER_LENGTH) return null;
  const trimmed = lines.trimmed(line);
  if (!/\p{L}/u.test(trimmed) || STRUCTURAL_MARKUP.test(trimmed)) return null;
  return trimmed.replace(/\d+/g, '#').replace(SPACE_TO_COLLAPSE, ' ').toLowerCase();
}

/**
 * Lines repeated at the edges of many pages (running headers and footers). With page spans a line
 * must sit among the first or last three lines of at least 30 % of the pages (and of three); without
 * them it must recur five times, about a page apart, and not read like a sentence or speaker label.
 */
function markRepeatedHeaders(lines: Lines, pages: readonly TextSpan[], removed: Uint8Array): void {
  const byKey = new Map<string, { lines: number[]; pages: Set<number> }>();
  const note = (key: string | null, line: number, page: number) => {
    if (key === null) return;
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { lines: [], pages: new Set<number>() }));
    entry.lines.push(line);
    entry.pages.add(page);
  };
  const pageCount = new Set(pages.map((span) => span.page)).size;
  if (pageCount >= 3) {
    let first = 0;
    for (const span of pages) {
      while (first < lines.count && lines.end(first) <= span.start) first++;
      for (const i of pageEdgeLines(lines, first, span.end)) note(headerKey(lines, i), i, span.page!);
    }
    const needed = Math.max(3, Math.ceil(pageCount * 0.3));
    for (const entry of byKey.values()) if (entry.pages.size >= needed) entry.lines.forEach((i) => (removed[i] = 1));
    return;
  }
  for (let i = 0; i < lines.count; i++) {
    if (!lines.isBlank(i) && !SENTENCE_LAST.has(lines.lastCode(i))) note(headerKey(lines, i), i, 0);
  }
  for (const entry of byKey.values()) {
    if (entry.lines.length < 5) continue;
    const span = lines.start(entry.lines.at(-1)!) - lines.start(entry.lines[0]);
    if (span / (entry.lines.length - 1) >= MIN_HEADER_GAP) entry.lines.forEach((i) => (removed[i] = 1));
  }
}

/** The first three and the last three non-blank lines from `first` among those starting before `end`. */
function pageEdgeLines(lines: Lines, first: number, end: number): Set<number> {
  let last = first;
  while (last < lines.count && lines.start(last) < end) last++;
  const head: number[] = [];
  for (let i = first; i < last && head.length < 3; i++) if (!lines.isBlank(i)) head.push(i);
  const tail: number[] = [];
  for (let i = last - 1; i >= first && tail.length < 3; i--) if (!lines.isBlank(i)) tail.unshift(i);
  return new Set([...head, ...tail]);
}

function isSectionMarker(lines: Lines, line: number): boolean {
  return SECTION_MARKER_FIRST.has(lines.firstCode(line)) && SECTION_MARKER.test(lines.trimmed(line));
}

function noiseEdits(lines: Lines, removed: Uint8Array): Edit[] {
  const edits: Edit[] = [];
  const keptContent = (line: number) => !lines.isBlank(line) && !removed[line];
  for (let i = 0; i < lines.count; i++) {
    if (removed[i]) {
      edits.push({ start: lines.start(i), end: Math.min(lines.end(i) + 1, lines.text.length), text: '' });
      continue;
    }
    if (!isSectionMarker(lines, i)) continue;
    if (i > 0 && keptContent(i - 1)) edits.push({ start: lines.start(i), end: lines.start(i), text: '\n' });
    if (i + 1 < lines.count && keptContent(i + 1)) edits.push({ start: lines.end(i), end: lines.end(i), text: '\n' });
  }
  return edits;
}
