/**
 * Passages keep the Markdown of their document (`# headings`, `**bold**`, `- lists`). This reads that
 * light syntax into blocks of styled text, so a person sees a heading rather than its `#`. Anything
 * else stays text: nothing in a passage is ever interpreted as HTML.
 */

export interface Span {
  text: string;
  strong?: boolean;
  emphasis?: boolean;
  code?: boolean;
  /** Where the span starts in the passage's plain text (see `plainText`). */
  offset: number;
}

export type BlockKind = 'heading' | 'paragraph' | 'item' | 'quote' | 'code';

export interface Block {
  kind: BlockKind;
  /** 1–6 for a heading. */
  level?: number;
  /** "1." for a numbered item; absent for a bullet. */
  number?: string;
  spans: Span[];
}

export interface Passage {
  blocks: Block[];
  /** The text a reader sees, blocks separated by a line break; span offsets point into it. */
  plainText: string;
}

type Style = Pick<Span, 'strong' | 'emphasis' | 'code'>;

// Code, strong, emphasis and links; underscores only count at word edges, so snake_case names stay whole.
const inlinePattern =
  /(`+)([^`]+?)\1|\*\*(?=\S)([\s\S]+?)(?<=\S)\*\*|(?<!\w)__(?=\S)([\s\S]+?)(?<=\S)__(?!\w)|(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)|!?\[([^\]\n]+)\]\([^)\s]*(?:\s+"[^"]*")?\)/g;

function inlineSpans(text: string, style: Style = {}): Omit<Span, 'offset'>[] {
  const spans: Omit<Span, 'offset'>[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    if (match.index > last) spans.push({ text: text.slice(last, match.index), ...style });
    const [, , code, strongStars, strongUnderscores, emStar, emUnderscore, linkText] = match;
    if (code !== undefined) spans.push({ text: code, ...style, code: true });
    else if (strongStars !== undefined || strongUnderscores !== undefined)
      spans.push(...inlineSpans(strongStars ?? strongUnderscores, { ...style, strong: true }));
    else if (emStar !== undefined || emUnderscore !== undefined)
      spans.push(...inlineSpans(emStar ?? emUnderscore, { ...style, emphasis: true }));
    else spans.push(...inlineSpans(linkText, style));
    last = match.index + match[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last), ...style });
  return spans;
}

interface RawBlock {
  kind: BlockKind;
  level?: number;
  number?: string;
  lines: string[];
}

function rawBlocks(text: string): RawBlock[] {
  const blocks: RawBlock[] = [];
  let paragraph: RawBlock | null = null;
  let code: RawBlock | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (code) {
        blocks.push(code);
        code = null;
      } else {
        paragraph = null;
        code = { kind: 'code', lines: [] };
      }
      continue;
    }
    if (code) {
      code.lines.push(line);
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*(\d{1,9}[.)])\s+(.*)$/.exec(line);
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (!line.trim() || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) paragraph = null;
    else if (heading) {
      paragraph = null;
      blocks.push({ kind: 'heading', level: heading[1].length, lines: [heading[2]] });
    } else if (bullet || numbered) {
      paragraph = null;
      blocks.push({ kind: 'item', number: numbered?.[1], lines: [bullet?.[1] ?? numbered![2]] });
    } else if (quote) {
      paragraph = null;
      blocks.push({ kind: 'quote', lines: [quote[1]] });
    } else if (paragraph) paragraph.lines.push(line);
    else {
      paragraph = { kind: 'paragraph', lines: [line] };
      blocks.push(paragraph);
    }
  }
  if (code) blocks.push(code);
  return blocks;
}

/** The passage as blocks of styled text, with the plain text they read as. */
export function readPassage(text: string): Passage {
  const blocks: Block[] = [];
  let plainText = '';
  for (const raw of rawBlocks(text)) {
    const joined = raw.lines.join('\n');
    const pieces = raw.kind === 'code' ? [{ text: joined, code: true }] : inlineSpans(joined);
    if (blocks.length) plainText += '\n';
    const spans = pieces.map((piece) => {
      const span = { ...piece, offset: plainText.length };
      plainText += piece.text;
      return span;
    });
    blocks.push({ kind: raw.kind, level: raw.level, number: raw.number, spans });
  }
  return { blocks, plainText };
}

/** What a passage reads as, without its Markdown markers: for previews, and to find a cited sentence in it. */
export function plainPassage(text: string): string {
  return readPassage(text).plainText;
}
