import { describe, expect, it } from 'vitest';
import { normalizeText, type NormalizeOptions } from '../../src/sources/text/normalize.ts';
import { JoinedText, segmentStarts } from '../../src/sources/text/segments.ts';

// A large text is normalised a segment at a time; wherever it is cut, every local pass must give what it
// gives on the whole text, positions mapped back to the original included.

const options: NormalizeOptions = {
  kind: 'prose',
  enabled: null,
  removeStructuralNoise: false,
  normalizeNewlines: true,
};

/** Pieces that exercise every pass near a cut: breaks, spaces, controls, mojibake, NFC, fences, lists, hyphens. */
const pieces = [
  'word',
  'Sentence ends here.',
  'the',
  'and',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\n',
  '\n\n',
  '\n\n\n',
  ' \n\n',
  '\r\n',
  '\r\n\r\n',
  '\f',
  '\u200b',
  '\u00ad',
  'e\u0301',
  'Ã©',
  'â€™',
  'é',
  '東京',
  '```',
  '~~~',
  '# Heading',
  '- item',
  '1. step',
  'hyphen-',
  'ated',
  'Zoë',
  'x',
  'Y',
];

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function textOf(seed: number, length: number): string {
  const next = random(seed);
  let text = '';
  while (text.length < length) text += pieces[Math.floor(next() * pieces.length)];
  return text;
}

function segmented(text: string, size: number) {
  const starts = segmentStarts(text, size);
  let fenced = false;
  return starts.map((from, index) => {
    const to = starts[index + 1] ?? text.length;
    const normalized = normalizeText(text.slice(from, to), {
      ...options,
      continues: index + 1 < starts.length,
      fenced,
    });
    fenced = normalized.fenced;
    return { from, normalized };
  });
}

describe('normalising a text a segment at a time', () => {
  it("gives the whole text's normalisation and offsets, wherever the text is cut", () => {
    let cuts = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = textOf(seed, 600);
      const whole = normalizeText(text, options);
      const segments = segmented(text, 40 + (seed % 7) * 13);
      cuts += segments.length - 1;
      expect(segments.map((segment) => segment.normalized.text).join(''), `seed ${seed}`).toBe(whole.text);
      let start = 0;
      for (const { from, normalized } of segments) {
        for (let at = 0; at < normalized.text.length; at++) {
          expect(normalized.offsetMap.toOriginal(at) + from, `seed ${seed} at ${start + at}`).toBe(
            whole.offsetMap.toOriginal(start + at),
          );
          expect(normalized.offsetMap.toOriginal(at + 1, 'end') + from, `seed ${seed} end ${start + at + 1}`).toBe(
            whole.offsetMap.toOriginal(start + at + 1, 'end'),
          );
        }
        start += normalized.text.length;
      }
    }
    // The texts are cut often enough for the comparison to mean something.
    expect(cuts).toBeGreaterThan(600);
  });

  it('cuts only after a paragraph break, before a letter or a printable character', () => {
    const text = 'Intro text.\n\n```\ncode\n\n\tmore code\n```\n\nAfter the fence.\n\n \n\nLast.';
    const starts = segmentStarts(text, 5);
    expect(starts.map((at) => text.slice(at, at + 5))).toEqual(['Intro', '```\nc', 'After', 'Last.']);
    expect(segmentStarts(text, text.length)).toEqual([0]);
    expect(segmentStarts('no breaks at all '.repeat(20), 10)).toEqual([0]);
  });

  it('reads consecutive segments as one text', () => {
    const parts = ['alpha ', '', 'beta gamma ', 'delta'];
    const joined = new JoinedText(parts);
    const text = parts.join('');
    expect(joined.length).toBe(text.length);
    for (let start = 0; start <= text.length + 2; start++)
      for (let end = start; end <= text.length + 2; end++)
        expect(joined.slice(start, end)).toBe(text.slice(start, end));
  });
});
