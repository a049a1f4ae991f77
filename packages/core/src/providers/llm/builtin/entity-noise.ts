import type { Token } from './nlp.ts';
import { licenceWords, manualWords } from './technical-gazetteer.ts';

/**
 * What a capitalised run can be without being a name, in manuals above all: an option letter (`-L`,
 * `~C`), a word capitalised only because it opens a sentence or a list item ("Use", "Display",
 * "Certain Redis"), a trailing pronoun run on from the next line ("Colin Watson This"), licence
 * boilerplate ("FITNESS FOR A PARTICULAR PURPOSE"), a heading's verb ("Building Redis"), or a
 * sentence (over 60 characters or 8 words).
 */

const MAX_NAME_CHARS = 60;
const MAX_NAME_WORDS = 8;
const OPTION_MARKS = new Set(['-', '--', '~', '~~', '+']);
/** Words that end a line of a title page or copyright block and run on into the name before them. */
const RUN_ONS = new Set(['copyright', 'copyrights']);

export interface NoiseContext {
  tokens: readonly Token[];
  /** Where the sentence's text starts after a list label or bullet. */
  start: number;
  /** Lowercase words the group writes somewhere: a capitalised one among them is an ordinary word. */
  lowercaseWords: ReadonlySet<string>;
  /** Whether the whole name is known as a name (gazetteer, compromise, the technical notation). */
  known: (key: string) => boolean;
}

const isOrdinary = (key: string) => manualWords.has(key) || licenceWords.has(key);
/** Ordinary words that also open names ("New York Liberty", "First for Women", "Open University"): never cut off. */
const NAME_OPENERS = new Set([
  'new',
  'first',
  'last',
  'next',
  'big',
  'small',
  'old',
  'open',
  'basic',
  'simple',
  'other',
  'same',
  'own',
  'more',
  'huge',
]);

/** An option letter or an escape: the token right before is a dash or a tilde with no space between. */
function isOption(tokens: readonly Token[], from: number): boolean {
  const before = tokens[from - 1];
  return before !== undefined && OPTION_MARKS.has(before.text) && tokens[from].space === '';
}

/** Whether only punctuation, symbols or option letters come before `index` in the sentence. */
function opensSentence(tokens: readonly Token[], start: number, index: number): boolean {
  for (let i = start; i < index; i++) {
    const token = tokens[i];
    if (/[\p{L}\p{N}]/u.test(token.text) && !(token.text.length === 1 && /\p{Lu}/u.test(token.text))) return false;
  }
  return true;
}

/** An ordinary "-ing" word of a manual ("Building", "Running"), a verb when it opens a line. */
function isGerundVerb(token: Token): boolean {
  return token.key.endsWith('ing') && isOrdinary(token.key);
}

/** A verb before a name ("Try Redis directly", "Building Redis"), never the first word of one. */
function isVerb(token: Token): boolean {
  return isGerundVerb(token) || (token.pos === 'VERB' && !NAME_OPENERS.has(token.key));
}

function isCapitalisedWord(token: Token): boolean {
  return /^\p{Lu}/u.test(token.text);
}

/** A single word that only looks like a name: ordinary, a function word, or a capitalised word the text also writes in lowercase. */
function isOrdinaryWord(token: Token, opening: boolean, context: NoiseContext): boolean {
  if (token.stopWord || isOrdinary(token.key)) return true;
  const allCaps = /^\p{Lu}{2,}$/u.test(token.text);
  return (opening || allCaps) && isCapitalisedWord(token) && context.lowercaseWords.has(token.key);
}

/**
 * The span `[from, to)` without the words that are not part of the name, or null when nothing of a
 * name is left.
 */
export function cleanNameSpan(
  from: number,
  to: number,
  context: NoiseContext,
  shaped = false,
): { from: number; to: number } | null {
  const { tokens } = context;
  const keyOf = (a: number, b: number) =>
    tokens
      .slice(a, b)
      .map((token) => token.key)
      .join(' ');
  const trailing = (ordinary: (token: Token) => boolean) => {
    while (to > from && (ordinary(tokens[to - 1]) || !/[\p{L}\p{N}]/u.test(tokens[to - 1].text))) to--;
  };
  // "Colin Watson This", "Joey Hess Copyright": a pronoun or licence word run on from the next line.
  // A definition's subject keeps a last word that is a verb elsewhere ("GNU Make is a tool").
  trailing((token) => (token.stopWord && !(shaped && token.pos === 'VERB')) || RUN_ONS.has(token.key));
  // A heading's verb ("Building Redis", "Installing OpenSSH") or a list item's ("Try Redis directly") makes
  // the NLP see one name where a verb stands before a name of its own.
  const leadingVerb = to - from >= 2 && opensSentence(tokens, context.start, from) && isVerb(tokens[from]);
  if (to > from && !leadingVerb && context.known(keyOf(from, to))) return isOption(tokens, from) ? null : { from, to };
  trailing((token) => isOrdinary(token.key));
  while (!shaped && from < to - 1) {
    const token = tokens[from];
    const opening = opensSentence(tokens, context.start, from);
    const letter = token.text.length === 1;
    if (NAME_OPENERS.has(token.key)) break;
    const ordinary = opening && (isOrdinaryWord(token, true, context) || isVerb(token));
    if (!(letter || ordinary || isOrdinary(token.key))) break;
    from++;
    if (context.known(keyOf(from, to))) return { from, to };
  }
  if (to <= from || isOption(tokens, from)) return null;
  const words = tokens.slice(from, to).filter((token) => /[\p{L}\p{N}]/u.test(token.text));
  if (words.length === 0 || words.length > MAX_NAME_WORDS) return null;
  if (words.every((token) => token.stopWord || isOrdinary(token.key))) return null;
  if (words.length === 1) {
    const [word] = words;
    // The subject of a definition ("Fontconfig is a library …") is a name even where the text also
    // writes it in lowercase ("use fontconfig to find …").
    const opening = !shaped && opensSentence(tokens, context.start, from);
    if (word.text.length <= 1 || isOrdinaryWord(word, opening, context)) return null;
    // An acronym is short; a longer word in capitals is shouted ("LIMITED", "MERCHANTABILITY").
    if (/^\p{Lu}{6,}$/u.test(word.text)) return null;
  }
  const length = tokens
    .slice(from, to)
    .reduce((sum, token, i) => sum + token.text.length + (i === 0 ? 0 : token.space.length), 0);
  return length > MAX_NAME_CHARS ? null : { from, to };
}
