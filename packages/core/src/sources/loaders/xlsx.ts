/**
 * Excel workbooks (.xlsx, and .xlsm, whose macros are never read): shared strings and sheets read from the
 * XML parts, one span per sheet, cells tab-joined.
 */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import { coreProperties, mainPart, readRelationships, relationshipId } from './ooxml.ts';
import { UnreadableFileError, type LoadedDocument, type LoaderInput } from './port.ts';
import { readWhole } from './read.ts';
import { localName, scanXml } from './xml-scan.ts';
import { openArchive } from './zip-bounds.ts';

/** Rich-text runs of a string item are concatenated; phonetic guides (`rPh`) are not text. */
export function sharedStrings(xml: string): string[] {
  const strings: string[] = [];
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  for (const token of scanXml(xml)) {
    const name = token.type === 'text' ? '' : localName(token.name);
    if (token.type === 'open') {
      if (name === 'si' && token.selfClosing) strings.push('');
      else if (name === 'si') current = '';
      else if (name === 'rPh' && !token.selfClosing) phonetic++;
      else if (name === 't' && !token.selfClosing) inText = true;
    } else if (token.type === 'close') {
      if (name === 'si' && current !== null) {
        strings.push(current);
        current = null;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    } else if (inText && phonetic === 0 && current !== null) current += token.text;
  }
  return strings;
}

/** `BC12` → 54 (0-based column index of `BC`). */
function columnIndex(reference: string | undefined): number | null {
  const letters = reference ? /^[A-Z]+/i.exec(reference)?.[0] : undefined;
  if (!letters) return null;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + letter.charCodeAt(0) - 64;
  return index - 1;
}

interface Cell {
  type: string;
  value: string;
  inline: string;
}

function cellText(cell: Cell, strings: readonly string[]): string {
  switch (cell.type) {
    case 's':
      return strings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'b':
      return cell.value === '1' ? 'TRUE' : 'FALSE';
    default:
      // Numbers stay as stored: dates are serial numbers, since number formats are not applied.
      return cell.value;
  }
}

/** Rows as tab-joined lines (cells placed by their reference, so gaps stay gaps), up to `budget` characters. */
export function sheetRows(
  xml: string,
  strings: readonly string[],
  budget: number,
): { lines: string[]; truncated: boolean } {
  const lines: string[] = [];
  let length = 0;
  let row: string[] | null = null;
  let cell: Cell | null = null;
  let column = 0;
  let target: 'value' | 'inline' | null = null;
  for (const token of scanXml(xml)) {
    if (token.type === 'text') {
      if (cell && target === 'value') cell.value += token.text;
      else if (cell && target === 'inline') cell.inline += token.text;
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'open') {
      if (name === 'row') {
        row = [];
        column = 0;
      } else if (name === 'c' && row) {
        column = columnIndex(token.attrs.r) ?? column;
        if (token.selfClosing) column++;
        else cell = { type: token.attrs.t ?? 'n', value: '', inline: '' };
      } else if (name === 'v' && cell) target = token.selfClosing ? null : 'value';
      else if (name === 't' && cell) target = token.selfClosing ? null : 'inline';
      if (name === 'row' && token.selfClosing) row = null;
      continue;
    }
    if (name === 'v' || name === 't') target = null;
    else if (name === 'c' && row && cell) {
      const text = cellText(cell, strings).replace(/\s+/g, ' ').trim();
      if (text) {
        while (row.length < column) row.push('');
        row[column] = text;
      }
      cell = null;
      column++;
    } else if (name === 'row' && row) {
      if (row.length > 0) {
        const line = row.join('\t');
        lines.push(line);
        length += line.length + 1;
        if (length > budget) return { lines, truncated: true };
      }
      row = null;
    }
  }
  return { lines, truncated: false };
}

async function loadWorkbook(input: LoaderInput, format: 'xlsx' | 'xlsm'): Promise<LoadedDocument> {
  const what = `The ${format.toUpperCase()} file`;
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, what);
  const archive = await openArchive(bytes, input.limits, what);
  const workbookPart = await mainPart(archive, 'xl/workbook.xml', what);
  const workbook = (await archive.readText(workbookPart))!;
  const relationships = await readRelationships(archive, workbookPart);
  const stringsPart =
    [...relationships.values()].find((relationship) => relationship.type === 'sharedStrings')?.target ??
    'xl/sharedStrings.xml';
  const stringsXml = await archive.readText(stringsPart);
  const strings = stringsXml ? sharedStrings(stringsXml) : [];

  const sheets: { name: string; part: string }[] = [];
  for (const token of scanXml(workbook)) {
    if (token.type !== 'open' || localName(token.name) !== 'sheet') continue;
    const relationship = relationships.get(relationshipId(token.attrs) ?? '');
    if (relationship?.type === 'worksheet')
      sheets.push({ name: token.attrs.name ?? `Sheet ${sheets.length + 1}`, part: relationship.target });
  }
  if (sheets.length === 0) throw new UnreadableFileError(`${what} has no worksheets`);

  const assembler = new TextAssembler(input.limits.maxTextChars);
  const warnings: string[] = [];
  for (const [index, sheet] of sheets.entries()) {
    input.signal.throwIfAborted();
    const xml = await archive.readText(sheet.part);
    if (xml === null) {
      warnings.push(`sheet ${sheet.name}: part ${sheet.part} is missing`);
      continue;
    }
    const { lines, truncated } = sheetRows(xml, strings, input.limits.maxTextChars);
    if (truncated) warnings.push(`sheet ${sheet.name}: rows past the text limit were skipped`);
    if (!assembler.add(lines.join('\n'), index + 1, sheet.name)) break;
  }
  const properties = await coreProperties(archive);
  const result = assembler.result();
  return {
    ...result,
    warnings: [...warnings, ...result.warnings],
    format,
    kind: 'structured',
    title: properties.title,
    metadata: { sheets: sheets.map((sheet) => sheet.name), sheetCount: sheets.length, author: properties.author },
  };
}

export const xlsxLoader = defineLoader('xlsx', (input) => loadWorkbook(input, 'xlsx'));
export const xlsmLoader = defineLoader('xlsm', (input) => loadWorkbook(input, 'xlsm'));
