import { describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { harvestGroup } from '../../src/extraction/harvest/index.ts';
import { BuiltinLlmAdapter } from '../../src/providers/llm/builtin/adapter.ts';
import { LlmService } from '../../src/providers/llm/service.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { filteringPreset } from '../../src/extraction/content-filter.ts';

/** The harvest with the builtin provider (no model: NLP answering in the same line grammar). */

const biographical = builtinDomains().find((domain) => domain.name === 'biographical')!;
const adapter = new BuiltinLlmAdapter();
const llm = new LlmService({ settings: () => defaultSettings(), adapter: () => adapter, record: () => {} });

const paragraph =
  'Marie Curie was born in Warsaw. She married Pierre Curie in 1895. Marie Curie and Pierre Curie worked at the University of Paris. ' +
  'In 1903 she shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel.';

describe('harvest with the builtin provider', () => {
  it('finds people and places in a biographical paragraph and relationships with evidence', async () => {
    const harvest = await harvestGroup({
      chunks: [{ id: 'bio', index: 0, content: paragraph, pageNumber: 1, section: null }],
      domain: biographical,
      preset: filteringPreset(biographical.extraction_filtering_mode),
      strictEdgeTypes: false,
      llm,
      signal: new AbortController().signal,
      context: { sourceId: 'source-1' },
    });

    const byName = new Map(harvest.entities.map((entity, index) => [entity.name, { ...entity, index }]));
    expect(byName.get('Marie Curie')?.type).toBe('Person');
    expect(byName.get('Pierre Curie')?.type).toBe('Person');
    expect(byName.get('Warsaw')?.type).toBe('Place');
    for (const entity of harvest.entities) {
      expect(entity.evidence.length, entity.name).toBeGreaterThan(0);
      for (const item of entity.evidence) expect(paragraph.slice(item.start, item.end)).toBe(item.sentence);
    }

    const marie = byName.get('Marie Curie')!.index;
    const bornIn = harvest.relationships.find((r) => r.type === 'born_in');
    expect(bornIn).toMatchObject({ sourceIndex: marie, targetIndex: byName.get('Warsaw')!.index, typeMatch: 'exact' });
    expect(bornIn!.evidence.map((item) => item.sentence)).toEqual(['Marie Curie was born in Warsaw.']);
    const married = harvest.relationships.find((r) => r.type === 'married_to');
    expect(married).toMatchObject({ sourceIndex: marie, targetIndex: byName.get('Pierre Curie')!.index });
    expect(married!.evidence.map((item) => item.sentence)).toEqual(['She married Pierre Curie in 1895.']);
    for (const relationship of harvest.relationships)
      expect(relationship.justification.length).toBeGreaterThanOrEqual(30);

    expect(harvest.stats).toMatchObject({ llmCalls: 2, linesRejected: 0, guardsTripped: [], emptyAnswers: 0 });
    expect(harvest.stats.inputTokens).toBeGreaterThan(0);
  });
});
