/**
 * Entity names as the finaliser compares them: the normalised name key (exact dedup, `FinalEntity.key`),
 * the words of a name with and without title words (hierarchical names, the semantic no-overlap rule),
 * and the numbers that tell "Apollo 11" from "Apollo 13".
 */

/**
 * Combining marks of the Latin, Greek and Cyrillic diacritic blocks. Only these are stripped: marks of
 * Indic or other scripts carry vowels, and dropping them would merge different names.
 */
const DIACRITIC_BLOCKS: [number, number][] = [
  [0x0300, 0x036f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x20d0, 0x20ff],
  [0xfe20, 0xfe2f],
];
const stripDiacritics = (text: string) =>
  text.replace(/\p{M}/gu, (mark) => {
    const code = mark.codePointAt(0)!;
    return DIACRITIC_BLOCKS.some(([from, to]) => code >= from && code <= to) ? '' : mark;
  });
/** Letters NFD does not decompose but a reader takes for a plain letter with a stroke or a ligature. */
const FOLDS: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  ı: 'i',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ß: 'ss',
};
const FOLDABLE = /[łŁøØđĐħıæÆœŒß]/g;
/** Typographic variants folded to their plain form, so O’Brien and O'Brien share a key. */
const TYPOGRAPHY: [RegExp, string][] = [
  [/[‘’‚‛′´]/g, "'"],
  [/[“”„‟″«»]/g, '"'],
  [/[‐‑‒–—―]/g, '-'],
];
const SURROUNDING_QUOTES = `"'‹›`;
const TRAILING_PUNCTUATION = '.,;:!?';

/**
 * The normalised name key: NFD, Latin diacritics stripped (plus a few stroke letters folded), lower case,
 * typographic quotes and dashes made plain, whitespace collapsed, surrounding quotes and trailing
 * sentence punctuation stripped, and a name wholly in brackets unwrapped. Symbols that are part of a
 * name stay: "C++", "C#" and ".NET" keep their keys.
 */
export function normalizeNameKey(name: string): string {
  let key = name.replace(/`/g, "'");
  // eslint-disable-next-line no-control-regex -- plain ASCII needs no Unicode folding
  if (!/^[\x00-\x7f]*$/.test(key)) {
    key = stripDiacritics(key.normalize('NFD'))
      .normalize('NFC')
      .replace(FOLDABLE, (letter) => FOLDS[letter]);
    for (const [pattern, plain] of TYPOGRAPHY) key = key.replace(pattern, plain);
  }
  key = key.toLowerCase().replace(/\s+/g, ' ').trim();
  for (let previous = ''; previous !== key;) {
    previous = key;
    while (key.length > 0 && SURROUNDING_QUOTES.includes(key[0])) key = key.slice(1);
    while (key.length > 0 && (SURROUNDING_QUOTES.includes(key.at(-1)!) || TRAILING_PUNCTUATION.includes(key.at(-1)!)))
      key = key.slice(0, -1);
    if (/^\([^()]*\)$/.test(key) || /^\[[^[\]]*\]$/.test(key)) key = key.slice(1, -1);
    key = key.trim();
  }
  return key;
}

/**
 * Words that address or rank a person (or an article) rather than name them: "Dr. Marie Curie" and
 * "Marie Curie" have the same content words. Full military ranks and words such as "general" stay
 * content words, so "General Motors" is not "Motors".
 */
export const TITLE_WORDS: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'madame',
  'mme',
  'mademoiselle',
  'mlle',
  'monsieur',
  'herr',
  'frau',
  'dr',
  'doctor',
  'prof',
  'professor',
  'sir',
  'dame',
  'lady',
  'lord',
  'king',
  'queen',
  'prince',
  'princess',
  'duke',
  'duchess',
  'count',
  'countess',
  'baron',
  'baroness',
  'emperor',
  'empress',
  'pope',
  'saint',
  'st',
  'rev',
  'reverend',
  'fr',
  'hon',
  'jr',
  'sr',
  'capt',
  'col',
  'gen',
  'lt',
  'sgt',
  'the',
  'a',
  'an',
]);

/** The words of a name key: letters and digits, inner apostrophes kept ("o'brien"). */
export function nameWords(key: string): string[] {
  return key
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => word.length > 0);
}

/** The words of a name key without title words. */
export function contentWords(key: string): string[] {
  return nameWords(key).filter((word) => !TITLE_WORDS.has(word));
}

const ROMAN = /^(?=[IVXLCDM])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;

/**
 * The numbers in a name: digit runs and upper-case Roman numerals ("World War II", "Louis XIV"),
 * read from the original name because a lower-case "mix" is no numeral.
 */
export function nameNumbers(name: string): string[] {
  const numbers: string[] = [];
  for (const token of name.split(/[^\p{L}\p{N}]+/u)) {
    if (/^\d+$/.test(token)) numbers.push(String(Number(token)));
    else if (/\d/.test(token)) numbers.push(...(token.match(/\d+/g) ?? []).map((digits) => String(Number(digits))));
    else if (ROMAN.test(token)) numbers.push(token);
  }
  return numbers.sort();
}

/**
 * Whether two names carry different numbers: "Apollo 11" and "Apollo 13", "Henry VII" and "Henry VIII"
 * are different things however close their texts are. With `bothNumbered`, a name without numbers
 * conflicts with none ("Apollo" may still be short for "Apollo 11").
 */
export function numbersConflict(left: string, right: string, bothNumbered: boolean): boolean {
  const a = nameNumbers(left);
  const b = nameNumbers(right);
  if (bothNumbered && (a.length === 0 || b.length === 0)) return false;
  return a.join(' ') !== b.join(' ');
}

/** Small words a proper name may keep in lower case ("Bank of England", "Ludwig van Beethoven"). */
const NAME_PARTICLES: ReadonlySet<string> = new Set([
  'of',
  'and',
  'the',
  'for',
  'in',
  'on',
  'at',
  'to',
  'de',
  'du',
  'des',
  'la',
  'le',
  'les',
  'von',
  'van',
  'der',
  'den',
  'da',
  'di',
  'del',
  'y',
  'e',
  'al',
  'bin',
  'ibn',
]);

/** Whether a name is written as a proper name: every word but particles starts with a capital, a digit or an uncased letter. */
export function isProperName(name: string): boolean {
  const words = name.split(/[^\p{L}\p{N}']+/u).filter((word) => word.length > 0);
  if (words.length === 0) return false;
  return words.every((word) => {
    if (NAME_PARTICLES.has(word)) return true;
    // Upper case, a digit, or a letter of a script without case.
    return word[0] === word[0].toUpperCase();
  });
}

/**
 * Whether every word of `short` occurs in `long`, or as an initial starts a distinct word of it ("m curie"
 * in "marie curie"), and `short` has at least `minCoverage` as many words as `long`.
 */
export function coversName(long: readonly string[], short: readonly string[], minCoverage: number): boolean {
  if (short.length === 0 || short.length > long.length || short.length / long.length < minCoverage) return false;
  const used = new Array<boolean>(long.length).fill(false);
  const initials: string[] = [];
  for (const word of short) {
    const at = long.findIndex((candidate, index) => !used[index] && candidate === word);
    if (at >= 0) used[at] = true;
    else if (word.length === 1) initials.push(word);
    else return false;
  }
  for (const initial of initials) {
    const at = long.findIndex((candidate, index) => !used[index] && candidate.length > 1 && candidate[0] === initial);
    if (at < 0) return false;
    used[at] = true;
  }
  return true;
}
