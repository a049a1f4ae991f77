import { describe, expect, it, vi } from 'vitest';
import { finalizeExtraction } from '../../src/extraction/finalize/index.ts';
import { mergeDescriptions, mergeEntities, MAX_DESCRIPTION } from '../../src/extraction/finalize/merge.ts';
import type { WorkEntity } from '../../src/extraction/finalize/model.ts';
import { normalizeNameKey } from '../../src/extraction/finalize/names.ts';
import { entityText } from '../../src/extraction/finalize/semantic-dedup.ts';
import { UnitVectors } from '../../src/extraction/finalize/vectors.ts';
import type {
  Evidence,
  FinalizeOptions,
  FinalizeResult,
  FinalizeStats,
  GroupHarvest,
  HarvestedEntity,
  HarvestedRelationship,
  HarvestStats,
} from '../../src/extraction/types.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import type { DomainDefinition } from '../../src/sources/domains/schema.ts';
import { filteringPreset } from '../../src/extraction/content-filter.ts';

const biographical = builtinDomains().find((domain) => domain.name === 'biographical')!;

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

const evidence = (chunkId: string, start: number): Evidence => ({
  chunkId,
  chunkIndex: 0,
  sentence: `sentence at ${start}`,
  start,
  end: start + 10,
});

function entity(name: string, type = 'Person', extra: Partial<HarvestedEntity> = {}): HarvestedEntity {
  return {
    name,
    type,
    aliases: [],
    confidence: 0.8,
    description: '',
    properties: {},
    evidence: [evidence('c1', name.length)],
    ...extra,
  };
}

function rel(
  sourceIndex: number,
  targetIndex: number,
  type: string,
  confidence = 0.8,
  extra: Partial<HarvestedRelationship> = {},
): HarvestedRelationship {
  return {
    sourceIndex,
    targetIndex,
    type,
    confidence,
    justification: `${type} justification`,
    evidence: [evidence('c1', sourceIndex * 100 + targetIndex)],
    typeMatch: 'exact',
    ...extra,
  };
}

const group = (entities: HarvestedEntity[], relationships: HarvestedRelationship[] = []): GroupHarvest => ({
  entities,
  relationships,
  stats: harvestStats(),
});

const DIMENSION = 256;
/** Deterministic bag-of-words vectors: each word hashed (FNV-1a) into one of 256 dimensions. */
function bagOfWords(texts: string[]): Promise<Float32Array[]> {
  return Promise.resolve(
    texts.map((text) => {
      const vector = new Float32Array(DIMENSION);
      for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        let hash = 2166136261;
        for (let at = 0; at < word.length; at++) hash = Math.imul(hash ^ word.charCodeAt(at), 16777619);
        vector[(hash >>> 0) % DIMENSION] += 1;
      }
      return vector;
    }),
  );
}

/** Vectors chosen per entity name (the text up to the first " | "), for exact cosines. */
function vectorsByName(table: Record<string, number[]>) {
  return vi.fn((texts: string[]) =>
    Promise.resolve(
      texts.map((text) => {
        const name = text.split(' | ')[0];
        if (!table[name]) throw new Error(`no vector for ${name}`);
        return Float32Array.from(table[name]);
      }),
    ),
  );
}

/** A unit vector at cosine `cosine` from [1, 0, 0]. */
const at = (cosine: number) => [cosine, Math.sqrt(1 - cosine * cosine), 0];

function options(overrides: Partial<FinalizeOptions> = {}): FinalizeOptions {
  return {
    domain: biographical,
    preset: filteringPreset('balanced'),
    dedupThreshold: 0.9,
    dedupMode: 'exact',
    filterStructural: true,
    directionCorrection: true,
    protectOrphans: true,
    inverseRelationships: false,
    strictEdgeTypes: false,
    allowSelfLoops: false,
    limits: { maxRelationshipRatio: null, maxEntityDegree: null, maxSameSourceType: null },
    embed: bagOfWords,
    ...overrides,
  };
}

const names = (result: FinalizeResult) => result.entities.map((entry) => entry.name);
const edgeList = (result: FinalizeResult) =>
  result.relationships.map(
    (edge) => `${result.entities[edge.sourceIndex].name} ${edge.type} ${result.entities[edge.targetIndex].name}`,
  );

function work(name: string, order: number, extra: Partial<WorkEntity> = {}): WorkEntity {
  return {
    order,
    key: normalizeNameKey(name),
    name,
    type: 'Person',
    typeNormalizedFrom: null,
    aliases: [],
    description: '',
    confidence: 0.5,
    properties: {},
    mergedPropertyHistory: {},
    evidence: [],
    ...extra,
  };
}

describe('name keys', () => {
  it.each([
    ['Marie Curie', 'marie curie'],
    ['  Émile   Zola ', 'emile zola'],
    ['MARIE CURIE', 'marie curie'],
    ['"The Beatles"', 'the beatles'],
    ['“Curie”', 'curie'],
    ["'Curie'", 'curie'],
    ['O’Brien', "o'brien"],
    ['Łódź', 'lodz'],
    ['Zürich.', 'zurich'],
    ['(Acme Corp)', 'acme corp'],
    ['Yahoo!', 'yahoo'],
    ['C++', 'c++'],
    ['C#', 'c#'],
    ['.NET', '.net'],
    ['São Paulo', 'sao paulo'],
    ['कमला', 'कमला'],
  ])('%s → %s', (name, key) => {
    expect(normalizeNameKey(name)).toBe(key);
  });
});

describe('exact dedup', () => {
  it('merges a name with another entity’s alias, keeping the fuller name', async () => {
    const result = await finalizeExtraction(
      [
        group([entity('Marie Curie', 'Person', { aliases: ['Madame Curie'] })]),
        group([entity('madame curie', 'Person', { description: 'A physicist.' })]),
      ],
      options(),
    );
    expect(names(result)).toEqual(['Marie Curie']);
    expect(result.entities[0].aliases).toEqual(['Madame Curie']);
    expect(result.stats.exactMerges).toBe(1);
  });

  it.each([
    [
      'the name first',
      [
        entity('Curie'),
        entity('Marie Curie', 'Person', { aliases: ['Curie'] }),
        entity('Pierre Curie', 'Person', { aliases: ['Curie'] }),
      ],
    ],
    [
      'the name last',
      [
        entity('Marie Curie', 'Person', { aliases: ['Curie'] }),
        entity('Pierre Curie', 'Person', { aliases: ['Curie'] }),
        entity('Curie'),
      ],
    ],
  ])('does not merge a name that is an alias of two entities (%s)', async (_case, entities) => {
    const result = await finalizeExtraction([group(entities)], options());
    expect(result.entities).toHaveLength(3);
    expect(result.stats.exactMerges).toBe(0);
  });

  it('does not merge on two equal aliases', async () => {
    const result = await finalizeExtraction(
      [
        group([
          entity('Pierre Curie', 'Person', { aliases: ['the Curie', 'P. C.'] }),
          entity('Marie Sklodowska', 'Person', { aliases: ['the Curie'] }),
        ]),
      ],
      options(),
    );
    expect(names(result)).toEqual(['Pierre Curie', 'Marie Sklodowska']);
    expect(result.stats.exactMerges).toBe(0);
  });

  it.each([
    ['equal types, any case', 'Person', 'person', 1],
    ['plural and singular of a template', 'Person', 'persons', 1],
    ['a generic type', 'Person', 'unknown', 1],
    ['an empty type', '', 'Place', 1],
    ['concept is generic', 'Concept', 'Place', 1],
    ['incompatible types', 'Person', 'Place', 2],
    ['two off-domain types', 'Spaceship', 'Planet', 2],
  ])('%s: %s vs %s → %d entities', async (_case, left, right, count) => {
    const result = await finalizeExtraction(
      [group([entity('Washington', left)]), group([entity('Washington', right)])],
      options(),
    );
    expect(result.entities).toHaveLength(count);
  });

  it('takes the specific type of a generic and a specific one, and a later incompatible entity stays apart', async () => {
    const result = await finalizeExtraction(
      [group([entity('Jordan', 'unknown'), entity('Jordan', 'Person'), entity('Jordan', 'Place')])],
      options(),
    );
    expect(result.entities.map((entry) => `${entry.name}:${entry.type}`)).toEqual(['Jordan:Person', 'Jordan:Place']);
  });

  it('keeps the better-written spelling of one key', async () => {
    const result = await finalizeExtraction([group([entity('emile zola')]), group([entity('Émile Zola')])], options());
    expect(names(result)).toEqual(['Émile Zola']);
    expect(result.entities[0].key).toBe('emile zola');
  });

  it('drops pronoun and descriptor aliases, and aliases shorter than the preset allows', async () => {
    const result = await finalizeExtraction(
      [
        group([
          entity('Marie Curie', 'Person', {
            aliases: ['she', 'the physicist', 'her', 'M', 'Mme Curie', 'The Polish Physicist'],
          }),
        ]),
      ],
      options({ preset: filteringPreset('strict') }),
    );
    expect(result.entities[0].aliases).toEqual(['Mme Curie', 'The Polish Physicist']);
  });
});

describe('semantic dedup', () => {
  const curie = (name: string, confidence: number, type = 'Person') => entity(name, type, { confidence });

  it.each([
    ['above the threshold with a name overlap', at(0.95), 1, 0.85],
    ['well above the threshold: no penalty', at(1), 1, 0.9],
    ['just above the threshold', at(0.9001), 1, 0.85],
    ['below the threshold', at(0.85), 2, 0.9],
  ])('%s', async (_case, other, count, confidence) => {
    const embed = vectorsByName({ 'Marie Curie': [1, 0, 0], 'Maria Curie': other });
    const result = await finalizeExtraction(
      [group([curie('Marie Curie', 0.9), curie('Maria Curie', 0.7)])],
      options({ dedupMode: 'semantic', embed }),
    );
    expect(result.entities).toHaveLength(count);
    expect(result.entities[0].confidence).toBeCloseTo(confidence, 10);
    expect(result.stats.semanticMerges).toBe(2 - count);
    expect(embed).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['below threshold + 0.08', 0.9799, 2],
    ['just above threshold + 0.08', 0.9801, 1],
  ])('names sharing no word need threshold + 0.08: %s', async (_case, cosine, count) => {
    const embed = vectorsByName({ 'International Business Machines': [1, 0, 0], 'Big Blue': at(cosine) });
    const result = await finalizeExtraction(
      [group([curie('International Business Machines', 0.9, 'Organization'), curie('Big Blue', 0.9, 'Organization')])],
      options({ dedupMode: 'semantic', embed }),
    );
    expect(result.entities).toHaveLength(count);
  });

  it('adds the shared-alias bonus', async () => {
    const embed = vectorsByName({ 'Pierre Curie': [1, 0, 0], 'P. Curie': at(0.82) });
    const merged = await finalizeExtraction(
      [
        group([
          entity('Pierre Curie', 'Person', { aliases: ['Monsieur Pierre'] }),
          entity('P. Curie', 'Person', { aliases: ['Monsieur Pierre'] }),
        ]),
      ],
      options({ dedupMode: 'semantic', embed, filterStructural: false }),
    );
    expect(names(merged)).toEqual(['Pierre Curie']);
    expect(merged.stats.semanticMerges).toBe(1);
  });

  it('is transitive and needs compatible types', async () => {
    const embed = vectorsByName({
      'Alpha Works': [1, 0, 0],
      'Alpha Workshop': at(0.95),
      'Alpha Studio': [0.95 * 0.95 - Math.sqrt(1 - 0.95 ** 2) ** 2, 2 * 0.95 * Math.sqrt(1 - 0.95 ** 2), 0],
      'Alpha Place': [1, 0, 0],
    });
    const result = await finalizeExtraction(
      [
        group([
          entity('Alpha Works', 'Organization'),
          entity('Alpha Workshop', 'Organization'),
          entity('Alpha Studio', 'Organization'),
          entity('Alpha Place', 'Place'),
        ]),
      ],
      options({ dedupMode: 'semantic', embed }),
    );
    expect(result.entities.map((entry) => entry.type)).toEqual(['Organization', 'Place']);
    expect(result.stats.semanticMerges).toBe(2);
  });

  it('never merges names with different numbers', async () => {
    const embed = vectorsByName({ 'Apollo 11': [1, 0, 0], 'Apollo 13': [1, 0, 0] });
    const result = await finalizeExtraction(
      [group([entity('Apollo 11', 'Work'), entity('Apollo 13', 'Work')])],
      options({ dedupMode: 'semantic', embed }),
    );
    expect(result.entities).toHaveLength(2);
  });

  it('embeds all entities in one call with the name | aliases | description | values text', async () => {
    const embed = vi.fn(bagOfWords);
    await finalizeExtraction(
      [
        group([
          entity('Marie Curie', 'Person', {
            aliases: ['Mme Curie'],
            description: 'Physicist',
            properties: { born: '1867' },
          }),
        ]),
        group([entity('Paris', 'Place')]),
      ],
      options({ dedupMode: 'semantic', embed }),
    );
    expect(embed).toHaveBeenCalledTimes(1);
    expect(embed.mock.calls[0][0]).toEqual(['Marie Curie | Also known as: Mme Curie | Physicist | 1867', 'Paris']);
    expect(entityText({ name: 'X', aliases: [], description: 'y'.repeat(20_000), properties: {} })).toHaveLength(
      16_000,
    );
  });

  it.each([
    ['throws', () => Promise.reject(new Error('embedding port down'))],
    ['returns the wrong count', () => Promise.resolve([new Float32Array([1, 0])])],
    [
      'returns mixed dimensions',
      (texts: string[]) => Promise.resolve(texts.map((_text, index) => new Float32Array(index + 1).fill(1))),
    ],
  ])('falls back to exact dedup when embed %s', async (_case, embed) => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('marie curie'), entity('Maria Curie')])],
      options({ dedupMode: 'semantic', embed }),
    );
    expect(names(result)).toEqual(['Marie Curie', 'Maria Curie']);
    expect(result.stats.semanticFallbacks).toBe(1);
    expect(result.stats.exactMerges).toBe(1);
    expect(result.stats.semanticMerges).toBe(0);
  });

  it('does not embed in exact mode', async () => {
    const embed = vi.fn(bagOfWords);
    await finalizeExtraction([group([entity('A'), entity('B')])], options({ embed }));
    expect(embed).not.toHaveBeenCalled();
  });
});

describe('unit vectors', () => {
  it('computes exact cosines and only abandons pairs provably below the bar', () => {
    let seed = 42;
    const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5;
    const dimension = 37;
    const common = Array.from({ length: dimension }, random);
    const rows = Array.from({ length: 60 }, (_row, index) =>
      Float32Array.from(common, (value) => value * (index % 3) + random()),
    );
    rows.push(Float32Array.from(rows[0], (value) => value * 3 + 0.01));
    const vectors = UnitVectors.from(rows, rows.length)!;
    const cosine = (a: Float32Array, b: Float32Array) => {
      let dot = 0;
      let na = 0;
      let nb = 0;
      a.forEach((value, k) => {
        dot += value * b[k];
        na += value * value;
        nb += b[k] * b[k];
      });
      return dot / Math.sqrt(na * nb);
    };
    let abandoned = 0;
    for (let a = 0; a < rows.length; a++) {
      for (let b = a + 1; b < rows.length; b++) {
        const expected = cosine(rows[a], rows[b]);
        expect(vectors.dot(a, b)).toBeCloseTo(expected, 5);
        for (const bar of [0.2, 0.6, 0.9]) {
          const bounded = vectors.dotAtLeast(a, b, bar);
          if (bounded === -Infinity) {
            abandoned++;
            expect(expected).toBeLessThan(bar);
          } else expect(bounded).toBeCloseTo(expected, 5);
        }
      }
    }
    expect(abandoned).toBeGreaterThan(0);
    expect(vectors.dotAtLeast(0, rows.length - 1, 0.99)).toBeGreaterThan(0.99);
  });

  it.each([
    ['a wrong count', [new Float32Array([1, 0])], 2],
    ['mixed dimensions', [new Float32Array([1, 0]), new Float32Array([1])], 2],
    ['a non-finite value', [new Float32Array([1, 0]), new Float32Array([Number.NaN, 1])], 2],
    ['no dimensions', [new Float32Array(0), new Float32Array(0)], 2],
    ['not a list', 'vectors', 2],
  ])('refuses %s', (_case, vectors, count) => {
    expect(UnitVectors.from(vectors, count)).toBeNull();
  });

  it('takes plain number arrays and zero vectors', () => {
    const vectors = UnitVectors.from(
      [
        [3, 4],
        [0, 0],
        [6, 8],
      ],
      3,
    )!;
    expect(vectors.dot(0, 2)).toBeCloseTo(1, 6);
    expect(vectors.dot(0, 1)).toBeCloseTo(0, 6);
  });
});

describe('hierarchical names', () => {
  it('merges a surname and a titled name into the longest name', async () => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('Curie'), entity('Dr. Marie Curie'), entity('Paris', 'Place')])],
      options(),
    );
    expect(names(result)).toEqual(['Dr. Marie Curie', 'Paris']);
    expect(result.entities[0].aliases).toEqual(expect.arrayContaining(['Marie Curie', 'Curie']));
    expect(result.stats.hierarchicalMerges).toBe(2);
  });

  it('leaves an ambiguous surname alone', async () => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('Pierre Curie'), entity('Curie')])],
      options(),
    );
    expect(names(result)).toEqual(['Marie Curie', 'Pierre Curie', 'Curie']);
    expect(result.stats.hierarchicalMerges).toBe(0);
  });

  it.each([
    ['an initial', 'M. Curie', 'Marie Curie', 1],
    ['a generic-typed short name', 'Curie', 'Marie Curie', 1],
    ['the end of a longer name', 'Mozart', 'Wolfgang Amadeus Mozart', 1],
    ['the start of a longer name', 'Ludwig', 'Ludwig van Beethoven', 1],
    ['40% of the longer name', 'Marie Curie', 'Marie Skłodowska Curie', 1],
    ['inside and under 40% of the longer name', 'Sklodowska', 'Marie Sklodowska Curie Research Foundation', 2],
    ['a type without named referents (Life Event)', 'Illness', 'Long Illness', 2],
    ['the only numbered name', 'Henry', 'Henry VIII', 1],
    ['different titles on the same words', 'Mr. Curie', 'Mrs. Curie', 2],
  ])('%s: %s / %s → %d', async (_case, short, long, count) => {
    const type = short === 'Illness' ? 'Life Event' : 'Person';
    const result = await finalizeExtraction(
      [group([entity(short, _case.includes('generic') ? 'unknown' : type), entity(long, type)])],
      options(),
    );
    expect(result.entities).toHaveLength(count);
    if (count === 1) expect(names(result)).toEqual([long]);
  });

  it('needs proper names for a type the domain does not know', async () => {
    const lower = await finalizeExtraction(
      [group([entity('museum', 'Building'), entity('national museum', 'Building')])],
      options(),
    );
    const proper = await finalizeExtraction(
      [group([entity('Louvre', 'Building'), entity('The Louvre Museum', 'Building')])],
      options(),
    );
    expect(lower.entities).toHaveLength(2);
    expect(names(proper)).toEqual(['The Louvre Museum']);
  });
});

describe('merge rules', () => {
  it.each([
    [
      'overlapping: the longer is kept',
      'Polish physicist and chemist',
      'A Polish physicist and chemist who won two Nobel prizes',
      'A Polish physicist and chemist who won two Nobel prizes',
    ],
    [
      'disjoint: both, joined',
      'Polish physicist.',
      'Born in Warsaw in 1867',
      'Polish physicist. Born in Warsaw in 1867',
    ],
    ['one empty', '', 'Born in Warsaw', 'Born in Warsaw'],
  ])('descriptions %s', (_case, older, newer, merged) => {
    expect(mergeDescriptions(older, newer)).toBe(merged);
  });

  it('caps a joined description at 8,000 characters', () => {
    const merged = mergeDescriptions('alpha '.repeat(900), 'beta '.repeat(900));
    expect(merged.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    expect(merged.length).toBeGreaterThan(MAX_DESCRIPTION - 100);
    expect(merged.startsWith('alpha')).toBe(true);
  });

  it('merges aliases, confidence, properties with history, and evidence', () => {
    const older = work('Marie Curie', 0, {
      aliases: ['Madame Curie', 'Marie Sklodowska'],
      confidence: 0.6,
      properties: { born: '1867', field: 'physics' },
      evidence: [evidence('c1', 0), evidence('c1', 40)],
    });
    const newer = work('Marie Sklodowska-Curie', 1, {
      aliases: ['madame curie', 'Marie Curie'],
      confidence: 0.8,
      properties: { born: '7 November 1867', field: 'Physics', died: '1934' },
      mergedPropertyHistory: { born: ['1866'] },
      evidence: [evidence('c1', 40), evidence('c2', 0)],
    });
    const merged = mergeEntities(older, newer, { type: 'Person' });
    // The fuller name wins; the other joins the aliases, once per key.
    expect(merged.name).toBe('Marie Sklodowska-Curie');
    expect(merged.aliases).toEqual(['Madame Curie', 'Marie Sklodowska', 'Marie Curie']);
    expect(merged.confidence).toBe(0.8);
    expect(merged.properties).toEqual({ born: '7 November 1867', field: 'Physics', died: '1934' });
    expect(merged.mergedPropertyHistory).toEqual({ born: ['1867', '1866'] });
    expect(merged.evidence.map((item) => `${item.chunkId}:${item.start}`)).toEqual(['c1:0', 'c1:40', 'c2:0']);
    expect(merged.order).toBe(0);
  });

  it.each([
    [0.9, 0.05, 0.85],
    [0.12, 0.05, 0.1],
    [0.05, 0.05, 0.05],
  ])('confidence %s minus penalty %s → %s (floor 0.1)', (confidence, penalty, expected) => {
    const merged = mergeEntities(work('A', 0, { confidence }), work('a', 1, { confidence: 0 }), {
      type: 'Person',
      penalty,
    });
    expect(merged.confidence).toBeCloseTo(expected, 10);
  });

  it('keeps the newer property value and the older in the history across finalisation', async () => {
    const result = await finalizeExtraction(
      [
        group([entity('Marie Curie', 'Person', { properties: { born: '1867' } })]),
        group([entity('Marie Curie', 'Person', { properties: { born: '7 November 1867' } })]),
      ],
      options(),
    );
    expect(result.entities[0].properties).toEqual({ born: '7 November 1867' });
    expect(result.entities[0].mergedPropertyHistory).toEqual({ born: ['1867'] });
  });
});

describe('type normalisation', () => {
  it.each([
    ['Person', 'Person', null],
    ['person', 'Person', 'person'],
    ['persons', 'Person', 'persons'],
    ['PEOPLE', 'Person', 'PEOPLE'],
    ['organisation', 'Organization', 'organisation'],
    ['Organisations', 'Organization', 'Organisations'],
    ['life_event', 'Life Event', 'life_event'],
    ['LifeEvents', 'Life Event', 'LifeEvents'],
    ['location', 'Place', 'location'],
    ['city', 'Place', 'city'],
    ['company', 'Organization', 'company'],
    ['unknown', 'unknown', null],
    ['Spaceship', 'Spaceship', null],
  ])('%s → %s', async (type, normalized, from) => {
    const result = await finalizeExtraction([group([entity('Something Named', type)])], options());
    expect(result.entities[0].type).toBe(normalized);
    expect(result.entities[0].typeNormalizedFrom).toBe(from);
    expect(result.stats.typesNormalized).toBe(from === null ? 0 : 1);
  });
});

describe('structural filter', () => {
  it.each([
    ['Chapter 3', 'unknown', true],
    ['Chapter 3: The Early Years', 'Work', true],
    ['Figure 2', 'Concept', true],
    ['Fig. 2a', 'unknown', true],
    ['Table 1', 'Place', true],
    ['Appendix B', 'unknown', true],
    ['Section 4.2', 'Concept', true],
    ['Part II', 'unknown', true],
    ['Early Years', 'Chapter', true],
    ['Results', 'tables', true],
    ['Section 230', 'Work', false],
    ['Table Mountain', 'Place', false],
    ['P. J. Morgan', 'Person', false],
    ['Marie Curie', 'Person', false],
  ])('%s (%s) dropped: %s', async (name, type, dropped) => {
    const result = await finalizeExtraction([group([entity(name, type)])], options());
    expect(result.entities).toHaveLength(dropped ? 0 : 1);
    expect(result.stats.structuralDropped).toBe(dropped ? 1 : 0);
  });

  it('keeps everything when off, and a domain template named like a structural type', async () => {
    const off = await finalizeExtraction(
      [group([entity('Chapter 3', 'unknown')])],
      options({ filterStructural: false }),
    );
    expect(off.entities).toHaveLength(1);
    const furniture: DomainDefinition = structuredClone(biographical);
    furniture.templates.node_templates.push({ ...furniture.templates.node_templates[0], name: 'Table' });
    const kept = await finalizeExtraction([group([entity('Oak Dining', 'Table')])], options({ domain: furniture }));
    expect(kept.entities).toHaveLength(1);
  });

  it('drops the relationships of dropped entities as dangling', async () => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('Figure 2', 'unknown')], [rel(0, 1, 'created'), rel(0, 7, 'created')])],
      options(),
    );
    expect(result.relationships).toHaveLength(0);
    expect(result.stats.danglingDropped).toBe(2);
  });
});

describe('relationship dedup', () => {
  it('merges duplicates within a group and exact triples across groups, keeping the best and all evidence', async () => {
    const result = await finalizeExtraction(
      [
        group(
          [entity('Marie Curie'), entity('Irène Joliot-Curie')],
          [
            rel(0, 1, 'parent_of', 0.6, { evidence: [evidence('c1', 1)] }),
            rel(0, 1, 'parent_of', 0.7, { evidence: [evidence('c1', 2)] }),
          ],
        ),
        group(
          [entity('Irène Joliot-Curie'), entity('Marie Curie')],
          [rel(1, 0, 'parent_of', 0.9, { evidence: [evidence('c2', 1)], justification: 'best' })],
        ),
      ],
      options(),
    );
    expect(edgeList(result)).toEqual(['Marie Curie parent_of Irène Joliot-Curie']);
    expect(result.relationships[0]).toMatchObject({ confidence: 0.9, justification: 'best' });
    expect(result.relationships[0].evidence.map((item) => `${item.chunkId}:${item.start}`)).toEqual([
      'c1:1',
      'c1:2',
      'c2:1',
    ]);
    expect(result.stats.relationshipsDeduplicated).toBe(2);
    expect(result.stats.relationshipsIn).toBe(3);
  });

  it('collapses both directions of a symmetric type', async () => {
    const result = await finalizeExtraction(
      [
        group(
          [entity('Marie Curie'), entity('Bronisława Skłodowska')],
          [rel(0, 1, 'sibling_of', 0.7), rel(1, 0, 'sibling_of', 0.8)],
        ),
      ],
      options({ inverseRelationships: true }),
    );
    expect(edgeList(result)).toEqual(['Marie Curie sibling_of Bronisława Skłodowska']);
    expect(result.relationships[0].confidence).toBe(0.8);
    expect(result.stats.inversesAdded).toBe(0);
  });

  it.each([
    ['parent_of first', [rel(0, 1, 'parent_of', 0.7), rel(1, 0, 'child_of', 0.9)]],
    ['child_of first', [rel(1, 0, 'child_of', 0.9), rel(0, 1, 'parent_of', 0.7)]],
  ])('collapses an inverse pair into the canonical type (%s)', async (_case, relationships) => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('Irène Joliot-Curie')], relationships)],
      options(),
    );
    expect(edgeList(result)).toEqual(['Marie Curie parent_of Irène Joliot-Curie']);
    expect(result.relationships[0].confidence).toBe(0.9);
  });

  it('keeps a lone inverse-type edge as it is', async () => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('Irène Joliot-Curie')], [rel(1, 0, 'child_of')])],
      options(),
    );
    expect(edgeList(result)).toEqual(['Irène Joliot-Curie child_of Marie Curie']);
  });

  it.each([
    [false, 0, 1],
    [true, 1, 0],
  ])('self-loops from a merge (allowed: %s)', async (allowSelfLoops, kept, dropped) => {
    const result = await finalizeExtraction(
      [
        group(
          [entity('Marie Curie', 'Person', { aliases: ['Madame Curie'] }), entity('Madame Curie')],
          [rel(0, 1, 'friend_of')],
        ),
      ],
      options({ allowSelfLoops }),
    );
    expect(result.relationships).toHaveLength(kept);
    expect(result.stats.selfLoopsDropped).toBe(dropped);
  });

  it('normalises relationship types to snake_case', async () => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('Pierre Curie')], [rel(0, 1, 'Married To'), rel(1, 0, 'married-to')])],
      options(),
    );
    expect(edgeList(result)).toEqual(['Marie Curie married_to Pierre Curie']);
  });
});

describe('strict edge types', () => {
  it.each([
    [true, ['Marie Curie married_to Pierre Curie'], 1],
    [false, ['Marie Curie married_to Pierre Curie', 'Marie Curie admired Pierre Curie'], 0],
  ])('strict %s', async (strictEdgeTypes, edges, dropped) => {
    const result = await finalizeExtraction(
      [group([entity('Marie Curie'), entity('Pierre Curie')], [rel(0, 1, 'married_to'), rel(0, 1, 'admired')])],
      options({ strictEdgeTypes }),
    );
    expect(edgeList(result)).toEqual(edges);
    expect(result.stats.strictTypeDropped).toBe(dropped);
  });
});

describe('direction correction', () => {
  const harvest = () => [
    group(
      [entity('Warsaw', 'Place'), entity('Marie Curie'), entity('Somebody', 'unknown')],
      [rel(0, 1, 'born_in'), rel(1, 0, 'lived_in'), rel(0, 2, 'parent_of')],
    ),
  ];

  it('swaps an edge written backwards', async () => {
    const result = await finalizeExtraction(harvest(), options());
    // Warsaw parent_of Somebody fits neither way round: nothing says which way it should go.
    expect(edgeList(result)).toEqual([
      'Marie Curie born_in Warsaw',
      'Marie Curie lived_in Warsaw',
      'Warsaw parent_of Somebody',
    ]);
    expect(result.relationships.map((edge) => edge.directionCorrected)).toEqual([true, false, false]);
    expect(result.stats.directionCorrected).toBe(1);
    expect(result.stats.directionDropped).toBe(0);
  });

  it('drops it when correction is off', async () => {
    const result = await finalizeExtraction(harvest(), options({ directionCorrection: false }));
    expect(edgeList(result)).toEqual(['Marie Curie lived_in Warsaw', 'Warsaw parent_of Somebody']);
    expect(result.stats.directionDropped).toBe(1);
    expect(result.stats.directionCorrected).toBe(0);
  });

  it('collapses a swapped edge into the same fact stated the right way', async () => {
    const result = await finalizeExtraction(
      [
        group(
          [entity('Warsaw', 'Place'), entity('Marie Curie')],
          [rel(0, 1, 'born_in', 0.9), rel(1, 0, 'born_in', 0.6)],
        ),
      ],
      options(),
    );
    expect(edgeList(result)).toEqual(['Marie Curie born_in Warsaw']);
    expect(result.relationships[0].confidence).toBe(0.9);
    expect(result.stats.relationshipsDeduplicated).toBe(1);
  });
});

describe('caps', () => {
  const PEOPLE = [
    'Ada Lovelace',
    'Charles Babbage',
    'Mary Somerville',
    'Michael Faraday',
    'John Herschel',
    'Caroline Herschel',
    'Augustus De Morgan',
  ];
  const people = (count: number) => PEOPLE.slice(0, count).map((name) => entity(name));
  const run = (
    entities: HarvestedEntity[],
    relationships: HarvestedRelationship[],
    limits: Partial<FinalizeOptions['limits']>,
  ) =>
    finalizeExtraction(
      [group(entities, relationships)],
      options({ limits: { maxRelationshipRatio: null, maxEntityDegree: null, maxSameSourceType: null, ...limits } }),
    );

  it.each([
    [3, 0],
    [2, 1],
  ])('same source and type, cap %d → %d dropped (the weakest)', async (cap, dropped) => {
    const entities = [
      entity('Marie Curie'),
      entity('Warsaw', 'Place'),
      entity('Paris', 'Place'),
      entity('Sceaux', 'Place'),
    ];
    const result = await run(
      entities,
      [rel(0, 1, 'lived_in', 0.9), rel(0, 2, 'lived_in', 0.8), rel(0, 3, 'lived_in', 0.7)],
      { maxSameSourceType: cap },
    );
    expect(result.relationships).toHaveLength(3 - dropped);
    expect(result.stats.cappedBySameSourceType).toBe(dropped);
    if (dropped) expect(edgeList(result)).not.toContain('Marie Curie lived_in Sceaux');
  });

  // A hub with three neighbours, each of which has a second (leaf) neighbour.
  const hub = () => {
    const entities = people(7);
    const relationships = [
      rel(0, 1, 'friend_of', 0.9),
      rel(0, 2, 'friend_of', 0.8),
      rel(0, 3, 'friend_of', 0.7),
      rel(1, 4, 'friend_of'),
      rel(2, 5, 'friend_of'),
      rel(3, 6, 'friend_of'),
    ];
    return { entities, relationships };
  };

  it.each([
    [3, 0],
    [2, 1],
  ])('entity degree, cap %d → %d dropped', async (cap, dropped) => {
    const { entities, relationships } = hub();
    const result = await run(entities, relationships, { maxEntityDegree: cap });
    expect(result.stats.cappedByDegree).toBe(dropped);
    if (dropped) expect(edgeList(result)).not.toContain('Ada Lovelace friend_of Michael Faraday');
  });

  it('never takes an entity’s only edge for the degree cap', async () => {
    const entities = people(5);
    const result = await run(
      entities,
      [rel(0, 1, 'friend_of'), rel(0, 2, 'friend_of'), rel(0, 3, 'friend_of'), rel(0, 4, 'friend_of')],
      { maxEntityDegree: 1 },
    );
    expect(result.relationships).toHaveLength(4);
    expect(result.stats.cappedByDegree).toBe(0);
  });

  // A four-cycle plus a weak chord: every endpoint has two edges or more.
  const cycle = () => [
    rel(0, 1, 'friend_of', 0.9),
    rel(1, 2, 'friend_of', 0.9),
    rel(2, 3, 'friend_of', 0.9),
    rel(3, 0, 'friend_of', 0.9),
    rel(0, 2, 'friend_of', 0.5),
  ];

  it.each([
    [1.25, 0],
    [1, 1],
  ])('relationship ratio %d × 4 entities → %d dropped', async (ratio, dropped) => {
    const result = await run(people(4), cycle(), { maxRelationshipRatio: ratio });
    expect(result.relationships).toHaveLength(5 - dropped);
    expect(result.stats.cappedByRatio).toBe(dropped);
    if (dropped) expect(edgeList(result)).not.toContain('Ada Lovelace friend_of Mary Somerville');
  });

  it('never takes an entity’s only edge for the ratio cap', async () => {
    const result = await run(
      people(5),
      [rel(0, 1, 'friend_of'), rel(0, 2, 'friend_of'), rel(0, 3, 'friend_of'), rel(0, 4, 'friend_of')],
      { maxRelationshipRatio: 0.2 },
    );
    expect(result.relationships).toHaveLength(4);
    expect(result.stats.cappedByRatio).toBe(0);
  });
});

describe('orphans', () => {
  const harvest = () => [
    group([entity('Marie Curie'), entity('Lonely Person'), entity('Pierre Curie')], [rel(0, 2, 'married_to')]),
  ];

  it('drops entities without relationships and remaps the edges', async () => {
    const result = await finalizeExtraction(harvest(), options({ protectOrphans: false }));
    expect(names(result)).toEqual(['Marie Curie', 'Pierre Curie']);
    expect(edgeList(result)).toEqual(['Marie Curie married_to Pierre Curie']);
    expect(result.stats.orphansDropped).toBe(1);
  });

  it('keeps them when protected', async () => {
    const result = await finalizeExtraction(harvest(), options({ protectOrphans: true }));
    expect(names(result)).toEqual(['Marie Curie', 'Lonely Person', 'Pierre Curie']);
    expect(result.stats.orphansDropped).toBe(0);
  });
});

describe('inverse relationships', () => {
  const harvest = () => [
    group(
      [entity('Marie Curie'), entity('Irène Joliot-Curie'), entity('Pierre Curie'), entity('Sorbonne', 'School')],
      [rel(0, 1, 'parent_of'), rel(0, 2, 'married_to'), rel(0, 3, 'works_at'), rel(0, 3, 'lived_in')],
    ),
  ];

  it('mirrors edges of types with an inverse, not symmetric ones or types without', async () => {
    const result = await finalizeExtraction(harvest(), options({ inverseRelationships: true }));
    expect(edgeList(result)).toEqual([
      'Marie Curie parent_of Irène Joliot-Curie',
      'Marie Curie married_to Pierre Curie',
      'Marie Curie works_at Sorbonne',
      'Marie Curie lived_in Sorbonne',
      'Irène Joliot-Curie child_of Marie Curie',
      'Sorbonne employs Marie Curie',
    ]);
    expect(result.relationships.map((edge) => edge.inverseOf)).toEqual([
      null,
      null,
      null,
      null,
      'parent_of',
      'works_at',
    ]);
    expect(result.stats.inversesAdded).toBe(2);
  });

  it('adds none when off', async () => {
    const result = await finalizeExtraction(harvest(), options({ inverseRelationships: false }));
    expect(result.relationships).toHaveLength(4);
    expect(result.stats.inversesAdded).toBe(0);
  });
});

describe('the whole run', () => {
  it('fills every stat, keeps first-seen order and gives the same result twice', async () => {
    const harvests = () => [
      group(
        [entity('Chapter 1', 'unknown'), entity('Marie Curie', 'persons'), entity('Warsaw', 'location')],
        [rel(1, 2, 'born_in'), rel(0, 1, 'created')],
      ),
      group(
        [entity('Pierre Curie'), entity('marie curie'), entity('Curie', 'unknown')],
        [rel(0, 1, 'married_to'), rel(1, 0, 'married_to'), rel(2, 2, 'friend_of')],
      ),
    ];
    const run = () =>
      finalizeExtraction(
        harvests(),
        options({ dedupMode: 'semantic', protectOrphans: false, inverseRelationships: true }),
      );
    const first = await run();
    expect(await run()).toEqual(first);
    expect(names(first)).toEqual(['Marie Curie', 'Warsaw', 'Pierre Curie']);
    expect(first.entities.map((entry) => entry.type)).toEqual(['Person', 'Place', 'Person']);
    const keys: (keyof FinalizeStats)[] = [
      'entitiesIn',
      'relationshipsIn',
      'structuralDropped',
      'exactMerges',
      'semanticMerges',
      'semanticFallbacks',
      'hierarchicalMerges',
      'typesNormalized',
      'relationshipsDeduplicated',
      'selfLoopsDropped',
      'danglingDropped',
      'directionCorrected',
      'directionDropped',
      'strictTypeDropped',
      'cappedByRatio',
      'cappedByDegree',
      'cappedBySameSourceType',
      'orphansDropped',
      'inversesAdded',
    ];
    expect(Object.keys(first.stats).sort()).toEqual([...keys].sort());
    // "Curie" could be either Curie: it stays, loses its self-loop, and goes as an orphan.
    expect(first.stats).toMatchObject({
      entitiesIn: 6,
      relationshipsIn: 5,
      structuralDropped: 1,
      exactMerges: 1,
      semanticMerges: 0,
      hierarchicalMerges: 0,
      typesNormalized: 2,
      danglingDropped: 1,
      selfLoopsDropped: 1,
      relationshipsDeduplicated: 1,
      orphansDropped: 1,
      inversesAdded: 0,
    });
  });

  it('handles no harvests', async () => {
    const result = await finalizeExtraction([], options({ dedupMode: 'semantic' }));
    expect(result.entities).toEqual([]);
    expect(result.relationships).toEqual([]);
    expect(result.stats.entitiesIn).toBe(0);
  });
});
