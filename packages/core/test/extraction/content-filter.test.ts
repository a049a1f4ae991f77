import { describe, expect, it } from 'vitest';
import { filterForExtraction, filteringPreset } from '../../src/extraction/content-filter.ts';
import { contentCategories, type ContentCategory, type FilteringMode } from '../../src/sources/domains/schema.ts';
import { chunkText } from '../../src/sources/text/chunk.ts';
import { proseChunking, wikiCorpus, wikiText } from '../fixtures/wiki-corpus.ts';

const wikiChunk = wikiCorpus
  .slice(0, 5)
  .map((passage) => passage.text)
  .join('\n\n')
  .slice(0, 900);

const samples: Record<ContentCategory, string> = {
  toc: 'Table of Contents\nIntroduction .......... 1\nBackground ........ 7\nMethods and materials ....... 15\nResults ......... 31',
  changelog:
    '## [2.4.0] - 2024-03-01\n### Added\n- Added support for exports\n- Fixed crash on empty input\n- Changed default port',
  legal:
    'Copyright 2021 Example Ltd. All rights reserved. This software is provided without warranty of any kind, including merchantability.',
  bibliography:
    '[1] Smith, J. (2019). A study of rivers. Journal of Water, 12(3), pp. 45-67.\n[2] Doe, A. and Roe, B. (2020). Bridges. doi:10.1234/abcd.5678\n[3] Lee, K. et al., 2018. Mills of the north.',
  acknowledgments:
    'Acknowledgments. We thank the reviewers for their comments. This work was supported by the National Science Foundation grant 1234 and we are grateful to our families.',
  boilerplate: 'Home\nSkip to main content\nSign in\nSubscribe\nBack to top\n© 2023 Example Media',
  metadata:
    'Title: The River Study\nAuthor: Jane Smith\nPublished: 2021-04-03\nKeywords: rivers, mills, bridges\nLanguage: English',
  code_blocks: '```python\ndef main(argv):\n    import sys\n    return run(argv);\n```',
  data_tables: '| Year | Revenue | Profit |\n|---|---|---|\n| 2021 | 1,200 | 300 |\n| 2022 | 1,500 | 420 |',
  math: '$$\n\\frac{a}{b} + \\sum_{i=1}^{n} x_i = \\sqrt{y}\n$$\nE = mc^2',
  api_tables: 'GET /api/v1/items\nParameters:\n| limit | integer | optional |\n| page | integer | optional |\n200 OK',
  procedural:
    'Step 1 Open the settings page.\n2. Click the Export button.\n3. Select the format you need.\n4. Press Save to finish.\nStep 5 Restart the application.',
  advertising:
    'Buy now and get free shipping on every order! Limited time special offer: save 20% with promo code SPRING. Shop now!',
  web_artifacts:
    'https://example.com/articles/123\nJump to navigation\n[edit]\nWe use cookies to improve your experience.\nHome > News > Science',
  bulk_lists: Array.from({ length: 14 }, (_, i) => `- item number ${i}`).join('\n'),
};

const drop = (category: ContentCategory, content: string, mode: FilteringMode = 'balanced') =>
  filterForExtraction([{ id: 'c1', content }], { enabled: true, mode, categories: [category] });

describe('filterForExtraction', () => {
  it.each(contentCategories)('recognises %s content', (category) => {
    const content = `${wikiChunk}\n\n${samples[category]}`;
    const result = drop(category, samples[category]);
    expect(result.kept).toEqual([]);
    expect(result.dropped).toEqual([{ id: 'c1', reason: expect.any(String), categories: [category] }]);
    expect(drop(category, wikiChunk, 'maximum').kept).toEqual([{ id: 'c1', content: wikiChunk }]);
    const mixed = drop(category, content, 'maximum');
    if (mixed.kept.length > 0) {
      expect(mixed.kept[0].content.startsWith(wikiChunk.slice(0, 200))).toBe(true);
      expect(mixed.kept[0].content.length).toBeLessThan(content.length);
    } else {
      expect(mixed.dropped[0].reason).toBe('category');
    }
  });

  it('leaves ordinary encyclopaedic prose alone under the default mode', () => {
    const chunks = chunkText('src', wikiText.slice(0, 500_000), [], proseChunking);
    const result = filterForExtraction(chunks, { enabled: true, mode: 'balanced', categories: [...contentCategories] });
    expect(result.stats.kept / result.stats.total).toBeGreaterThan(0.99);
    expect(result.stats.stripped).toBe(0);
  });

  it('strips matching lines, keeps untouched chunks as they are and drops copies left under 100 characters', () => {
    const chunks = [
      { id: 'a', content: `${wikiChunk}\nhttps://example.com/page\n[edit]` },
      { id: 'b', content: 'Short note.' },
      { id: 'c', content: 'Jump to navigation\nhttps://example.com/x\nA few words remain.' },
    ];
    const before = structuredClone(chunks);
    const result = filterForExtraction(chunks, {
      enabled: true,
      mode: 'strict',
      categories: ['web_artifacts', 'no_such_category'],
    });
    expect(result.kept).toEqual([{ id: 'a', content: wikiChunk }, chunks[1]]);
    expect(result.kept[1]).toBe(chunks[1]);
    expect(result.dropped).toEqual([{ id: 'c', reason: 'too_short', categories: ['web_artifacts'] }]);
    expect(result.stats).toEqual({
      total: 3,
      kept: 2,
      dropped: 1,
      stripped: 1,
      linesStripped: 2,
      byCategory: { web_artifacts: 2 },
    });
    expect(chunks).toEqual(before);
  });

  it('scales with the mode: unfiltered touches nothing, stricter modes cut more', () => {
    const oneTocLine = `${wikiChunk.replace(/\n+/g, ' ')}\nSecond paragraph of plain prose text.\nThird paragraph of plain prose.\nAppendix ........ 42`;
    const mildLegal = `${wikiChunk} Copyright 2020 by the authors; all rights reserved.`;
    const outcome = (mode: FilteringMode) => {
      const result = filterForExtraction(
        [
          { id: 'toc', content: oneTocLine },
          { id: 'legal', content: mildLegal },
        ],
        { enabled: true, mode, categories: ['toc', 'legal'] },
      );
      return [
        result.kept.find((c) => c.id === 'toc')?.content === oneTocLine ? 'toc kept' : 'toc cut',
        result.kept.some((c) => c.id === 'legal') ? 'legal kept' : 'legal dropped',
      ];
    };
    expect(outcome('unfiltered')).toEqual(['toc kept', 'legal kept']);
    expect(outcome('minimal')).toEqual(['toc kept', 'legal kept']);
    expect(outcome('balanced')).toEqual(['toc kept', 'legal kept']);
    expect(outcome('strict')).toEqual(['toc cut', 'legal kept']);
    expect(outcome('maximum')).toEqual(['toc cut', 'legal dropped']);
    const disabled = filterForExtraction([{ id: 'x', content: samples.toc }], {
      enabled: false,
      mode: 'maximum',
      categories: ['toc'],
    });
    expect(disabled.kept).toEqual([{ id: 'x', content: samples.toc }]);
  });

  it('exposes the filtering presets of the six modes', () => {
    expect(filteringPreset('balanced')).toEqual({
      evidenceMode: 'standard',
      strictEdgeTypes: false,
      maxEntityDegree: 25,
      maxSameSourceType: 12,
      maxRelationshipRatio: 8,
      plausibility: { named: 0.3, nonNamed: 0.15 },
      loopEntityCap: 50,
      dedupThreshold: 0.9,
      minAliasLength: 2,
      protectOrphans: false,
      typeRescue: true,
    });
    expect(filteringPreset('unfiltered')).toMatchObject({
      evidenceMode: 'off',
      maxEntityDegree: null,
      plausibility: null,
      loopEntityCap: 200,
      protectOrphans: true,
      typeRescue: false,
    });
    expect(filteringPreset('maximum')).toMatchObject({
      strictEdgeTypes: true,
      maxEntityDegree: 15,
      maxSameSourceType: 7,
      maxRelationshipRatio: 4,
      plausibility: { named: 0.4, nonNamed: 0.25 },
      dedupThreshold: 0.85,
      minAliasLength: 3,
    });
    expect(filteringPreset('minimal')).toMatchObject({
      evidenceMode: 'relaxed',
      plausibility: null,
      dedupThreshold: 0.97,
      protectOrphans: true,
    });
    expect(filteringPreset('lenient')).toMatchObject({
      evidenceMode: 'narrative',
      plausibility: { named: 0.2, nonNamed: 0.1 },
      loopEntityCap: 75,
    });
    expect(filteringPreset('strict')).toMatchObject({
      evidenceMode: 'strict',
      maxEntityDegree: 20,
      loopEntityCap: 35,
      dedupThreshold: 0.87,
    });
    const preset = filteringPreset('balanced');
    preset.plausibility!.named = 1;
    expect(filteringPreset('balanced').plausibility!.named).toBe(0.3);
  });
});
