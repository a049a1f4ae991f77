/**
 * The body of an OpenDocument `content.xml` as a stream of blocks: headings, paragraphs, table rows, and
 * the starts of sheets (top-level tables) and slides (draw pages). Streams through the XML tokenizer, so a
 * large spreadsheet is never held as a tree. Comments, tracked deletions, speaker notes, shape descriptions
 * and index templates are not text of the document and are skipped.
 */
import { scanXml } from './xml-scan.ts';

export type OdfBlock =
  | { type: 'heading'; text: string; level: number }
  /** `title`: the paragraph is in a slide's title frame. */
  | { type: 'paragraph'; text: string; title: boolean }
  /** A row of a top-level table, its cells in column order; `repeat`: how many identical rows it stands for. */
  | { type: 'row'; cells: string[]; repeat: number }
  | { type: 'table'; name: string | null }
  | { type: 'page'; name: string | null };

const SKIPPED = new Set([
  'office:annotation',
  'office:forms',
  'office:scripts',
  'office:event-listeners',
  'office:automatic-styles',
  'office:font-face-decls',
  'text:tracked-changes',
  'text:note-citation',
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'text:dde-connection-decls',
  'presentation:notes',
  'svg:title',
  'svg:desc',
]);
const PARAGRAPHS = new Set(['text:p', 'text:h']);
const CELLS = new Set(['table:table-cell', 'table:covered-table-cell']);
/** Spreadsheet limits (LibreOffice's largest sheet), so a hostile repeat count stays finite. */
const MAX_COLUMNS = 16_384;
const MAX_ROWS = 1_048_576;

function count(value: string | undefined, max: number): number {
  const parsed = Number.parseInt(value ?? '1', 10);
  return Number.isFinite(parsed) && parsed >= 1 ? Math.min(parsed, max) : 1;
}

/** White space collapsed within lines, tabs kept as cell or tab stops, lines trimmed. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/ +/g, ' ')
        .replace(/ ?\t ?/g, '\t')
        .trim(),
    )
    .filter((line) => line !== '')
    .join('\n');
}

interface OpenParagraph {
  text: string;
  level: number | null;
}

interface Cell {
  pieces: string[];
  repeat: number;
  /** The typed value, for a cell without displayed text. */
  value: string;
}

export function* odfBlocks(xml: string): Generator<OdfBlock> {
  let skipDepth = 0;
  const paragraphs: OpenParagraph[] = [];
  let tableDepth = 0;
  let row: { cells: { text: string; repeat: number }[]; repeat: number } | null = null;
  let cell: Cell | null = null;
  const frames: boolean[] = [];
  let titleFrames = 0;

  for (const token of scanXml(xml)) {
    if (skipDepth > 0) {
      if (token.type === 'open' && !token.selfClosing) skipDepth++;
      else if (token.type === 'close') skipDepth--;
      continue;
    }
    if (token.type === 'text') {
      const paragraph = paragraphs.at(-1);
      if (paragraph) paragraph.text += token.text.replace(/[ \t\r\n]+/g, ' ');
      continue;
    }
    const { name } = token;
    if (token.type === 'open') {
      const attrs = token.attrs;
      if (SKIPPED.has(name) || name.endsWith('-source')) {
        if (!token.selfClosing) skipDepth = 1;
        continue;
      }
      const paragraph = paragraphs.at(-1);
      if (PARAGRAPHS.has(name)) {
        if (!token.selfClosing)
          paragraphs.push({ text: '', level: name === 'text:h' ? count(attrs['text:outline-level'], 10) : null });
      } else if (name === 'text:s') {
        if (paragraph) paragraph.text += ' '.repeat(count(attrs['text:c'], 1000));
      } else if (name === 'text:tab') {
        if (paragraph) paragraph.text += '\t';
      } else if (name === 'text:line-break') {
        if (paragraph) paragraph.text += '\n';
      } else if (name === 'table:table') {
        if (tableDepth === 0) yield { type: 'table', name: attrs['table:name'] ?? null };
        if (!token.selfClosing) tableDepth++;
      } else if (name === 'table:table-row' && tableDepth === 1) {
        row = { cells: [], repeat: count(attrs['table:number-rows-repeated'], MAX_ROWS) };
        if (token.selfClosing) row = null;
      } else if (CELLS.has(name) && tableDepth === 1 && row) {
        const repeat = count(attrs['table:number-columns-repeated'], MAX_COLUMNS);
        const value =
          attrs['office:value'] ??
          attrs['office:date-value'] ??
          attrs['office:time-value'] ??
          attrs['office:boolean-value'] ??
          attrs['office:string-value'] ??
          '';
        if (token.selfClosing) row.cells.push({ text: value, repeat });
        else cell = { pieces: [], repeat, value };
      } else if (name === 'draw:page') {
        yield { type: 'page', name: attrs['draw:name'] ?? null };
      } else if (name === 'draw:frame' && !token.selfClosing) {
        const isTitle = attrs['presentation:class'] === 'title';
        frames.push(isTitle);
        if (isTitle) titleFrames++;
      }
      continue;
    }
    // A closing tag.
    if (PARAGRAPHS.has(name)) {
      const paragraph = paragraphs.pop();
      const text = paragraph ? tidy(paragraph.text) : '';
      if (!paragraph || !text) continue;
      if (cell) cell.pieces.push(text.replace(/\s+/g, ' '));
      else if (paragraph.level !== null)
        yield { type: 'heading', text: text.replace(/\s+/g, ' '), level: paragraph.level };
      else yield { type: 'paragraph', text, title: titleFrames > 0 };
    } else if (name === 'table:table') {
      tableDepth = Math.max(0, tableDepth - 1);
    } else if (CELLS.has(name) && tableDepth === 1 && row && cell) {
      row.cells.push({ text: cell.pieces.join(' ') || cell.value, repeat: cell.repeat });
      cell = null;
    } else if (name === 'table:table-row' && tableDepth === 1 && row) {
      const cells = rowCells(row.cells);
      if (cells.length > 0) yield { type: 'row', cells, repeat: row.repeat };
      row = null;
    } else if (name === 'draw:frame') {
      if (frames.pop()) titleFrames--;
    }
  }
}

/** Cells expanded from their repeat counts, trailing empty ones dropped (a sheet's formatted but empty columns). */
function rowCells(cells: { text: string; repeat: number }[]): string[] {
  let last = cells.length - 1;
  while (last >= 0 && cells[last].text === '') last--;
  const expanded: string[] = [];
  for (const { text, repeat } of cells.slice(0, last + 1)) for (let i = 0; i < repeat; i++) expanded.push(text);
  return expanded;
}
