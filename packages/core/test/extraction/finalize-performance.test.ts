import { describe, expect, it } from 'vitest';
import { finalizeExtraction } from '../../src/extraction/finalize/index.ts';
import type { FinalizeOptions, GroupHarvest, HarvestStats } from '../../src/extraction/types.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { filteringPreset } from '../../src/extraction/content-filter.ts';

const domain = builtinDomains().find((entry) => entry.name === 'biographical')!;
const TYPES = domain.templates.node_templates.map((template) => template.name);
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'da', 'fe', 'gu', 'ho', 'ji', 'pa', 'qui'];

/** A made-up word per number, so every entity has its own name. */
function word(value: number): string {
  let out = '';
  do {
    out += SYLLABLES[value % 16];
    value = Math.floor(value / 16);
  } while (value > 0);
  return out;
}

const capital = (text: string) => text[0].toUpperCase() + text.slice(1);

const harvestStats = (): HarvestStats => ({
  llmCalls: 1,
  inputTokens: 0,
  outputTokens: 0,
  linesParsed: 0,
  linesRejected: 0,
  rejectedByReason: {},
  guardsTripped: [],
  emptyAnswers: 0,
  droppedNoEvidence: 0,
  droppedExcluded: 0,
  droppedImplausible: 0,
  typesRescued: 0,
  relationshipTypesUnmatched: 0,
  relationshipsDroppedStrictType: 0,
});

/** Deterministic bag-of-words vectors: each word hashed (FNV-1a) into one of 256 dimensions. */
function bagOfWords(texts: string[]): Promise<Float32Array[]> {
  return Promise.resolve(
    texts.map((text) => {
      const vector = new Float32Array(256);
      for (const token of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        let hash = 2166136261;
        for (let at = 0; at < token.length; at++) hash = Math.imul(hash ^ token.charCodeAt(at), 16777619);
        vector[(hash >>> 0) % 256] += 1;
      }
      return vector;
    }),
  );
}

/** `groupCount` groups of 50 entities (10 types, 1% generic) and 100 relationships each; every tenth group repeats five entities of the one before. */
function harvests(groupCount: number): GroupHarvest[] {
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const groups: GroupHarvest[] = [];
  let serial = 0;
  for (let index = 0; index < groupCount; index++) {
    const entities = Array.from({ length: 50 }, (_value, at) => {
      const repeated = index % 10 === 9 && at < 5;
      const number = repeated ? serial - 50 + at : serial;
      serial++;
      return {
        name: `${capital(word(number + 4096))} ${capital(word(number * 7 + 3))}`,
        type: number % 100 === 0 ? 'unknown' : TYPES[number % TYPES.length],
        aliases: [],
        confidence: 0.5 + random() / 2,
        description: `Described as ${word(number)} ${word(number * 3)} and ${word(number * 5)}`,
        properties: { code: word(number) },
        evidence: [
          { chunkId: `chunk-${index}`, chunkIndex: index, sentence: 'A sentence.', start: at * 20, end: at * 20 + 11 },
        ],
      };
    });
    const relationships = Array.from({ length: 100 }, () => ({
      sourceIndex: Math.floor(random() * 50),
      targetIndex: Math.floor(random() * 50),
      type: 'friend_of',
      confidence: random(),
      justification: 'They were friends.',
      evidence: [],
      typeMatch: 'exact' as const,
    }));
    groups.push({ entities, relationships, stats: harvestStats() });
  }
  return groups;
}

describe('finalisation at scale', () => {
  it('finalises 5,000 entities and 10,000 relationships with semantic dedup well within 2 s', async () => {
    const options: FinalizeOptions = {
      domain,
      preset: filteringPreset('balanced'),
      dedupThreshold: 0.9,
      dedupMode: 'semantic',
      filterStructural: true,
      directionCorrection: true,
      protectOrphans: false,
      inverseRelationships: true,
      strictEdgeTypes: false,
      allowSelfLoops: false,
      limits: { maxRelationshipRatio: 8, maxEntityDegree: 25, maxSameSourceType: 12 },
      embed: bagOfWords,
    };
    // A small run first, so the bound measures the algorithms rather than the JIT compiling them.
    await finalizeExtraction(harvests(4), options);
    const input = harvests(100);
    // CPU time of this process, so that test files running alongside on a busy machine do not count against the bound.
    const started = process.cpuUsage();
    const result = await finalizeExtraction(input, options);
    const used = process.cpuUsage(started);
    const milliseconds = (used.user + used.system) / 1_000;
    expect(result.stats.entitiesIn).toBe(5_000);
    expect(result.stats.semanticFallbacks).toBe(0);
    expect(result.stats.exactMerges).toBe(50);
    expect(result.entities.length).toBeLessThanOrEqual(4_950);
    expect(result.entities.length).toBeGreaterThan(4_500);
    expect(milliseconds).toBeLessThan(2_000);
  });
});
