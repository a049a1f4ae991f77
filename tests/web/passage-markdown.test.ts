import { describe, expect, it } from 'vitest';
import { plainPassage, readPassage } from '../../packages/web/src/lib/passage-markdown.ts';

describe('passages read as text, not Markdown', () => {
  it('turns headings, emphasis, lists, links and code into blocks of styled text', () => {
    const passage = readPassage(
      '# Tide mills\n\nThe **Woodbridge** mill turned _slowly_.\n\n- first\n2. second\n\nSee [the trust](https://example.org) and `flour`.',
    );
    expect(passage.blocks.map((block) => [block.kind, block.level ?? block.number ?? null])).toEqual([
      ['heading', 1],
      ['paragraph', null],
      ['item', null],
      ['item', '2.'],
      ['paragraph', null],
    ]);
    expect(passage.plainText).toBe(
      'Tide mills\nThe Woodbridge mill turned slowly.\nfirst\nsecond\nSee the trust and flour.',
    );
    const spans = passage.blocks[1].spans;
    expect(spans.find((span) => span.text === 'Woodbridge')).toMatchObject({ strong: true });
    expect(spans.find((span) => span.text === 'slowly')).toMatchObject({ emphasis: true });
    for (const span of passage.blocks.flatMap((block) => block.spans))
      expect(passage.plainText.slice(span.offset, span.offset + span.text.length)).toBe(span.text);
  });

  it('leaves machine names, arithmetic and plain line breaks alone', () => {
    expect(plainPassage('works_at and 2 * 3 * 4\nnext line')).toBe('works_at and 2 * 3 * 4\nnext line');
    expect(plainPassage('```\n# not a heading\n```')).toBe('# not a heading');
  });
});
