import { sentenceSpans } from '../../sources/index.ts';
import type { Evidence, GroupChunk, GroupSentence } from '../types.ts';

/**
 * Splits a group's chunks into the numbered sentences the prompts show (`S1`, `S2`, … across the
 * whole group; the sentence rules are the sources feature's `sentenceSpans`) and maps sentence numbers
 * back to evidence.
 */

/** The group's sentences, numbered from 1 across its chunks in order; empty chunks give none. */
export function splitSentences(chunks: readonly GroupChunk[]): GroupSentence[] {
  const sentences: GroupSentence[] = [];
  for (const chunk of chunks) {
    for (const [start, end] of sentenceSpans(chunk.content)) {
      sentences.push({
        number: sentences.length + 1,
        text: chunk.content.slice(start, end),
        chunkId: chunk.id,
        chunkIndex: chunk.index,
        start,
        end,
      });
    }
  }
  return sentences;
}

/** A sentence on one line, as the prompt shows it. */
export function promptText(sentence: GroupSentence): string {
  return sentence.text.replace(/\s+/g, ' ');
}

/** The sentence numbers among `refs` that exist in the group, sorted and unique. */
export function validRefs(sentences: readonly GroupSentence[], refs: readonly number[]): number[] {
  return [...new Set(refs)]
    .filter((ref) => Number.isInteger(ref) && ref >= 1 && ref <= sentences.length)
    .sort((a, b) => a - b);
}

/** One evidence item per existing sentence number; numbers outside the group are skipped. */
export function evidenceFor(sentences: readonly GroupSentence[], refs: readonly number[]): Evidence[] {
  return validRefs(sentences, refs).map((ref) => {
    const { chunkId, chunkIndex, text, start, end } = sentences[ref - 1];
    return { chunkId, chunkIndex, sentence: text, start, end };
  });
}
