/**
 * Plain BM25 (Robertson; k1 1.2, b 0.75), the baseline the eval compares keyword search with: lower-cased
 * letter-and-digit tokens, no stemming, no stop words, every query term ORed. In memory, over the same
 * text each passage is uploaded with.
 */
import { passageText, type Passage } from './kit.ts';

const k1 = 1.2;
const b = 0.75;

const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export interface Bm25Index {
  /** Passage indices, best first, at most `k`. */
  search(query: string, k: number): number[];
}

export function bm25Index(passages: readonly Passage[]): Bm25Index {
  const postings = new Map<string, Map<number, number>>();
  const lengths = passages.map((passage, index) => {
    const words = tokens(passageText(passage));
    for (const word of words) {
      let list = postings.get(word);
      if (!list) postings.set(word, (list = new Map()));
      list.set(index, (list.get(index) ?? 0) + 1);
    }
    return words.length;
  });
  const average = lengths.reduce((sum, length) => sum + length, 0) / (lengths.length || 1);
  const n = passages.length;
  return {
    search(query, k) {
      const scores = new Map<number, number>();
      for (const word of new Set(tokens(query))) {
        const list = postings.get(word);
        if (!list) continue;
        const idf = Math.log(1 + (n - list.size + 0.5) / (list.size + 0.5));
        for (const [index, frequency] of list) {
          const norm = frequency + k1 * (1 - b + (b * lengths[index]) / average);
          scores.set(index, (scores.get(index) ?? 0) + (idf * frequency * (k1 + 1)) / norm);
        }
      }
      return [...scores]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, k)
        .map(([index]) => index);
    },
  };
}
