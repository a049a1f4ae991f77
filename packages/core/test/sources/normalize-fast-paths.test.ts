import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/sources/text/chunk.ts';
import { isWhiteSpace, Lines } from '../../src/sources/text/lines.ts';
import { normalizeText, type NormalizeOptions } from '../../src/sources/text/normalize.ts';
import { originalLocator } from '../../src/sources/text/original-locator.ts';

const prose: NormalizeOptions = { kind: 'prose', enabled: null, removeStructuralNoise: true, normalizeNewlines: true };
const normalize = (text: string) => normalizeText(text, prose).text;

const sentence = (i: number) => `Sentence ${i} tells of the river, the mill and the old bridge near the village. `;
const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, i) => `Heading ${i}\n\n${sentence(i)}${sentence(i + 1)}`.trim()).join('\n\n');

describe('the white space the line passes trim', () => {
  it('is exactly what \\s matches', () => {
    const mismatches: number[] = [];
    for (let code = 0; code <= 0xffff; code++)
      if (isWhiteSpace(code) !== /\s/.test(String.fromCharCode(code))) mismatches.push(code);
    expect(mismatches).toEqual([]);
  });

  it('is trimmed from lines as String.prototype.trim does', () => {
    const text = ' \t a b \u00a0\n\n\u3000\u2009x\ufeff\n  \nlast';
    const lines = new Lines(text);
    expect(Array.from({ length: lines.count }, (_, i) => lines.trimmed(i))).toEqual(
      text.split('\n').map((line) => line.trim()),
    );
    expect(Array.from({ length: lines.count }, (_, i) => lines.isBlank(i))).toEqual([false, true, false, true, false]);
  });
});

describe('the offset map cursor', () => {
  const original = `\uFEFF  Title\r\n\r\n${paragraphs(30).replace(/ the /g, '  the\u00a0').replace(/\n/g, '\r\n')}\r\n\r\n\r\n7\r\n`;
  const { text, offsetMap } = normalizeText(original, prose);

  it('answers as toOriginal does, for positions going forward and, less often, back', () => {
    for (const bias of ['start', 'end'] as const) {
      const cursor = offsetMap.originalCursor(bias);
      const positions = [-3, ...Array.from({ length: text.length + 4 }, (_, i) => i), 40, 7, text.length + 9, 0];
      for (const position of positions)
        expect([position, cursor(position)]).toEqual([position, offsetMap.toOriginal(position, bias)]);
    }
  });

  it('locates every chunk in the original text where the offset map says it is', () => {
    const chunks = chunkText('src', text, [], {
      small_chunk_size: 200,
      small_chunk_overlap: 40,
      min_chunk_size: 20,
      max_chunk_size: 260,
      respect_boundaries: true,
    });
    expect(chunks.length).toBeGreaterThan(10);
    const locate = originalLocator(original, offsetMap);
    for (const chunk of chunks) {
      const start = offsetMap.toOriginal(chunk.start);
      const end = offsetMap.toOriginal(chunk.end, 'end');
      const match = original.slice(start, end) === chunk.content ? 'exact' : 'fuzzy';
      expect(locate(chunk)).toEqual({ start, end, match });
    }
  });
});

describe('the passes that skip a text with nothing for them', () => {
  it('leave a clean text as it is and still clean one that needs it', () => {
    const clean = paragraphs(5);
    expect(normalize(clean)).toBe(clean);
    expect(normalize(clean.replace(/\n/g, '\r\n').replace('Heading 2', 'Head\u200bing 2\f'))).toBe(clean);
  });

  it('trim the ends and collapse runs of blank lines only where there are some', () => {
    expect(normalize('a\n\nb')).toBe('a\n\nb');
    expect(normalize('\n \n a\n\n\n\nb\n\n\nc \n\n\n')).toBe('a\n\nb\n\nc');
    expect(normalize(' \n\n\t')).toBe('');
  });
});

describe('the line patterns tried only on lines that could match', () => {
  it('removes page numbers ending in a digit, a roman numeral or a dash, and keeps look-alikes', () => {
    const page = (n: number) => `${sentence(n)}${sentence(n + 1)}`.trim();
    const text = [page(1), 'xii', page(2), '— 12 —', page(3), 'Page 4 of 9', page(4), 'Paul', page(5), '12a'].join(
      '\n\n',
    );
    expect(normalize(text)).toBe([page(1), page(2), page(3), page(4), 'Paul', page(5), '12a'].join('\n\n'));
  });

  it('drops contents blocks with every kind of leader but not lines that only look like them', () => {
    const contents =
      'Table of Contents\nOne ... 1\nTwo . . . . 5\nThree …… 9\nFour ··· 12\nFive ___ xiv\n\nThe end... of the story';
    expect(normalize(contents)).toBe('The end... of the story');
    expect(normalize('One ... 1 more\nTwo ... and so on')).toBe('One ... 1 more\nTwo ... and so on');
  });

  it('sets indented chapter markers apart and leaves words that merely begin like one', () => {
    expect(normalize('Some text here.\n  Chapter 3 The Return\nIt was late.')).toBe(
      'Some text here.\n\n  Chapter 3 The Return\n\nIt was late.',
    );
    expect(normalize('Some text here.\nPartly cloudy skies.')).toBe('Some text here.\nPartly cloudy skies.');
  });

  it('joins wrapped lines by their last characters only, across astral letters too', () => {
    expect(normalize('A long line that stops on the word of\nNext line')).toBe(
      'A long line that stops on the word of Next line',
    );
    expect(normalize('Here is the proof\nNext line')).toBe('Here is the proof\nNext line');
    expect(normalize('The letter 𝐀-\nlike forms')).toBe('The letter 𝐀like forms');
    expect(normalize('A list:\n- item\n1. step\n# Heading')).toBe('A list:\n- item\n1. step\n# Heading');
  });
});
