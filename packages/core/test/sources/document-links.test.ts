import { describe, expect, it } from 'vitest';
import { findLinks } from '../../src/sources/links/find.ts';
import { linkTargetKeys, nameKey } from '../../src/sources/links/keys.ts';
import { placeLinks } from '../../src/sources/links/record.ts';

/** Links a document makes, read from its original, and the keys they resolve under. */
describe('document links', () => {
  it('reads Markdown inline links and reference definitions, not images or code', () => {
    const text = [
      '# Notes',
      '',
      'See [the keeper](0002.md) and [her log](<logs/Harbour Log.md> "log") or ![a map](map.png).',
      'Code `[not](a.md)` links nothing, nor does:',
      '```',
      '[fenced](b.md)',
      '```',
      '[Tides][tides] are in the almanac.',
      '',
      '[tides]: ../almanac/tides.md',
    ].join('\n');
    expect(findLinks(text, 'markdown')).toEqual([
      { syntax: 'markdown', target: '0002.md', anchor: 'the keeper' },
      { syntax: 'markdown', target: '<logs/Harbour Log.md>', anchor: 'her log' },
      { syntax: 'markdown', target: '../almanac/tides.md', anchor: 'tides' },
    ]);
  });

  it('reads wiki links with their shown text and section, in plain text too', () => {
    expect(findLinks('As [[Grafting Manual#Spring|the manual]] and [[Pier Rules]] say.', 'text')).toEqual([
      { syntax: 'wiki', target: 'Grafting Manual#Spring', anchor: 'the manual' },
      { syntax: 'wiki', target: 'Pier Rules', anchor: 'Pier Rules' },
    ]);
  });

  it('reads HTML anchors with their text, not those in comments or scripts, and no other format', () => {
    const page =
      '<p>See <a class="x" href="0006.html">the <b>pier</b> rules</a>, <a href=\'/docs/Tide&amp;Time.html\'>tides</a>.</p>' +
      '<!-- <a href="old.html">old</a> --><script>"<a href=\\"js.html\\">x</a>"</script><a name="top">top</a>';
    expect(findLinks(page, 'html')).toEqual([
      { syntax: 'html', target: '0006.html', anchor: 'the pier rules' },
      { syntax: 'html', target: '/docs/Tide&Time.html', anchor: 'tides' },
    ]);
    expect(findLinks('[a](b.md)', 'pdf')).toEqual([]);
  });

  it('keys a target by its file name, a page name as a name, and an address only to a page fetched from it', () => {
    expect(nameKey('Other_Page.md')).toBe('other page');
    expect(linkTargetKeys('../notes/Other%20Page.md#part', 'markdown', null)).toEqual(['other page']);
    expect(linkTargetKeys('Grafting Manual#Spring', 'wiki', null)).toEqual(['grafting manual']);
    expect(linkTargetKeys('https://Example.org/wiki/Pier/', 'html', null)).toEqual(['url:example.org/wiki/Pier']);
    expect(linkTargetKeys('rules.html?lang=en', 'html', 'https://example.org/wiki/ferry.html')).toEqual([
      'rules',
      'url:example.org/wiki/rules.html?lang=en',
    ]);
    for (const target of ['#top', 'mailto:keeper@example.org', 'javascript:void(0)', ''])
      expect(linkTargetKeys(target, 'html', null)).toEqual([]);
  });

  it('places each link in the chunk holding its anchor, from the previous link on, else the first chunk', () => {
    const chunks = [
      { id: 'c0', content: 'Intro with the keeper.' },
      { id: 'c1', content: 'Later the\nkeeper again, and the log.' },
      { id: 'c2', content: 'Nothing here.' },
    ];
    const link = (anchor: string) => ({ syntax: 'markdown' as const, target: 'x.md', anchor });
    const placed = placeLinks([link('the log'), link('the keeper'), link('unseen')], chunks);
    expect(placed.map((entry) => entry.chunkId)).toEqual(['c1', 'c1', 'c0']);
  });
});
