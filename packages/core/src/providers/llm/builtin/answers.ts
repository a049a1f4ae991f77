import type { RetrievedPassage } from '../port.ts';
import { nameKey, type BuiltinNlp, type Sentence, type Token } from './nlp.ts';

/** Chat answers and titles without a model: quoting, never writing. */

export const NOTHING_RELEVANT =
  'The knowledge base has nothing relevant to this question. The builtin provider has no language model: it answers only by quoting matching sentences from your sources, with their citations.';

const MAX_ANSWER_SENTENCES = 3;
/** A sentence after the first is quoted only when it answers at least this well, relative to the first. */
const FOLLOWING_SHARE = 0.6;
// BM25's usual constants; sentences are short, so length normalisation matters less than for pages.
const K1 = 1.2;
const B = 0.75;
/** How much the passages' order (best first) weighs against how much of the question a sentence covers. */
const ORDER_WEIGHT = 0.15;
/** Below this share of letters a "sentence" is a table row, a listing or a run of options. */
const MIN_LETTER_SHARE = 0.55;
const MIN_WORDS = 4;
/** Above this many option-like words (`-v`, `[--all`, `| -n`, `<file>`) per word, a sentence is a synopsis. */
const MAX_OPTION_SHARE = 0.3;
/** A sentence made only of the question's own words (a heading that repeats it) answers nothing. */
const ECHO_WEIGHT = 0.5;
/** A question word found only in the heading above a sentence counts this much of one found in it. */
const CONTEXT_SHARE = 0.5;
const HEADING_MAX_WORDS = 8;
/**
 * How much a sentence of a reference list, a table of contents or a licence block counts: it answers
 * only a question that nothing else covers nearly as well ("which RFC describes the architecture").
 */
const BOILERPLATE_WEIGHT = 0.5;

/**
 * Whether a sentence has a verb. An instruction opening a manual's description ("Filter the archive
 * through xz(1).", "Extract files from an archive.") has one the tagger reads as a name: a capitalised
 * first word followed by a word that is neither a name nor punctuation.
 */
function hasVerb(sentence: Sentence): boolean {
  if (sentence.tokens.some((token) => token.pos === 'VERB' || token.pos === 'AUX')) return true;
  const [first, second] = sentence.tokens;
  return (
    second !== undefined &&
    /^\p{Lu}\p{Ll}+$/u.test(first.text) &&
    (first.pos === 'PROPN' || first.pos === 'NOUN') &&
    !['PROPN', 'PUNCT', 'NUM', 'SYM'].includes(second.pos)
  );
}

/** A line that names what follows rather than says something: short, no verb ("-J, --xz", "~#", "Allocator"). */
const isHeading = (sentence: Sentence) =>
  !hasVerb(sentence) && sentence.tokens.filter((token) => /[\p{L}\p{N}]/u.test(token.text)).length <= HEADING_MAX_WORDS;

/** One word of a question or a sentence: it matches another word with the same lemma or the same stem. */
interface Word {
  lemma: string;
  stem: string;
}

/**
 * The content words of some tokens: no stop words or punctuation; a compound of code or names
 * ("git-add", "redis.conf", "port:host", "xz(1)", "--directory=DIR") also counts as its parts.
 */
function contentWords(tokens: readonly Token[]): Word[] {
  return tokens
    .filter((token) => !token.stopWord && token.pos !== 'PUNCT' && /[\p{L}\p{N}]/u.test(token.text))
    .flatMap((token) => {
      const parts = token.lemma.split(/[-_./:()[\]<>=,]+/).filter((part) => /[\p{L}\p{N}]/u.test(part));
      return [
        { lemma: token.lemma, stem: token.stem },
        ...(parts.length > 1 ? parts.map((part) => ({ lemma: part, stem: part })) : []),
      ];
    });
}

/** The words of a sentence, looked up by lemma and by stem. */
class WordSet {
  private readonly lemmas = new Map<string, number>();
  private readonly stems = new Map<string, number>();
  readonly size: number;

  constructor(words: readonly Word[]) {
    for (const { lemma, stem } of words) {
      this.lemmas.set(lemma, (this.lemmas.get(lemma) ?? 0) + 1);
      this.stems.set(stem, (this.stems.get(stem) ?? 0) + 1);
    }
    this.size = words.length;
  }

  /** How often `word` occurs, by lemma or else by stem. */
  count(word: Word): number {
    return this.lemmas.get(word.lemma) ?? this.stems.get(word.stem) ?? 0;
  }
}

/**
 * The sentences of a passage. The NLP's cuts are kept only where the text has one — final punctuation,
 * white space, then something that opens a sentence — so a dot inside code, a file or host name or a
 * URL ("`aof.c` in", "BeOpen.com to") never cuts a sentence in two.
 */
function passageSentences(nlp: BuiltinNlp, text: string): Sentence[] {
  const pieces = nlp.sentences(text);
  const merged: Sentence[] = [];
  let cursor = 0;
  let previousEnd = -1;
  for (const piece of pieces) {
    const at = text.indexOf(piece.text, cursor);
    const last = merged.at(-1);
    if (last && at >= 0 && previousEnd >= 0) {
      const gap = text.slice(previousEnd, at);
      const cut =
        /[.!?…]["'”’»)\]]*$/.test(last.text) && /^\s+$/.test(gap) && /^[\p{Lu}\p{N}"'“‘«([]/u.test(piece.text);
      if (!cut) {
        last.text = `${last.text}${gap}${piece.text}`;
        last.tokens.push(...piece.tokens);
        previousEnd = at + piece.text.length;
        cursor = previousEnd;
        continue;
      }
    }
    merged.push({ text: piece.text, tokens: [...piece.tokens] });
    previousEnd = at >= 0 ? at + piece.text.length : -1;
    if (at >= 0) cursor = previousEnd;
  }
  return merged;
}

/**
 * How much a sentence reads as a statement that can answer something, from 0.25 to 1: one with a verb
 * and a few words of prose is whole; a bare label or link line ("* The full list of Redis commands.
 * https://…"), a table row, a command line, a synopsis or a run of option names ("[--verbose | -v]
 * [--dry-run | -n]") counts for less.
 */
function statementWeight(sentence: Sentence): number {
  const words = sentence.tokens.filter((token) => /\p{L}/u.test(token.text));
  const visible = sentence.text.replace(/\s+/g, '');
  const letters = visible.match(/\p{L}/gu)?.length ?? 0;
  const options = sentence.text.match(/(?:^|\s)[-[|<]/g)?.length ?? 0;
  let weight = 1;
  if (!hasVerb(sentence)) weight *= 0.5;
  if (words.length < MIN_WORDS) weight *= 0.5;
  if (visible.length > 0 && letters / visible.length < MIN_LETTER_SHARE) weight *= 0.5;
  if (options > words.length * MAX_OPTION_SHARE) weight *= 0.5;
  // A command line after its prompt ("% ./redis-server --port 9999") shows how, it does not say what.
  if (/^[%$>]\s/.test(sentence.text)) weight *= 0.5;
  return Math.max(weight, 0.25);
}

interface Candidate {
  text: string;
  marker: string;
  words: WordSet;
  /** The words of the heading right above the sentence, if one is: an option's name above its description. */
  context: WordSet | null;
  /** Whether the sentence says anything beyond the question's own words. */
  adds: boolean;
  /** 1 for the first passage offered, falling towards 0 for the last. */
  order: number;
  weight: number;
}

/**
 * The sentences of the passages that best answer the question, each followed by its passage's citation
 * marker. A sentence ranks by the share of the question's words it contains, each word weighted by how
 * rare it is among the sentences offered (so "git" and "add" count for more than "command"), times how
 * much it reads as a statement (a reference list, a table of contents or a licence block reads as
 * little), nudged by the passages' order (best first); BM25 over the sentences
 * breaks ties. Empty when no sentence shares a word with the question.
 */
export function extractiveAnswer(nlp: BuiltinNlp, question: string, passages: readonly RetrievedPassage[]): string[] {
  const asked = contentWords(nlp.tokens(question));
  const queryWords = [...new Map(asked.map((word) => [word.lemma, word])).values()];
  const askedSet = new WordSet(queryWords);
  // Passages come in reading order (a chunk's sentences one by one), so a heading passage heads the next.
  let heading: WordSet | null = null;
  const candidates: Candidate[] = passages.flatMap((passage, index) =>
    passageSentences(nlp, passage.text).map((sentence) => {
      const words = contentWords(sentence.tokens);
      const candidate = {
        text: sentence.text,
        marker: passage.marker,
        words: new WordSet(words),
        context: heading,
        adds: words.some((word) => askedSet.count(word) === 0),
        order: 1 - index / passages.length,
        weight: Math.min(statementWeight(sentence), passage.boilerplate ? BOILERPLATE_WEIGHT : 1),
      };
      heading = isHeading(sentence) ? candidate.words : null;
      return candidate;
    }),
  );
  if (candidates.length === 0 || queryWords.length === 0) return [];

  const averageLength = candidates.reduce((sum, candidate) => sum + candidate.words.size, 0) / candidates.length || 1;
  const idf = queryWords.map((word) => {
    const df = candidates.filter((candidate) => candidate.words.count(word) > 0).length;
    return Math.log(1 + (candidates.length - df + 0.5) / (df + 0.5));
  });
  const questionWeight = idf.reduce((sum, weight) => sum + weight, 0);
  const bm25 = (candidate: Candidate): number =>
    queryWords.reduce((sum, word, i) => {
      const tf = candidate.words.count(word);
      return sum + idf[i] * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * candidate.words.size) / averageLength)));
    }, 0);
  const found = (candidate: Candidate, word: Word): number =>
    candidate.words.count(word) > 0 ? 1 : (candidate.context?.count(word) ?? 0) > 0 ? CONTEXT_SHARE : 0;
  const coverage = (candidate: Candidate): number =>
    queryWords.reduce((sum, word, i) => sum + found(candidate, word) * idf[i], 0) / questionWeight;

  const ranked = candidates
    .map((candidate) => ({
      candidate,
      score:
        coverage(candidate) *
        candidate.weight *
        (candidate.adds ? 1 : ECHO_WEIGHT) *
        (1 - ORDER_WEIGHT + ORDER_WEIGHT * candidate.order),
      tieBreak: bm25(candidate),
    }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || b.tieBreak - a.tieBreak);
  const best = ranked[0]?.score ?? 0;
  const seen = new Set<string>();
  return ranked
    .filter(({ candidate, score }) => {
      const key = nameKey(candidate.text);
      if (seen.has(key) || score < best * FOLLOWING_SHARE) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_ANSWER_SENTENCES)
    .map(({ candidate }) => `${candidate.text} ${candidate.marker}`);
}

const MAX_TITLE_WORDS = 6;
const MAX_TITLE_CHARS = 60;

/** The opening words of the first message: at most 6 words and 60 characters, no markup, no final punctuation. */
export function titleFrom(message: string): string {
  const words = message
    .slice(0, 500)
    .replace(/[`*_#>"“”[\]]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  let title = '';
  for (const word of words.slice(0, MAX_TITLE_WORDS)) {
    const next = title ? `${title} ${word}` : word;
    if (next.length > MAX_TITLE_CHARS) break;
    title = next;
  }
  if (!title && words.length > 0) title = words[0].slice(0, MAX_TITLE_CHARS);
  title = title.replace(/[\s\p{P}]+$/u, '');
  return title ? title[0].toUpperCase() + title.slice(1) : 'Untitled Chat';
}
