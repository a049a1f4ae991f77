import { demonyms, honorifics } from './gazetteer.ts';
import { nameKey, type Token } from './nlp.ts';

/**
 * What a reader would not call an entity: section headings and list labels, nationalities, and the
 * titles in front of a name.
 */

const BULLET = /^[-*•▪●◦‣]$|^\d{1,3}[.)]?$/;

function isWord(token: Token): boolean {
  return /[\p{L}\p{N}]/u.test(token.text);
}

/**
 * A heading: a short line with no verb and no closing punctuation ("Early life", "Legacy", "Return
 * to France"). Its words name a section, not things; only names the NLP recognises on their own
 * survive it (a heading that is a person's name).
 */
export function isHeading(tokens: readonly Token[]): boolean {
  const words = tokens.filter(isWord);
  if (words.length === 0 || words.length > 6) return false;
  if (/^[.!?"”)]$/.test(tokens[tokens.length - 1].text)) return false;
  return !words.some((token) => token.pos === 'VERB' || token.pos === 'AUX');
}

/**
 * How many leading tokens are a list label ("- Vocals: Freddie Mercury", "Born: 1867"): at most four
 * words before a colon at the start of the sentence; 0 when there is none. With `subtitles`, a title
 * and its subtitle before a copula are no label.
 */
export function labelLength(tokens: readonly Token[], subtitles = false): number {
  let start = 0;
  while (start < tokens.length && BULLET.test(tokens[start].text)) start++;
  for (let i = start; i < tokens.length && i - start <= 4; i++) {
    if (tokens[i].text === ':') return i > start && !(subtitles && isSubtitledSubject(tokens, start, i)) ? i + 1 : 0;
    if (!isWord(tokens[i])) return 0;
  }
  return 0;
}

const COPULAS = new Set(['is', 'was', 'are', 'were']);
const SUBTITLE_JOINERS = new Set(['of', 'the', 'a', 'an', 'and', 'in', 'on', 'to', 'for']);

/**
 * "Age of Empires II: The Age of Kings is a … game": two or more capitalised words, a colon, and a
 * capitalised subtitle right before a copula are the subject of a definition, not a label.
 */
function isSubtitledSubject(tokens: readonly Token[], start: number, colon: number): boolean {
  const before = tokens.slice(start, colon);
  if (before.length < 2 || !before.every((token) => /^\p{Lu}/u.test(token.text) || SUBTITLE_JOINERS.has(token.key)))
    return false;
  for (let i = colon + 1; i < tokens.length && i - colon <= 8; i++) {
    if (COPULAS.has(tokens[i].key)) return i > colon + 1 && /^\p{Lu}/u.test(tokens[i - 1].text);
    if (!/^\p{Lu}/u.test(tokens[i].text) && !SUBTITLE_JOINERS.has(tokens[i].key)) return false;
  }
  return false;
}

/** A name made only of nationalities or languages ("French", "Scottish", "South African"). */
export function isDemonym(name: string): boolean {
  const key = nameKey(name).replace(/[-‐]/g, ' ').replace(/\s+/g, ' ');
  if (demonyms.has(key)) return true;
  const words = key.split(' ');
  // "Americans", "Germans": the plural names the people, still not one entity.
  return (
    words.length <= 3 &&
    words.every((word) => demonyms.has(word) || (word.endsWith('s') && demonyms.has(word.slice(0, -1))))
  );
}

export interface TitledName {
  name: string;
  /** The title taken off the front ("Commander"), if one was. */
  title: string | null;
}

/**
 * The name without leading titles ("Commander Neil Armstrong" → Neil Armstrong, title Commander;
 * "Dr. Wernher von Braun"). A title is only taken off when a capitalised word remains, so "Queen" the
 * band and "General Motors" (an organisation, checked by the caller) keep their names.
 */
export function stripTitles(name: string): TitledName {
  const words = name.split(/\s+/);
  const taken: string[] = [];
  let rest = words;
  for (;;) {
    const two = nameKey(rest.slice(0, 2).join(' ')).replace(/\.$/, '');
    const one = nameKey(rest[0] ?? '').replace(/\.$/, '');
    const size = rest.length > 2 && honorifics.has(two) ? 2 : rest.length > 1 && honorifics.has(one) ? 1 : 0;
    if (size === 0 || !/^\p{Lu}/u.test(rest[size] ?? '')) break;
    taken.push(...rest.slice(0, size));
    rest = rest.slice(size);
  }
  return taken.length ? { name: rest.join(' '), title: taken.join(' ') } : { name, title: null };
}
