import { describe, expect, it } from 'vitest';
import { evidenceFor, splitSentences } from '../../src/extraction/harvest/sentences.ts';
import { MAX_SENTENCE_CHARS } from '../../src/sources/text/sentences.ts';
import type { GroupChunk } from '../../src/extraction/types.ts';

function chunk(content: string, index = 0): GroupChunk {
  return { id: `chunk-${index}`, index, content, pageNumber: null, section: null };
}

function texts(content: string): string[] {
  return splitSentences([chunk(content)]).map((sentence) => sentence.text);
}

describe('harvest: sentence splitting', () => {
  it('splits at sentence punctuation followed by a capital, a digit or an opening quote', () => {
    expect(
      texts(
        'Marie Curie was born in Warsaw. She married Pierre Curie in 1895! Was it love? "Yes," she said. 1903 came.',
      ),
    ).toEqual([
      'Marie Curie was born in Warsaw.',
      'She married Pierre Curie in 1895!',
      'Was it love?',
      '"Yes," she said.',
      '1903 came.',
    ]);
  });

  it('keeps titles, Latin abbreviations, initials and decimals inside the sentence', () => {
    expect(
      texts(
        'Dr. Smith met J. R. R. Tolkien in Oxford, e.g. at the Eagle and Child. The pint cost 3.5 shillings, i.e. a lot. Mrs. Brown agreed.',
      ),
    ).toEqual([
      'Dr. Smith met J. R. R. Tolkien in Oxford, e.g. at the Eagle and Child.',
      'The pint cost 3.5 shillings, i.e. a lot.',
      'Mrs. Brown agreed.',
    ]);
    expect(
      texts(
        'John F. Kennedy spoke. See Fig. 3 and pp. 10-12 for details. It was c. 1950 in St. Louis. Roe v. Wade followed.',
      ),
    ).toEqual([
      'John F. Kennedy spoke.',
      'See Fig. 3 and pp. 10-12 for details.',
      'It was c. 1950 in St. Louis.',
      'Roe v. Wade followed.',
    ]);
  });

  it('ends a sentence after an abbreviation only when a usual sentence opener follows', () => {
    expect(
      texts(
        'The U.S. Army arrived at 5 p.m. The war was over. Acme Inc. Chief Officer Jane Roe spoke, etc. Then everyone left.',
      ),
    ).toEqual([
      'The U.S. Army arrived at 5 p.m.',
      'The war was over.',
      'Acme Inc. Chief Officer Jane Roe spoke, etc.',
      'Then everyone left.',
    ]);
  });

  it('does not split an ellipsis or a period before a lower-case word', () => {
    expect(texts('They left... and later returned. It works, e.g. here.')).toEqual([
      'They left... and later returned.',
      'It works, e.g. here.',
    ]);
  });

  it('splits at blank lines and list items, not at wrapped lines', () => {
    expect(
      texts(
        'Title line without a stop\n\nMarie Curie was born\nin Warsaw.\n- first item\n- second item\nAfter the list.',
      ),
    ).toEqual([
      'Title line without a stop',
      'Marie Curie was born\nin Warsaw.',
      '- first item',
      '- second item',
      'After the list.',
    ]);
  });

  it('ends a heading on a line of its own, and never a line wrapped inside a paragraph', () => {
    expect(
      texts(
        'Marie Curie\n\nEarly life\nMarie Curie was born in Warsaw in 1867.\n\n## Legacy\nShe is remembered in Paris.\nReturn\nPierre Curie returned in 1895.',
      ),
    ).toEqual([
      'Marie Curie',
      'Early life',
      'Marie Curie was born in Warsaw in 1867.',
      '## Legacy',
      'She is remembered in Paris.',
      'Return',
      'Pierre Curie returned in 1895.',
    ]);
    // A short wrapped line after another wrapped line, or one followed by lower-case text, is no heading.
    expect(
      texts(
        'The laboratory on the rue Cuvier where she worked for\nmany years\nWas later named after her.\nShort line\nfollowed by lower case.',
      ),
    ).toEqual([
      'The laboratory on the rue Cuvier where she worked for\nmany years\nWas later named after her.',
      'Short line\nfollowed by lower case.',
    ]);
  });

  it('cuts long unpunctuated text near 400 characters at a comma or space', () => {
    const run = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const sentences = splitSentences([chunk(run)]);
    expect(sentences.length).toBeGreaterThan(1);
    for (const sentence of sentences) expect(sentence.text.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    expect(sentences.map((sentence) => sentence.text).join(' ')).toBe(run);
    const withCommas = Array.from({ length: 60 }, (_, i) => `item number ${i}`).join(', ');
    for (const sentence of splitSentences([chunk(withCommas)]))
      expect(sentence.text).toMatch(/^item number \d+.*\d,?$/);
  });

  it('numbers sentences across chunks, skips empty chunks and symbol-only pieces, and maps offsets back exactly', () => {
    const chunks = [
      chunk('  Marie Curie was born in Warsaw.  She studied in Paris.\n', 3),
      chunk('   \n\n ', 4),
      chunk('--- \n\nPierre Curie met her in 1894. They married in 1895.', 5),
    ];
    const sentences = splitSentences(chunks);
    expect(sentences.map((sentence) => [sentence.number, sentence.chunkIndex, sentence.text])).toEqual([
      [1, 3, 'Marie Curie was born in Warsaw.'],
      [2, 3, 'She studied in Paris.'],
      [3, 5, 'Pierre Curie met her in 1894.'],
      [4, 5, 'They married in 1895.'],
    ]);
    for (const sentence of sentences) {
      const source = chunks.find((item) => item.id === sentence.chunkId)!;
      expect(source.content.slice(sentence.start, sentence.end)).toBe(sentence.text);
    }
  });

  it('keeps offsets exact on tricky text', () => {
    const content = 'Dr. A. B. Smith (b. 1901) wrote “Hello.” Then… “Why?” he asked!\n\n\tProf. Jones\u00a0agreed.  ';
    const sentences = splitSentences([chunk(content)]);
    expect(sentences.length).toBeGreaterThan(1);
    for (const sentence of sentences) expect(content.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });

  it('maps sentence numbers to evidence, skipping numbers outside the group', () => {
    const sentences = splitSentences([
      chunk('Marie Curie was born in Warsaw. She moved to Paris.'),
      chunk('She married Pierre Curie.', 1),
    ]);
    expect(evidenceFor(sentences, [3, 1, 9, 3, 0])).toEqual([
      { chunkId: 'chunk-0', chunkIndex: 0, sentence: 'Marie Curie was born in Warsaw.', start: 0, end: 31 },
      { chunkId: 'chunk-1', chunkIndex: 1, sentence: 'She married Pierre Curie.', start: 0, end: 25 },
    ]);
  });
});
