/**
 * The sentences of a chunk's text: what extraction numbers for its prompts and cites as evidence, and
 * what search and chat quote from a passage.
 *
 * A sentence ends at `.`, `!`, `?` or `…` (closing quotes and brackets included) followed by white
 * space and something that can open a sentence (a capital, a digit, an opening quote or bracket), at a
 * blank line, before a bullet or numbered list line, at the end of a list item that does not wrap onto
 * the next line, around a rule line (a Setext underline), and after a heading on a line of its own. A
 * period does not end a sentence after a title or a Latin abbreviation ("Dr.", "e.g.", "cf."), after an
 * initial ("J. R. R. Tolkien"), after the number of a numbered list item ("1. This Agreement"), or
 * where no space follows it: inside a number, a version, a file or host name, a URL or code ("3.14",
 * "1.2.12", "`aof.c`", "BeOpen.com"). Text that runs on without punctuation is cut near 400
 * characters, at the last line break, semicolon, colon, comma or space before the limit.
 * Offsets are exact: `chunk.content.slice(start, end) === text` (the text is trimmed, not rewritten).
 *
 * Changing these rules renumbers sentences, and that is safe for what is stored: extraction keeps each
 * evidence sentence's offsets and text, and a chat answer's citation keeps the cited sentence's text
 * (`sentence_text`, which the interface and the OpenAI-compatible API show and highlight by); the
 * `S<n>` in a stored citation key only labels it. Numbers are resolved against the current rules only
 * within one request (a turn's ledger, an extraction group handed to a model or an agent).
 */

/** Longest sentence shown to the model; longer runs are cut (tables, lists, unpunctuated text). */
export const MAX_SENTENCE_CHARS = 400;
/** A cut is looked for in the last part of the window, so pieces do not come out tiny. */
const MIN_CUT_CHARS = 200;

/** Abbreviations after which a period never ends a sentence: titles before names, Latin connectives. */
const NEVER_FINAL = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'rev',
  'fr',
  'sr',
  'st',
  'mt',
  'hon',
  'gen',
  'col',
  'capt',
  'cpt',
  'lt',
  'sgt',
  'cmdr',
  'adm',
  'gov',
  'sen',
  'rep',
  'pres',
  'supt',
  'insp',
  'messrs',
  'mme',
  'mlle',
  'e.g',
  'i.e',
  'cf',
  'viz',
  'vs',
  'v',
  'approx',
  'ibid',
  'dept',
  'univ',
  'assn',
]);
/** Abbreviations that stand before a number ("No. 5", "pp. 3-9", "c. 1850"): no end when a digit follows. */
const BEFORE_NUMBER = new Set([
  'no',
  'nos',
  'vol',
  'vols',
  'p',
  'pp',
  'fig',
  'figs',
  'ch',
  'chap',
  'sec',
  'para',
  'art',
  'eq',
  'ref',
  'c',
  'ca',
  'op',
  'ft',
]);
/** Abbreviations that may end a sentence: they do when a word that usually opens one follows ("… 5 p.m. The"). */
const MAYBE_FINAL = new Set([
  'etc',
  'inc',
  'ltd',
  'co',
  'corp',
  'jr',
  'llc',
  'plc',
  'al',
  'ed',
  'eds',
  'bros',
  'u.s',
  'u.k',
  'u.n',
  'e.u',
  'a.m',
  'p.m',
  'ph.d',
  'b.c',
  'a.d',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/** Capitalised words that usually open a sentence, unlike the names an abbreviation qualifies ("U.S. Army"). */
const OPENING_WORDS = new Set([
  'the',
  'a',
  'an',
  'in',
  'on',
  'at',
  'he',
  'she',
  'it',
  'they',
  'we',
  'i',
  'you',
  'this',
  'that',
  'these',
  'those',
  'but',
  'and',
  'or',
  'however',
  'then',
  'after',
  'before',
  'when',
  'while',
  'his',
  'her',
  'their',
  'its',
  'our',
  'my',
  'there',
  'as',
  'for',
  'from',
  'by',
  'with',
  'since',
  'during',
  'although',
  'though',
  'meanwhile',
  'later',
  'today',
  'also',
  'so',
  'thus',
  'because',
  'if',
  'of',
  'to',
  'some',
  'many',
  'most',
  'all',
  'one',
  'no',
  'what',
  'who',
  'how',
  'why',
  'where',
  'each',
  'every',
  'such',
  'both',
  'yet',
  'still',
  'instead',
  'finally',
  'first',
  'next',
]);

const CLOSERS = `"'”’»)]}`;
const OPENERS = `"'“‘«([{¿¡`;
const BULLET_LINE = /^[ \t]*(?:[-*•▪●◦‣]|\d{1,3}[.)]|[a-z][.)])[ \t]+\S/;

function isLetterOrDigit(char: string): boolean {
  return /[\p{L}\p{N}]/u.test(char);
}

/** The word right before `index` (the position of a period), lower-cased, leading punctuation stripped. */
function wordBefore(text: string, index: number): string {
  let from = index;
  while (from > 0 && !/\s/.test(text[from - 1])) from--;
  return text
    .slice(from, index)
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .toLowerCase();
}

/** Whether the period at `index` ends a sentence, given the word that follows it. */
function periodEnds(text: string, index: number, nextWord: string): boolean {
  const next = nextWord.charAt(0);
  const word = wordBefore(text, index);
  if (word === '') return true;
  if (NEVER_FINAL.has(word)) return false;
  // The number of a numbered list item, at the start of its line ("1. This LICENSE AGREEMENT …").
  if (/^[ \t]*\d{1,3}$/.test(text.slice(text.lastIndexOf('\n', index - 1) + 1, index))) return false;
  if (BEFORE_NUMBER.has(word) && /\p{N}/u.test(next)) return false;
  // An initial: one capital letter standing alone ("J." in "J. R. R. Tolkien", "F." in "John F. Kennedy").
  if (/^\p{Lu}$/u.test(text.slice(index - 1, index)) && word.length === 1) return false;
  // A dotted abbreviation ("U.S", "a.m") ends only before a word that usually opens a sentence.
  if (MAYBE_FINAL.has(word) || /^(?:\p{L}\.)+\p{L}$/u.test(word))
    return OPENING_WORDS.has(nextWord.replace(/[^\p{L}].*$/u, '').toLowerCase());
  return true;
}

/** Most words a heading line has; a line wrapped inside a paragraph almost always has more. */
const HEADING_MAX_WORDS = 8;
/** A line ending in one of these words was wrapped mid-phrase ("… are licensed under the"): no heading. */
const ENDS_MID_PHRASE =
  /\b(?:the|a|an|of|to|in|on|at|by|for|with|from|into|under|over|than|as|and|or|nor|but|that|which|who|is|are|was|were|be|been|its|their|his|her|our|your|my)$/i;
/** A line of one repeated rule character: a Setext heading's underline or a horizontal rule. */
const RULE_LINE = /^[ \t]*([-=_*~])\1{2,}[ \t]*$/;
/** A list item wraps onto the next line when its line is at least this long and has no closing punctuation. */
const WRAPPED_ITEM_CHARS = 60;

/** A key sequence written as symbols and ending in `.` or `?` ("~.", "~?" in ssh's escapes): no sentence end. */
const ESCAPE_KEY = /(?:^|\s)[~^&#*+=|\\]{1,2}[.?]$/;

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0].length;

/**
 * Whether the line before the break at `index` is a heading ("Early life", "## Legacy"): a short line
 * without closing punctuation that stands on its own (at the start, after a blank line or after a line
 * that ended a sentence) with a line opening a sentence below it. Loaders put a heading on its own line;
 * gluing it to the next sentence made "Early life Marie Curie" one name.
 */
function endsHeading(text: string, index: number, thisLine: string, nextLine: string): boolean {
  const heading = thisLine.trim();
  if (!heading || /[.!?…:;,]$/.test(heading) || heading.split(/\s+/).length > HEADING_MAX_WORDS) return false;
  if (ENDS_MID_PHRASE.test(heading)) return false;
  // A manual page's section names stand above text indented under them ("NAME\n     ssh — …").
  const indented = nextLine.trim() !== '' && indentOf(nextLine) > indentOf(thisLine);
  if (!indented && !/^[\s"'“‘«([]*[\p{Lu}\p{N}]/u.test(nextLine)) return false;
  const lineStart = text.lastIndexOf('\n', index - 1);
  if (lineStart <= 0) return true;
  const previousLine = text.slice(text.lastIndexOf('\n', lineStart - 1) + 1, lineStart).trim();
  return previousLine === '' || /[.!?…]["'”’»)\]]*$/.test(previousLine);
}

/**
 * Whether a list item's line goes on in the next line: text indented under the item's text, text
 * starting in lower case or with a bracket, or any text after a long line without closing punctuation
 * ("5. PSF SHALL NOT BE LIABLE TO LICENSEE OR ANY OTHER USERS OF PYTHON" / "FOR ANY INCIDENTAL …").
 */
function itemContinues(itemLine: string, nextLine: string): boolean {
  if (!nextLine.trim() || BULLET_LINE.test(nextLine) || RULE_LINE.test(nextLine)) return false;
  const textStart = /^[ \t]*\S+[ \t]+/.exec(itemLine)![0].length;
  if (indentOf(nextLine) >= textStart || /^[ \t]*[\p{Ll}(]/u.test(nextLine)) return true;
  const item = itemLine.trim();
  return item.length >= WRAPPED_ITEM_CHARS && !/[.!?…:]["'”’»)\]]*$/.test(item);
}

/** End offsets (exclusive) of the sentences of a text. */
function boundaries(text: string): number[] {
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\n') {
      // A blank line, a list item starting on the next line, or one ending on this line.
      const nextEnd = text.indexOf('\n', i + 1);
      const nextLine = text.slice(i + 1, nextEnd === -1 ? text.length : nextEnd);
      const thisLine = text.slice(text.lastIndexOf('\n', i - 1) + 1, i);
      if (
        (nextEnd !== -1 && nextLine.trim() === '') ||
        BULLET_LINE.test(nextLine) ||
        (BULLET_LINE.test(thisLine) && !itemContinues(thisLine, nextLine)) ||
        RULE_LINE.test(nextLine) ||
        RULE_LINE.test(thisLine) ||
        endsHeading(text, i, thisLine, nextLine)
      )
        ends.push(i);
      continue;
    }
    if (!'.!?…'.includes(char)) continue;
    if (ESCAPE_KEY.test(text.slice(Math.max(0, i - 3), i + 1))) continue;
    let end = i + 1;
    while (end < text.length && '.!?…'.includes(text[end])) end++;
    while (end < text.length && CLOSERS.includes(text[end])) end++;
    if (end >= text.length) {
      ends.push(end);
      break;
    }
    if (!/\s/.test(text[end])) {
      i = end - 1;
      continue;
    }
    let after = end;
    while (after < text.length && /\s/.test(text[after])) after++;
    const next = text[after] ?? '';
    const opens = /[\p{Lu}\p{N}]/u.test(next) || OPENERS.includes(next);
    if (opens && (char !== '.' || end - i > 1 || periodEnds(text, i, /^\S*/.exec(text.slice(after, after + 40))![0])))
      ends.push(end);
    i = end - 1;
  }
  return ends;
}

/** Where to cut a run longer than the limit: the last line break, `;`/`:`, comma or space in the window. */
function cutPoint(text: string, from: number): number {
  const window = text.slice(from + MIN_CUT_CHARS, from + MAX_SENTENCE_CHARS);
  for (const pattern of [/\n/g, /[;:]\s/g, /,\s/g, /\s/g]) {
    let last = -1;
    for (const match of window.matchAll(pattern)) last = match.index + 1;
    if (last > 0) return from + MIN_CUT_CHARS + last;
  }
  return from + MAX_SENTENCE_CHARS;
}

/** `[start, end)` spans of the sentences of one text, trimmed, without empty or symbol-only pieces. */
export function sentenceSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (end <= start) return;
    if (end - start <= MAX_SENTENCE_CHARS) {
      if ([...text.slice(start, end)].some(isLetterOrDigit)) spans.push([start, end]);
      return;
    }
    const cut = cutPoint(text, start);
    push(start, cut);
    push(cut, end);
  };
  let start = 0;
  for (const end of boundaries(text)) {
    push(start, end);
    start = end;
  }
  push(start, text.length);
  return spans;
}
