import { describe, expect, it } from 'vitest';
import { chunkText, pageAtOffset, type ChunkingOptions } from '../../src/sources/text/chunk.ts';

const chunking: ChunkingOptions = {
  small_chunk_size: 120,
  small_chunk_overlap: 0,
  min_chunk_size: 20,
  max_chunk_size: 200,
  respect_boundaries: true,
};

describe('chunks over page breaks', () => {
  const pages = [
    'Marie Curie was born in Warsaw.',
    'Henri Becquerel discovered radioactivity.',
    'Pierre Curie shared the prize.',
  ];
  const text = pages.join('\n\n');
  const spans = pages.map((page, index) => {
    const start = text.indexOf(page);
    return { start, end: start + page.length, page: index + 1, section: null };
  });

  it('keeps the first page as the chunk page and records where each later page begins', () => {
    const [chunk] = chunkText('src', text, spans, chunking);
    expect(chunk).toMatchObject({ content: text, page: 1 });
    expect(chunk.pageStarts).toEqual([
      { offset: 0, page: 1 },
      { offset: spans[1].start, page: 2 },
      { offset: spans[2].start, page: 3 },
    ]);
  });

  it('gives a sentence the page it is on', () => {
    const [chunk] = chunkText('src', text, spans, chunking);
    expect(['Marie', 'Henri', 'Pierre'].map((word) => pageAtOffset(chunk, chunk.content.indexOf(word)))).toEqual([
      1, 2, 3,
    ]);
  });

  it('records no page starts for a chunk on one page, or for text without pages', () => {
    expect(
      chunkText('src', pages[0], [{ start: 0, end: pages[0].length, page: 4, section: null }], chunking)[0],
    ).toMatchObject({ page: 4, pageStarts: null });
    expect(chunkText('src', text, [], chunking)[0]).toMatchObject({ page: null, pageStarts: null });
  });
});
