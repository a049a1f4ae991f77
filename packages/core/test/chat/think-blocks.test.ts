import { describe, expect, it } from 'vitest';
import { ThinkBlockSplitter, type SplitDelta } from '../../src/chat/think-blocks.ts';

/** Feeds `deltas` through one splitter and joins what went to each side. */
function split(splitter: ThinkBlockSplitter, deltas: string[]): SplitDelta {
  const parts = [...deltas.map((delta) => splitter.feed(delta)), splitter.flush()];
  return { text: parts.map((part) => part.text).join(''), thinking: parts.map((part) => part.thinking).join('') };
}

describe('thinking written into the answer text', () => {
  it('keeps a tag cut across deltas whole and out of both sides', () => {
    expect(split(new ThinkBlockSplitter(), ['<thi', 'nk>About ', 'dates.</th', 'ink>It was 1871.'])).toEqual({
      thinking: 'About dates.',
      text: 'It was 1871.',
    });
  });

  it('parts blocks with a blank line and drops the whitespace between a block and the answer', () => {
    const deltas = ['<think>First.</think>\n', '\n<think>Second.</think>', '\n\n  It was 1871.\n\nSee above.'];
    expect(split(new ThinkBlockSplitter(), deltas)).toEqual({
      thinking: 'First.\n\nSecond.',
      text: 'It was 1871.\n\nSee above.',
    });
  });

  it('starts a later round’s thought on a paragraph of its own, streamed reasoning as well', () => {
    const later = new ThinkBlockSplitter(true);
    expect([later.reasoning('Now '), later.reasoning('the year.')].map((part) => part.thinking).join('')).toBe(
      '\n\nNow the year.',
    );
    expect(split(new ThinkBlockSplitter(true), ['<think>Again.</think>Done.'])).toEqual({
      thinking: '\n\nAgain.',
      text: 'Done.',
    });
  });

  it('leaves an answer without thinking as it came', () => {
    expect(split(new ThinkBlockSplitter(), ['  Indented', ' <b>bold</b> text'])).toEqual({
      thinking: '',
      text: '  Indented <b>bold</b> text',
    });
  });
});
