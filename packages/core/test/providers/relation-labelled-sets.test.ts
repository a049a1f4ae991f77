import { describe, expect, it } from 'vitest';
import { isJunkName, labelledSetNames, loadLabelledSet } from '../fixtures/extraction/score.ts';

/** The labelled sets the extraction eval scores: well-formed, split, and of more than one kind of text. */

describe('labelled extraction sets', () => {
  it('finds every set file, the encyclopaedic one first', () => {
    const names = labelledSetNames();
    expect(names[0]).toBe('labelled-passages');
    expect(names.every((name) => name.endsWith('-passages'))).toBe(true);
  });

  it('holds at least 60 passages of three kinds of text, about a third held back', () => {
    const { passages } = loadLabelledSet();
    expect(passages.length).toBeGreaterThanOrEqual(60);
    expect(new Set(passages.map((passage) => passage.kind))).toEqual(new Set(['encyclopaedic', 'news', 'technical']));
    const heldBack = passages.filter((passage) => passage.split === 'held-back').length / passages.length;
    expect(heldBack).toBeGreaterThanOrEqual(0.25);
    expect(heldBack).toBeLessThanOrEqual(0.4);
  });

  it('loads every set: known kinds only, relation ends among the labels', () => {
    for (const name of labelledSetNames()) expect(() => loadLabelledSet(name)).not.toThrow();
  });

  it('counts as junk what cannot be a name: a character, a lone function word, a sentence', () => {
    expect(['C', 'Use', 'the', 'See', 'x'.repeat(61)].map(isJunkName)).toEqual([true, true, true, true, true]);
    expect(['Redis', 'Guido van Rossum', 'ssh', 'C++'].map(isJunkName)).toEqual([false, false, false, false]);
  });
});
