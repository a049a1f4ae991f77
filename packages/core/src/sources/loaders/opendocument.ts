/**
 * OpenDocument text (.odt), spreadsheets (.ods) and presentations (.odp), as LibreOffice writes them:
 * headings start sections of a text, each sheet is a span (page = its position, section = its name) with
 * rows of tab-joined cells, each slide a span (page = slide number, section = its title). Titles come from
 * `meta.xml`, else a text's first heading.
 */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import { odfBlocks, type OdfBlock } from './odf-blocks.ts';
import { openOdfPackage } from './odf-package.ts';
import type { LoadedDocument, LoaderInput } from './port.ts';

interface Part {
  page: number | null;
  section: string | null;
  lines: string[];
}

/** Parts of the document as its blocks are read, up to `maxChars` characters of lines in all. */
class PartCollector {
  readonly parts: Part[] = [];
  private length = 0;
  private over = false;

  constructor(private readonly maxChars: number) {}

  get full(): boolean {
    return this.over;
  }

  start(page: number | null, section: string | null): Part {
    const part = { page, section, lines: [] };
    this.parts.push(part);
    return part;
  }

  /** Adds a line to the latest part (one is started when there is none); false once the budget is spent. */
  line(text: string): boolean {
    if (this.over) return false;
    (this.parts.at(-1) ?? this.start(null, null)).lines.push(text);
    this.length += text.length + 1;
    this.over = this.length > this.maxChars;
    return !this.over;
  }

  /** A table row, as many times as the sheet repeats it. */
  row(block: Extract<OdfBlock, { type: 'row' }>): boolean {
    const text = block.cells.join('\t');
    for (let i = 0; i < block.repeat; i++) if (!this.line(text)) return false;
    return true;
  }
}

async function loadOpenDocument(
  input: LoaderInput,
  format: 'odt' | 'ods' | 'odp',
  read: (blocks: Generator<OdfBlock>, collector: PartCollector) => { heading: string | null; units: string[] },
): Promise<LoadedDocument> {
  const what = `The ${format.toUpperCase()} file`;
  const pkg = await openOdfPackage(input, what);
  input.signal.throwIfAborted();
  const collector = new PartCollector(input.limits.maxTextChars);
  const { heading, units } = read(odfBlocks(pkg.content), collector);
  const assembler = new TextAssembler(input.limits.maxTextChars);
  for (const part of collector.parts) if (!assembler.add(part.lines.join('\n'), part.page, part.section)) break;
  const result = assembler.result();
  const warnings = collector.full && result.warnings.length === 0 ? ['text past the limit was skipped'] : [];
  const metadata: Record<string, unknown> = { author: pkg.author, language: pkg.language };
  if (format === 'ods') Object.assign(metadata, { sheets: units, sheetCount: units.length });
  if (format === 'odp') metadata.slideCount = units.length;
  return {
    ...result,
    warnings: [...warnings, ...result.warnings],
    format,
    kind: format === 'ods' ? 'structured' : 'prose',
    title: pkg.title ?? heading,
    metadata,
  };
}

/** A text: a section per heading; its title, when `meta.xml` has none, is the first level-1 heading, else the first one. */
function readText(blocks: Generator<OdfBlock>, collector: PartCollector) {
  let first: string | null = null;
  let firstTopLevel: string | null = null;
  for (const block of blocks) {
    if (block.type === 'heading') {
      first ??= block.text;
      if (block.level === 1) firstTopLevel ??= block.text;
      collector.start(null, block.text);
      if (!collector.line(block.text)) break;
    } else if (block.type === 'paragraph') {
      if (!collector.line(block.text)) break;
    } else if (block.type === 'row' && !collector.row(block)) break;
  }
  return { heading: firstTopLevel ?? first, units: [] };
}

function readSheets(blocks: Generator<OdfBlock>, collector: PartCollector) {
  const sheets: string[] = [];
  for (const block of blocks) {
    if (block.type === 'table') {
      sheets.push(block.name ?? `Sheet ${sheets.length + 1}`);
      collector.start(sheets.length, sheets.at(-1)!);
    } else if (block.type === 'row') {
      if (!collector.row(block)) break;
    } else if (block.type !== 'page' && !collector.line(block.text)) break;
  }
  return { heading: null, units: sheets };
}

function readSlides(blocks: Generator<OdfBlock>, collector: PartCollector) {
  const slides: string[] = [];
  let current: Part | null = null;
  for (const block of blocks) {
    if (block.type === 'page') {
      slides.push(block.name ?? `Slide ${slides.length + 1}`);
      current = collector.start(slides.length, null);
    } else if (block.type === 'row') {
      if (!collector.row(block)) break;
    } else if (block.type !== 'table') {
      if (current && block.type === 'paragraph' && block.title) current.section ??= block.text.replace(/\s+/g, ' ');
      if (!collector.line(block.text)) break;
    }
  }
  return { heading: null, units: slides };
}

export const odtLoader = defineLoader('odt', (input) => loadOpenDocument(input, 'odt', readText));
export const odsLoader = defineLoader('ods', (input) => loadOpenDocument(input, 'ods', readSheets));
export const odpLoader = defineLoader('odp', (input) => loadOpenDocument(input, 'odp', readSlides));
