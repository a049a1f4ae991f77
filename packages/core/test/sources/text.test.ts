import { describe, expect, it } from 'vitest';
import type { TextSpan } from '../../src/sources/loaders/port.ts';
import { normalizeText, type NormalizeOptions } from '../../src/sources/text/normalize.ts';
import { chunkText, type Chunk } from '../../src/sources/text/chunk.ts';
import { chunkGroups } from '../../src/sources/text/chunk-groups.ts';
import { locateInOriginal } from '../../src/sources/text/citation-offsets.ts';
import { proseChunking, wikiText } from '../fixtures/wiki-corpus.ts';

const prose: NormalizeOptions = { kind: 'prose', enabled: null, removeStructuralNoise: true, normalizeNewlines: true };
const normalize = (text: string, options: Partial<NormalizeOptions> = {}) =>
  normalizeText(text, { ...prose, ...options });

const sentence = (i: number) =>
  `Sentence number ${i} talks about the river, the mill and the old bridge near the village. `;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => sentence(from + k))
    .join('')
    .trim();

describe('normalizeText', () => {
  it('repairs UTF-8 read as Windows-1252 and leaves real accents and quotes alone', () => {
    const { text } = normalize(
      'Itâ€™s a cafÃ© with â€œquotesâ€\u009d, Ã¼ber and Ð¿Ñ€Ð¸Ð²ÐµÑ‚ â€” fine.\n\nGruß“ und „Straße“ bleiben.',
    );
    expect(text).toBe('It’s a café with “quotes”, über and привет — fine.\n\nGruß“ und „Straße“ bleiben.');
  });

  it('strips the BOM and control characters, unifies newlines, composes NFC and cleans spaces', () => {
    const { text } = normalize(
      '\uFEFFHello\u0000 there.\r\nCafe\u0301   is   open.\u00a0 \r\n\r\n\r\n\r\nNext\u200b paragraph.\t\n',
    );
    expect(text).toBe('Hello there.\nCafé is open.\n\nNext paragraph.');
  });

  it('undoes line-end hyphenation and joins hard-wrapped lines, keeping paragraphs, lists and headings', () => {
    const original = [
      'The infor-',
      'mation was wrapped across',
      'several lines, and',
      'This line carries on.',
      '',
      '# A heading',
      'Intro text:',
      '- first item',
      '- second item',
    ].join('\n');
    expect(normalize(original).text).toBe(
      'The information was wrapped across several lines, and This line carries on.\n\n# A heading\nIntro text:\n- first item\n- second item',
    );
    expect(normalize(original, { normalizeNewlines: false }).text).toBe(original);
  });

  it('removes page-number lines but keeps a column of numbers', () => {
    const { text } = normalize(
      'First page text.\n\n12\n\nSecond page text.\n\n- 13 -\n\nPage 14 of 20\n\nTotals:\n4\n5\n6',
    );
    expect(text).toBe('First page text.\n\nSecond page text.\n\nTotals:\n4\n5\n6');
  });

  it('removes running headers and footers found at the edges of many pages and remaps the page spans', () => {
    const pages = [1, 2, 3, 4, 5].map(
      (n) => `ACME Corp Annual Report 2023\n${paragraph(n * 10, 3)}\nConfidential - page ${n}`,
    );
    const original = pages.join('\n\n');
    const spans: TextSpan[] = [];
    let at = 0;
    pages.forEach((page, i) => {
      spans.push({ start: at, end: at + page.length, page: i + 1, section: null });
      at += page.length + 2;
    });
    const result = normalize(original, { spans });
    expect(result.text).not.toContain('ACME Corp');
    expect(result.text).not.toContain('Confidential');
    expect(result.spans).toHaveLength(5);
    result.spans.forEach((span, i) => {
      expect(result.text.slice(span.start, span.end).trim()).toBe(paragraph((i + 1) * 10, 3));
      expect(span.page).toBe(i + 1);
    });
  });

  it('removes a header repeated about a page apart even without page spans, but not a repeated speaker label', () => {
    const withHeaders = [1, 2, 3, 4, 5, 6]
      .map((n) => `The Journal of Examples\n\n${paragraph(n * 20, 14)}`)
      .join('\n\n');
    expect(normalize(withHeaders).text).not.toContain('The Journal of Examples');
    const play = [1, 2, 3, 4, 5, 6].map((n) => `HAMLET\n\n${sentence(n)}`).join('\n\n');
    expect(normalize(play).text.match(/HAMLET/g)).toHaveLength(6);
  });

  it('drops dot-leader contents blocks and keeps chapter markers as paragraph breaks', () => {
    const original =
      'Contents\nIntroduction ........ 1\nMethods ......... 5\nResults ...... 9\n\nCHAPTER I\nIt began on a cold morning.';
    expect(normalize(original).text).toBe('CHAPTER I\n\nIt began on a cold morning.');
    expect(normalize(original, { removeStructuralNoise: false }).text).toContain('Methods ......... 5');
  });

  it('leaves structured text untouched in auto mode and normalises it when asked', () => {
    const csv = 'name,city  \r\nAda,London\r\n\r\n\r\nBob,Paris\r\n';
    const auto = normalizeText(csv, { ...prose, kind: 'structured' });
    expect(auto.text).toBe(csv);
    expect(auto.offsetMap.toOriginal(7)).toBe(7);
    expect(normalizeText(csv, { ...prose, kind: 'structured', enabled: true }).text).toBe(
      'name,city\nAda,London\n\nBob,Paris',
    );
    expect(normalize('  Some   prose. ', { enabled: false }).text).toBe('  Some   prose. ');
  });

  it('maps every word of the normalised text back to the same word in the original', () => {
    const original =
      '\uFEFF  Field notes\r\n\r\nThe  quick\tbrown fox,\r\njumps over   the lazy dog.\r\n\r\n\r\n7\r\n\r\nAnother  cafÃ©  paragraph\u00a0here.\r\n';
    const { text, offsetMap } = normalize(original);
    expect(text).toBe('Field notes\n\nThe quick brown fox, jumps over the lazy dog.\n\nAnother café paragraph here.');
    for (const word of text.matchAll(/\p{L}{3,}/gu)) {
      const start = offsetMap.toOriginal(word.index);
      const end = offsetMap.toOriginal(word.index + word[0].length, 'end');
      expect(original.slice(start, end).replace('Ã©', 'é')).toBe(word[0]);
      expect(offsetMap.toNormalized(start)).toBe(word.index);
    }
  });
});

function expectWellFormed(text: string, chunks: readonly Chunk[], options = proseChunking) {
  expect(chunks.length).toBeGreaterThan(0);
  chunks.forEach((chunk, i) => {
    expect(chunk.index).toBe(i);
    expect(chunk.content.trim()).toBe(chunk.content);
    expect(chunk.content.length).toBeGreaterThan(0);
    expect(chunk.content.length).toBeLessThanOrEqual(options.max_chunk_size);
    expect(text.slice(chunk.start, chunk.end)).toBe(chunk.content);
    expect(chunk.tokenEstimate).toBe(Math.ceil(chunk.content.length / 4));
    expect(chunk.id).toMatch(/^chk_[0-9a-f]{24}$/);
    if (i > 0) expect(chunk.start).toBeGreaterThan(chunks[i - 1].start);
  });
}

describe('chunkText', () => {
  const chunks = chunkText('src_wiki', wikiText, [], proseChunking);

  it('keeps chunks of a long real text within bounds, aiming at the small chunk size', () => {
    expectWellFormed(wikiText, chunks);
    const lengths = chunks.map((chunk) => chunk.content.length);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(proseChunking.min_chunk_size);
    expect(lengths.reduce((a, b) => a + b) / lengths.length).toBeGreaterThan(proseChunking.small_chunk_size * 0.75);
    expect(chunks.at(-1)!.end).toBe(wikiText.trimEnd().length);
  });

  it('overlaps consecutive chunks by at most the overlap, starting on a word boundary', () => {
    let overlapping = 0;
    for (let i = 1; i < chunks.length; i++) {
      const overlap = chunks[i - 1].end - chunks[i].start;
      if (overlap <= 0) continue;
      overlapping++;
      expect(overlap).toBeLessThanOrEqual(proseChunking.small_chunk_overlap);
      expect(wikiText[chunks[i].start - 1]).toMatch(/\s/);
    }
    expect(overlapping / (chunks.length - 1)).toBeGreaterThan(0.95);
  });

  it('covers the whole text: no gap between consecutive chunks holds anything but whitespace', () => {
    for (let i = 1; i < chunks.length; i++) {
      if (chunks[i].start > chunks[i - 1].end)
        expect(wikiText.slice(chunks[i - 1].end, chunks[i].start).trim()).toBe('');
    }
  });

  it('merges a tiny tail into the chunk before it and never drops text', () => {
    const text = `${paragraph(0, 10)} Tail bit.`;
    const result = chunkText('src', text, [], proseChunking);
    expectWellFormed(text, result);
    expect(result.at(-1)!.content.endsWith('Tail bit.')).toBe(true);
    expect(result.every((chunk) => chunk.content.length >= proseChunking.min_chunk_size)).toBe(true);
  });

  it('yields one chunk for a short text and none for whitespace', () => {
    expect(chunkText('src', '  Tiny.  ', [], proseChunking)).toMatchObject([{ content: 'Tiny.', start: 2, end: 7 }]);
    expect(chunkText('src', ' \n\n\t ', [], proseChunking)).toEqual([]);
    expect(chunkText('src', '', [], proseChunking)).toEqual([]);
  });

  it('splits inside a word only when the word alone is longer than the maximum', () => {
    const word = 'x'.repeat(1050);
    const text = `${paragraph(0, 3)} ${word} ${'y'.repeat(2500)} end.`;
    const result = chunkText('src', text, [], proseChunking);
    expectWellFormed(text, result);
    expect(result.some((chunk) => chunk.content === word)).toBe(true);
    const words = chunkText('src', paragraph(0, 40), [], { ...proseChunking, respect_boundaries: false });
    expectWellFormed(paragraph(0, 40), words);
    for (const chunk of words) expect(chunk.content).toMatch(/^Sentence|^\S+\s/);
  });

  it('gives stable ids: the same content keeps its ids, another source gets different ones', () => {
    const again = chunkText('src_wiki', wikiText, [], proseChunking);
    expect(again.map((chunk) => chunk.id)).toEqual(chunks.map((chunk) => chunk.id));
    const other = chunkText('src_other', wikiText, [], proseChunking);
    expect(other.map((chunk) => chunk.content)).toEqual(chunks.map((chunk) => chunk.content));
    expect(other.some((chunk, i) => chunk.id === chunks[i].id)).toBe(false);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(chunks.length);
  });

  it('takes page and section from the span holding the chunk start', () => {
    const parts = [paragraph(0, 12), paragraph(100, 12), paragraph(200, 12)];
    const text = parts.join('\n\n');
    const spans: TextSpan[] = [];
    let at = 0;
    parts.forEach((part, i) => {
      spans.push({ start: at, end: at + part.length, page: i + 1, section: `Part ${i + 1}` });
      at += part.length + 2;
    });
    const result = chunkText('src', text, [...spans].reverse(), proseChunking);
    expectWellFormed(text, result);
    for (const chunk of result) {
      const span = spans.find((s) => s.start <= chunk.start && chunk.start < s.end)!;
      expect(chunk.page).toBe(span.page);
      expect(chunk.section).toBe(span.section);
    }
    expect(new Set(result.map((chunk) => chunk.page))).toEqual(new Set([1, 2, 3]));
    expect(chunkText('src', text, [], proseChunking)[0]).toMatchObject({ page: null, section: null });
  });

  it('chunks a 10 MB text (performance smoke check, not timed)', () => {
    const big = wikiText.repeat(Math.ceil(10_000_000 / wikiText.length)).slice(0, 10_000_000);
    const result = chunkText('src_big', big, [], proseChunking);
    expect(result.length).toBeGreaterThan(10_000);
    expect(result.every((chunk) => chunk.content.length <= proseChunking.max_chunk_size)).toBe(true);
  });
});

describe('chunkGroups', () => {
  it('builds sliding windows of chunks with the configured overlap', () => {
    const ranges = (count: number, size: number, overlap: number) =>
      chunkGroups(count, size, overlap).map((g) => [g.groupIndex, g.firstChunkIndex, g.lastChunkIndex]);
    expect(ranges(10, 4, 1)).toEqual([
      [0, 0, 3],
      [1, 3, 6],
      [2, 6, 9],
    ]);
    expect(ranges(11, 4, 1)).toEqual([
      [0, 0, 3],
      [1, 3, 6],
      [2, 6, 9],
      [3, 9, 10],
    ]);
    expect(ranges(3, 4, 1)).toEqual([[0, 0, 2]]);
    expect(ranges(0, 4, 1)).toEqual([]);
    expect(ranges(3, 2, 5)).toEqual([
      [0, 0, 1],
      [1, 1, 2],
    ]);
  });
});

describe('locateInOriginal', () => {
  const original = wikiText.slice(0, 60_000);
  const passage = original.slice(20_000, 20_800).trim();
  const at = original.indexOf(passage);

  it('finds an exact match, preferring the hinted region', () => {
    expect(locateInOriginal(passage, original)).toEqual({
      start: at,
      end: at + passage.length,
      match: 'exact',
      stage: 'exact',
    });
    expect(locateInOriginal(passage, original, at + 40)).toMatchObject({ start: at, match: 'exact' });
  });

  it('finds text whose whitespace changed', () => {
    const spaced =
      original.slice(0, at) +
      passage.replace(/ /g, (space, offset: number) => (offset % 7 === 0 ? '\n' : offset % 5 === 0 ? '   ' : space)) +
      original.slice(at + passage.length);
    const found = locateInOriginal(passage, spaced, at);
    expect(found).toMatchObject({ start: at, match: 'fuzzy', stage: 'whitespace' });
    expect(spaced.slice(found.start!, found.end!).replace(/\s+/g, ' ')).toBe(passage.replace(/\s+/g, ' '));
  });

  it('falls back to the first and last 32 characters when the middle changed', () => {
    const middle = Math.floor(passage.length / 2);
    const edited = passage.slice(0, middle) + 'XYZ' + passage.slice(middle + 10);
    expect(locateInOriginal(edited, original, at)).toEqual({
      start: at,
      end: at + passage.length,
      match: 'fuzzy',
      stage: 'anchors',
    });
  });

  it('aligns text with a few edits everywhere, with or without a hint', () => {
    const edited = passage
      .split('')
      .map((c, i) => (i % 40 === 3 ? '#' : c))
      .join('');
    for (const hint of [at, undefined]) {
      const found = locateInOriginal(edited, original, hint);
      expect(found.match).toBe('fuzzy');
      expect(found.stage).toBe('alignment');
      expect(Math.abs(found.start! - at)).toBeLessThanOrEqual(3);
      expect(Math.abs(found.end! - (at + passage.length))).toBeLessThanOrEqual(3);
    }
  });

  it('reports none for text that is not there', () => {
    const unrelated =
      'Quantum chromodynamics describes the strong interaction between quarks and gluons in hadrons. '.repeat(3);
    expect(locateInOriginal(unrelated, original, 1000)).toEqual({ start: null, end: null, match: 'none', stage: null });
    expect(locateInOriginal('   ', original)).toMatchObject({ match: 'none' });
  });

  it('places every chunk of a normalised document in the original text', () => {
    const messy = wikiText.slice(0, 40_000).replace(/\. /g, '.  ').replace(/, /g, ',\r\n').replace(/é/g, 'Ã©');
    const { text, offsetMap } = normalize(messy);
    const stages = new Set<string | null>();
    for (const chunk of chunkText('src', text, [], proseChunking)) {
      const found = locateInOriginal(chunk.content, messy, offsetMap.toOriginal(chunk.start));
      stages.add(found.stage);
      expect(found.start).toBe(offsetMap.toOriginal(chunk.start));
      expect(Math.abs(found.end! - offsetMap.toOriginal(chunk.end, 'end'))).toBeLessThanOrEqual(
        found.stage === 'alignment' ? 2 : 0,
      );
    }
    expect(stages).toEqual(new Set(['whitespace', 'anchors', 'alignment']));
  });
});
