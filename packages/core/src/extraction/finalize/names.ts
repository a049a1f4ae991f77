/**
 * Entity names as the finaliser compares them: the normalised name key (exact dedup, `FinalEntity.key`),
 * the words of a name with and without title words (hierarchical names, the semantic no-overlap rule),
 * and the numbers that tell "Apollo 11" from "Apollo 13".
 */

import { normalizeNameKey } from '../../graph/index.ts';

export { normalizeNameKey };

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
