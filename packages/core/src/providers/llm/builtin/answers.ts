import type { RetrievedPassage } from '../port.ts';
import { nameKey, type BuiltinNlp, type Token } from './nlp.ts';

/** Chat answers and titles without a model: quoting, never writing. */

export const NOTHING_RELEVANT =
  'The knowledge base has nothing relevant to this question. The builtin provider has no language model: it answers only by quoting matching sentences from your sources, with their citations.';

const MAX_ANSWER_SENTENCES = 3;
// BM25's usual constants; sentences are short, so length normalisation matters less than for pages.
const K1 = 1.2;
const B = 0.75;

function terms(tokens: readonly Token[]): string[] {
  return tokens
    .filter((token) => !token.stopWord && token.pos !== 'PUNCT' && /[\p{L}\p{N}]/u.test(token.text))
    .map((token) => token.lemma);
}

interface Candidate {
  text: string;
  marker: string;
  terms: string[];
}

/**
 * The sentences of the passages that best answer the question, BM25-ranked over sentences (lemmas,
 * stop words removed), each followed by its passage's citation marker. Empty when none shares a term.
 */
export function extractiveAnswer(nlp: BuiltinNlp, question: string, passages: readonly RetrievedPassage[]): string[] {
  const candidates: Candidate[] = passages.flatMap((passage) =>
    nlp
      .sentences(passage.text)
      .map((sentence) => ({ text: sentence.text, marker: passage.marker, terms: terms(sentence.tokens) })),
  );
  const queryTerms = [...new Set(terms(nlp.tokens(question)))];
  if (candidates.length === 0 || queryTerms.length === 0) return [];

  const averageLength = candidates.reduce((sum, candidate) => sum + candidate.terms.length, 0) / candidates.length || 1;
  const idf = new Map(
    queryTerms.map((term) => {
      const df = candidates.filter((candidate) => candidate.terms.includes(term)).length;
      return [term, Math.log(1 + (candidates.length - df + 0.5) / (df + 0.5))];
    }),
  );
  const score = (candidate: Candidate): number =>
    queryTerms.reduce((sum, term) => {
      const tf = candidate.terms.filter((t) => t === term).length;
      return (
        sum +
        (idf.get(term) ?? 0) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * candidate.terms.length) / averageLength)))
      );
    }, 0);

  const seen = new Set<string>();
  return candidates
    .map((candidate) => ({ candidate, score: score(candidate) }))
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score)
    .filter(({ candidate }) => {
      const key = nameKey(candidate.text);
      if (seen.has(key)) return false;
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
