/**
 * Turns whatever a user typed into a safe SQLite FTS5 MATCH expression. No FTS5 syntax is exposed
 * except two forms people type without knowing FTS5 exists:
 *
 * - `"exact phrase"`: a balanced pair of double quotes keeps its words as one phrase (adjacent, in order);
 * - `term*`: a trailing star on a bare word of at least 2 characters is a prefix query.
 *
 * A trailing possessive `'s` is dropped from a bare word (`Curie's` searches `Curie`).
 *
 * Column filters naming an indexed column (`label:x`, `{label body}: x`) are dropped, keeping `x`. Every
 * other piece of whitespace-separated input is quoted as a string, so operators (`AND`, `OR`, `NOT`,
 * `NEAR(…)`, `+`, `^`), parentheses, other `word:` prefixes and stray stars lose their meaning and only
 * their words remain (the tokenizer splits `a:b` into the phrase "a b", `NEAR(x` into "near x"). Inner double
 * quotes are removed (an unbalanced quote becomes a separator), control characters and lone surrogates
 * are dropped, and a piece without a letter or digit (emoji, punctuation, `*`) is dropped, since it
 * could only ever match nothing. Bare upper-case `AND`/`OR`/`NOT`/`NEAR` are dropped as noise when the
 * input has other words (terms are ANDed anyway), and searched as words when they are all there is.
 * The work is bounded: only the first `maxInputChars` characters are read, each term or phrase keeps at
 * most `maxTermChars` characters, and at most `maxTerms` terms are kept.
 *
 * Terms are ANDed (FTS5's implicit AND). `any` is the same terms ORed, for the caller's fallback when
 * nothing contains every term; it is null for a single term, where it would change nothing.
 */
export interface FtsQuery {
  /** Every term required (implicit AND). */
  all: string;
  /** Any term suffices; null when there is only one term. */
  any: string | null;
  /** The quoted terms, in input order (a prefix term keeps its trailing `*`). */
  terms: string[];
}

export interface FtsQueryLimits {
  maxTerms: number;
  maxTermChars: number;
  maxInputChars: number;
}

export const defaultFtsQueryLimits: FtsQueryLimits = { maxTerms: 32, maxTermChars: 200, maxInputChars: 4096 };

const operatorWords = new Set(['AND', 'OR', 'NOT', 'NEAR']);
// An FTS5 column filter (`label:`, `-body :`, `{label body}:`) naming a column of the indexes: dropped, its words stay.
const columnFilter = /(^|\s)-?(?:\{[^}"]*\}|label|body|content|title|node_id)\s*:/giu;
// Control characters (NUL included), unpaired surrogates, and the replacement character.
const unusable = /[\p{Cc}\p{Cs}\uFFFD]/gu;
const wordChar = /[\p{L}\p{N}]/u;
// A bare word: letters, digits and combining marks only (what the tokenizer keeps as one token).
const bareWord = /^[\p{L}\p{N}\p{M}]+$/u;

interface Piece {
  text: string;
  phrase: boolean;
}

/** Splits the input into quoted phrases and whitespace-separated pieces; an unbalanced quote is a separator. */
function pieces(input: string): Piece[] {
  const out: Piece[] = [];
  const quotes = [...input.matchAll(/"/g)].map((match) => match.index);
  // The last quote of an odd count has no partner: it separates, like whitespace.
  const lastPaired = quotes.length % 2 === 0 ? quotes.length : quotes.length - 1;
  let cursor = 0;
  const words = (text: string) => {
    for (const word of text.replace(columnFilter, ' ').split(/[\s"]+/u))
      if (word) out.push({ text: word, phrase: false });
  };
  for (let index = 0; index < lastPaired; index += 2) {
    const open = quotes[index];
    const close = quotes[index + 1];
    words(input.slice(cursor, open));
    const phrase = input
      .slice(open + 1, close)
      .trim()
      .replace(/\s+/gu, ' ');
    if (phrase) out.push({ text: phrase, phrase: true });
    cursor = close + 1;
  }
  words(input.slice(cursor));
  return out;
}

/** At most `maxChars` code points (never half a surrogate pair). */
function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : Array.from(text).slice(0, maxChars).join('');
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '')}"`;
}

/** One piece as an FTS5 string (or prefix string), or null when it holds nothing searchable. */
function term(piece: Piece, limits: FtsQueryLimits): string | null {
  const text = truncate(piece.text, limits.maxTermChars);
  if (piece.phrase) return wordChar.test(text) ? quote(text) : null;
  // Trailing stars are a prefix marker on a bare word of 2+ characters (one character would expand to a
  // large part of the vocabulary), and dropped anywhere else.
  const unstarred = text.replace(/\*+$/u, '');
  // A possessive ("Curie's") is searched as its noun: as typed it is the two-token phrase "curie s".
  const stem = unstarred.replace(/['’]s$/iu, '');
  if (!wordChar.test(stem)) return null;
  const prefix = unstarred !== text && bareWord.test(stem) && Array.from(stem).length >= 2;
  return prefix ? `${quote(stem)}*` : quote(stem);
}

/** The MATCH expressions for `input`, or null when it has no usable term (the caller returns no results). */
export function ftsQuery(input: string, limits: FtsQueryLimits = defaultFtsQueryLimits): FtsQuery | null {
  const clean = input.slice(0, limits.maxInputChars).replace(unusable, ' ');
  const all = pieces(clean);
  const hasWords = all.some((piece) => piece.phrase || !operatorWords.has(piece.text));
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const piece of all) {
    if (terms.length >= limits.maxTerms) break;
    if (hasWords && !piece.phrase && operatorWords.has(piece.text)) continue;
    const quoted = term(piece, limits);
    if (quoted === null || seen.has(quoted)) continue;
    seen.add(quoted);
    terms.push(quoted);
  }
  if (!terms.length) return null;
  return { all: terms.join(' '), any: terms.length > 1 ? terms.join(' OR ') : null, terms };
}
