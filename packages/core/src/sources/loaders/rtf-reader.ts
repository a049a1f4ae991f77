/**
 * A reader of the RTF grammar for its text: groups and destinations, paragraphs and table rows, `\uN`
 * Unicode escapes (with their `\ucN` fallbacks skipped), `\'hh` bytes decoded in the document's or the
 * font's code page, and `\binN` data jumped over. Tables (fonts, colours, styles), pictures, objects,
 * headers and footers, hidden text and every `\*` destination are not text. The `\info` title and author
 * are kept, and paragraphs with an outline level or a "heading N" style are headings.
 */
import { charsetCodePage, DEFAULT_CODE_PAGE, decoderFor } from './code-pages.ts';
import { UnreadableFileError } from './port.ts';

export interface RtfParagraph {
  text: string;
  /** 1-based heading level; null for body text. */
  level: number | null;
}

export interface RtfDocument {
  paragraphs: RtfParagraph[];
  title: string | null;
  author: string | null;
  /** The paragraphs stop at the character budget. */
  truncated: boolean;
}

type Destination = 'text' | 'skip' | 'fonttbl' | 'stylesheet' | 'info' | 'title' | 'author';

interface GroupState {
  destination: Destination;
  /** Fallback characters after each `\uN` (`\ucN`). */
  unicodeSkip: number;
  font: number | null;
  hidden: boolean;
  /** No control word yet in this group (an `\info` subgroup is named by its first one). */
  fresh: boolean;
  /** The style a stylesheet entry defines (`\sN`); null for character, section and table styles. */
  styleEntry: number | null;
}

const SKIPPED = new Set([
  'colortbl',
  'pict',
  'objdata',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'fldinst',
  'datafield',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'listtext',
  'pntext',
  'rsidtbl',
  'generator',
  'filetbl',
  'revtbl',
  'pgdsctbl',
  'mmathPr',
  'nonshppict',
  'private',
  'xe',
  'tc',
  'txe',
  'bkmkstart',
  'bkmkend',
  'annotation',
  'atnid',
  'atnauthor',
  'background',
]);
const SYMBOLS: Record<string, string> = {
  emdash: '—',
  endash: '–',
  bullet: '•',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
};
const CONTROL_WORD = /\\([a-zA-Z]{1,32})(-?\d{1,10})? ?/y;
const TEXT_RUN = /[^\\{}\r\n\x80-\xff]+/y;
/** Deeper nesting than any editor writes: a file built to exhaust memory. */
const MAX_DEPTH = 10_000;

function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/[ \u00a0]+/g, ' ')
        .replace(/ ?\t ?/g, '\t')
        .replace(/^[ \t]+|[ \t]+$/g, ''),
    )
    .filter((line) => line !== '')
    .join('\n');
}

class RtfReader {
  private readonly stack: GroupState[] = [
    { destination: 'text', unicodeSkip: 1, font: null, hidden: false, fresh: true, styleEntry: null },
  ];
  private readonly fontCodePages = new Map<number, number>();
  private fontBeingDefined: number | null = null;
  private readonly styleNames = new Map<number, string>();
  private codePage = DEFAULT_CODE_PAGE;
  private bytes: number[] = [];
  private pendingSkip = 0;
  private paragraph = { text: '', style: 0, outline: null as number | null, inTable: false };
  private readonly paragraphs: RtfParagraph[] = [];
  private length = 0;
  private title = '';
  private author = '';
  private truncated = false;

  constructor(
    private readonly source: string,
    private readonly maxChars: number,
  ) {}

  private get state(): GroupState {
    return this.stack[this.stack.length - 1];
  }

  read(): RtfDocument {
    const { source } = this;
    let i = 0;
    while (i < source.length && !this.truncated) {
      const code = source.charCodeAt(i);
      if (code === 0x7b || code === 0x7d) {
        this.flushBytes();
        this.pendingSkip = 0;
        if (code === 0x7b) this.openGroup();
        else if (this.stack.length > 1) this.stack.pop();
        i++;
      } else if (code === 0x5c) {
        i = this.control(i);
      } else if (code === 0x0d || code === 0x0a) {
        i++;
      } else if (code >= 0x80) {
        // Raw 8-bit bytes are not valid RTF, but some writers emit them: read them as `\'hh` would be.
        if (this.pendingSkip > 0) this.pendingSkip--;
        else this.bytes.push(code);
        i++;
      } else {
        TEXT_RUN.lastIndex = i;
        let run = TEXT_RUN.exec(source)![0];
        i += run.length;
        if (this.pendingSkip > 0) {
          const dropped = Math.min(this.pendingSkip, run.length);
          run = run.slice(dropped);
          this.pendingSkip -= dropped;
        }
        this.flushBytes();
        this.emit(run);
      }
    }
    this.flushBytes();
    this.endParagraph();
    return {
      paragraphs: this.paragraphs,
      title: tidy(this.title).replace(/\s+/g, ' ') || null,
      author: tidy(this.author).replace(/\s+/g, ' ') || null,
      truncated: this.truncated,
    };
  }

  private openGroup(): void {
    if (this.stack.length >= MAX_DEPTH)
      throw new UnreadableFileError(`The RTF file nests groups more than ${MAX_DEPTH} deep`);
    const parent = this.state;
    this.stack.push({
      ...parent,
      fresh: true,
      styleEntry: parent.destination === 'stylesheet' ? 0 : parent.styleEntry,
    });
  }

  /** Reads the control word, symbol or hex escape at `i`; returns where the next token starts. */
  private control(i: number): number {
    const next = this.source[i + 1] ?? '';
    if (next === "'") {
      const hex = this.source.slice(i + 2, i + 4);
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        if (this.pendingSkip > 0) this.pendingSkip--;
        else this.bytes.push(parseInt(hex, 16));
      }
      return i + 4;
    }
    this.flushBytes();
    if (/[a-zA-Z]/.test(next)) {
      CONTROL_WORD.lastIndex = i;
      const match = CONTROL_WORD.exec(this.source)!;
      const parameter = match[2] === undefined ? null : Number(match[2]);
      if (match[1] === 'bin') return CONTROL_WORD.lastIndex + Math.max(0, parameter ?? 0);
      if (this.pendingSkip > 0) this.pendingSkip--;
      else this.word(match[1], parameter);
      return CONTROL_WORD.lastIndex;
    }
    if (this.pendingSkip > 0) {
      this.pendingSkip--;
      return i + 2;
    }
    if (next === '\\' || next === '{' || next === '}') this.emit(next);
    else if (next === '~') this.emit(' ');
    else if (next === '_') this.emit('-');
    else if (next === '*') this.state.destination = 'skip';
    else if (next === '\n' || next === '\r') this.word('par', null);
    return i + 2;
  }

  private word(word: string, parameter: number | null): void {
    const state = this.state;
    const fresh = state.fresh;
    state.fresh = false;
    if (state.destination === 'skip') return;
    if (state.destination === 'info') {
      if (fresh) state.destination = word === 'title' ? 'title' : word === 'author' ? 'author' : 'skip';
      return;
    }
    if (SKIPPED.has(word)) {
      state.destination = 'skip';
      return;
    }
    switch (word) {
      case 'fonttbl':
      case 'stylesheet':
      case 'info':
        state.destination = word;
        return;
      case 'ansicpg':
        if (parameter !== null && parameter > 0) this.codePage = parameter;
        return;
      case 'mac':
        this.codePage = 10000;
        return;
      case 'pc':
        this.codePage = 437;
        return;
      case 'pca':
        this.codePage = 850;
        return;
      case 'uc':
        state.unicodeSkip = Math.max(0, parameter ?? 1);
        return;
      case 'u':
        if (parameter !== null) this.emit(String.fromCharCode(parameter < 0 ? parameter + 65536 : parameter));
        this.pendingSkip = state.unicodeSkip;
        return;
    }
    if (state.destination === 'fonttbl') this.fontWord(word, parameter);
    else if (state.destination === 'stylesheet') {
      if (word === 's') state.styleEntry = parameter ?? 0;
      else if (word === 'cs' || word === 'ds' || word === 'ts') state.styleEntry = null;
    } else this.textWord(word, parameter);
  }

  private fontWord(word: string, parameter: number | null): void {
    if (word === 'f') this.fontBeingDefined = parameter;
    else if (this.fontBeingDefined !== null && parameter !== null) {
      const codePage = word === 'fcharset' ? charsetCodePage(parameter) : word === 'cpg' ? parameter : null;
      if (codePage) this.fontCodePages.set(this.fontBeingDefined, codePage);
    }
  }

  private textWord(word: string, parameter: number | null): void {
    const state = this.state;
    const paragraph = this.paragraph;
    switch (word) {
      case 'par':
        if (paragraph.inTable) this.emit(' ');
        else this.endParagraph();
        return;
      case 'sect':
      case 'page':
      case 'row':
      case 'nestrow':
        this.endParagraph();
        return;
      case 'line':
        this.emit('\n');
        return;
      case 'tab':
      case 'cell':
      case 'nestcell':
        this.emit('\t');
        return;
      case 'pard':
        Object.assign(paragraph, { style: 0, outline: null, inTable: false });
        return;
      case 'intbl':
        paragraph.inTable = parameter !== 0;
        return;
      case 's':
        paragraph.style = parameter ?? 0;
        return;
      case 'outlinelevel':
        paragraph.outline = parameter;
        return;
      case 'f':
        state.font = parameter;
        return;
      case 'v':
        state.hidden = parameter !== 0;
        return;
      case 'plain':
        state.hidden = false;
        return;
    }
    const symbol = SYMBOLS[word];
    if (symbol) this.emit(symbol);
  }

  private emit(text: string): void {
    if (!text) return;
    const state = this.state;
    switch (state.destination) {
      case 'text':
        if (!state.hidden) this.paragraph.text += text;
        return;
      case 'title':
        this.title += text;
        return;
      case 'author':
        this.author += text;
        return;
      case 'stylesheet':
        if (state.styleEntry !== null)
          this.styleNames.set(state.styleEntry, (this.styleNames.get(state.styleEntry) ?? '') + text);
        return;
      default:
        return;
    }
  }

  private flushBytes(): void {
    if (this.bytes.length === 0) return;
    const font = this.state.font;
    const codePage = (font !== null ? this.fontCodePages.get(font) : undefined) ?? this.codePage;
    const text = decoderFor(codePage)(Uint8Array.from(this.bytes));
    this.bytes = [];
    this.emit(text);
  }

  private headingLevel(): number | null {
    const { outline, style } = this.paragraph;
    if (outline !== null && outline >= 0 && outline <= 8) return outline + 1;
    const name = this.styleNames.get(style)?.split(';')[0].trim();
    const match = name ? /^heading\s*([1-9])$/i.exec(name) : null;
    return match ? Number(match[1]) : null;
  }

  private endParagraph(): void {
    const text = tidy(this.paragraph.text);
    this.paragraph.text = '';
    if (!text) return;
    this.paragraphs.push({ text, level: this.headingLevel() });
    this.length += text.length + 1;
    if (this.length > this.maxChars) this.truncated = true;
  }
}

/** `source`: the file's bytes as Latin-1 (RTF is 7-bit; its 8-bit text is escaped). */
export function readRtf(source: string, maxChars: number): RtfDocument {
  return new RtfReader(source, maxChars).read();
}
