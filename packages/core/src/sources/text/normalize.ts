/**
 * Text normalisation before chunking. Every step is a
 * list of edits on the current text, folded into one offset map, so any position of the normalised
 * text maps back to the loader's original text and the loader's page/section spans survive.
 */
import type { TextSpan } from '../loaders/port.ts';
import { lineJoinEdits } from './line-joins.ts';
import { isWhiteSpace } from './lines.ts';
import { applyEdits, OffsetMap, type Edit } from './offset-map.ts';
import { structuralNoiseEdits } from './structural-noise.ts';
import { windows1252High } from './windows-1252.ts';

export interface NormalizeOptions {
  kind: 'prose' | 'structured' | 'image';
  /** null = auto: on for prose (and vision text of images), off for structured text. */
  enabled: boolean | null;
  removeStructuralNoise: boolean;
  normalizeNewlines: boolean;
  /** Spans of the original text; returned remapped onto the normalised text. */
  spans?: readonly TextSpan[];
  /** The text is a segment that more text follows (see segments.ts): its trailing paragraph break stays. */
  continues?: boolean;
  /** The text is a segment that starts inside a fenced code block (the previous segment's `fenced`). */
  fenced?: boolean;
}

export interface NormalizedText {
  text: string;
  offsetMap: OffsetMap;
  spans: TextSpan[];
  /** Whether the text ends inside a fenced code block. */
  fenced: boolean;
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

/** Every character a match of BREAKS_AND_CONTROLS starts with: one scan for it is cheaper than the matching. */
// eslint-disable-next-line no-control-regex -- as above
const BREAK_OR_CONTROL = /[\u0000-\u0008\v\f\r\u000e-\u001f\u007f-\u009f\u00ad\u200b\u2028\u2029\u2060\ufeff]/;

function characterEdits(text: string): Edit[] {
  if (!BREAK_OR_CONTROL.test(text)) return [];
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

/** Leading and trailing white space goes (trailing only at the text's end); three or more newlines become a paragraph break. */
function blankLineEdits(text: string, continues: boolean): Edit[] {
  const edits: Edit[] = [];
  const leading = whiteSpaceEnd(text, 0);
  if (leading > 0) edits.push({ start: 0, end: leading, text: '' });
  if (leading === text.length) return edits;
  const trailing = continues ? text.length : trailingWhiteSpaceStart(text);
  let from = leading;
  for (let run = text.indexOf('\n\n\n', from); run >= 0 && run <= trailing; run = text.indexOf('\n\n\n', from)) {
    from = newlineRunEnd(text, run);
    edits.push({ start: run, end: from, text: from === text.length && !continues ? '' : '\n\n' });
  }
  // The trailing white space not already taken by a run of newlines starting it.
  const rest = Math.max(from, trailing);
  if (rest < text.length) edits.push({ start: rest, end: text.length, text: '' });
  return edits;
}

function whiteSpaceEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && isWhiteSpace(text.charCodeAt(at))) at++;
  return at;
}

function trailingWhiteSpaceStart(text: string): number {
  let at = text.length;
  while (at > 0 && isWhiteSpace(text.charCodeAt(at - 1))) at--;
  return at;
}

function newlineRunEnd(text: string, from: number): number {
  let at = from;
  while (text.charCodeAt(at) === 10) at++;
  return at;
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
  const fence = { fenced: options.fenced ?? false };
  if (!enabled)
    return {
      text,
      offsetMap: OffsetMap.identity(text.length),
      spans: spans.map((span) => ({ ...span })),
      fenced: fence.fenced,
    };

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
  if (options.normalizeNewlines) step((current) => lineJoinEdits(current, fence));
  step((current) => blankLineEdits(current, options.continues ?? false));
  return { text: state.text, offsetMap: state.map, spans: remapSpans(spans, state.map), fenced: fence.fenced };
}
