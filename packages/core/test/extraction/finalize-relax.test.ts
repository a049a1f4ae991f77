import { describe, expect, it } from 'vitest';
import { filteringPreset } from '../../src/extraction/content-filter.ts';
import { finalizeExtraction } from '../../src/extraction/finalize/index.ts';
import type {
  FinalizeOptions,
  GroupHarvest,
  HarvestedEntity,
  HarvestedRelationship,
} from '../../src/extraction/types.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { emptyHarvestStats } from '../../src/extraction/harvest/stats.ts';

const legal = builtinDomains().find((domain) => domain.name === 'legal')!;
const evidence = (start: number) => [
  { chunkId: 'c1', chunkIndex: 0, sentence: `sentence ${start}`, start, end: start + 9 },
];

const entity = (name: string, type: string): HarvestedEntity => ({
  name,
  type,
  aliases: [],
  confidence: 0.8,
  description: '',
  properties: {},
  evidence: evidence(name.length),
});
const edge = (sourceIndex: number, targetIndex: number, type: string): HarvestedRelationship => ({
  sourceIndex,
  targetIndex,
  type,
  confidence: 0.8,
  justification: type,
  evidence: evidence(sourceIndex * 100 + targetIndex),
  typeMatch: 'exact',
});
const harvest = (relationships: HarvestedRelationship[]): GroupHarvest[] => [
  {
    entities: [entity('Guido van Rossum', 'Person'), entity('Python', 'Software'), entity('CWI', 'Organization')],
    relationships,
    stats: { ...emptyHarvestStats(), llmCalls: 1 },
  },
];
const strictLegal: FinalizeOptions = {
  domain: legal,
  preset: filteringPreset('strict'),
  dedupThreshold: 0.9,
  dedupMode: 'exact',
  filterStructural: false,
  directionCorrection: true,
  protectOrphans: false,
  inverseRelationships: false,
  strictEdgeTypes: true,
  allowSelfLoops: false,
  limits: { maxRelationshipRatio: null, maxEntityDegree: null, maxSameSourceType: null },
  embed: () => Promise.reject(new Error('exact dedup only')),
};

describe('finalisation never silently empties a source', () => {
  it('finalises with the generic rules when strict edge types would drop every entity, and says why', async () => {
    const result = await finalizeExtraction(harvest([edge(0, 1, 'created'), edge(0, 2, 'worked_at')]), strictLegal);
    expect(result.entities.map((entry) => entry.name)).toEqual(['Guido van Rossum', 'Python', 'CWI']);
    expect(result.relationships).toHaveLength(2);
    expect(result.stats.strictTypeDropped).toBe(0);
    expect(result.relaxed).toBe(
      "None of the 3 entities found had a relationship of the legal domain's types, so this source was finalised with the generic rules to keep them.",
    );
  });

  it('keeps unlinked entities instead of dropping them all as orphans, and says why', async () => {
    const result = await finalizeExtraction(harvest([]), { ...strictLegal, strictEdgeTypes: false });
    expect(result.entities).toHaveLength(3);
    expect(result.stats.orphansDropped).toBe(0);
    expect(result.relaxed).toMatch(
      /^None of the 3 entities found is linked by a relationship, so they are kept unlinked/,
    );
  });

  it('keeps the rules, and says nothing, when they leave an entity', async () => {
    const result = await finalizeExtraction(harvest([edge(0, 1, 'created')]), {
      ...strictLegal,
      strictEdgeTypes: false,
    });
    expect(result.entities.map((entry) => entry.name)).toEqual(['Guido van Rossum', 'Python']);
    expect(result.stats.orphansDropped).toBe(1);
    expect(result.relaxed).toBeNull();
  });
});
