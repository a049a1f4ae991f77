import { describe, expect, it } from 'vitest';
import { scoreEntity, type EntityFacts } from '../../src/quality/entity.ts';
import { qualityGrade, qualityLabel, type GradeInputs } from '../../src/quality/grade.ts';
import {
  hubPenalty,
  hubSkew,
  pollutionPenalty,
  reciprocalPenalty,
  reciprocalRate,
  structuralPenalty,
} from '../../src/quality/penalties.ts';
import { scoreRelationship, type RelationshipFacts } from '../../src/quality/relationship.ts';
import { connectivityRatio, countBelow, coverageScore, richness } from '../../src/quality/source.ts';
import { densityRatio, densityScore, topologyScore } from '../../src/quality/topology.ts';

const entity = (facts: Partial<EntityFacts> = {}): EntityFacts => ({
  name: 'Marie Curie',
  type: 'Person',
  descriptionLength: 0,
  confidence: 0,
  chunkCount: 0,
  propertyCount: 0,
  aliasCount: 0,
  ...facts,
});
const relationship = (facts: Partial<RelationshipFacts> = {}): RelationshipFacts => ({
  type: 'married_to',
  sourceName: 'Marie Curie',
  targetName: 'Pierre Curie',
  justificationLength: 0,
  confidence: 0,
  validRefs: 2,
  ...facts,
});

describe('entity score (0-100)', () => {
  it.each([
    [0, 3],
    [19, 3],
    [20, 6],
    [49, 6],
    [50, 10],
    [99, 10],
    [100, 14],
    [149, 14],
    [150, 17],
    [249, 17],
    [250, 20],
    [5000, 20],
  ])('description of %i characters scores %i', (descriptionLength, expected) => {
    expect(scoreEntity(entity({ descriptionLength })).description_score).toBe(expected);
  });

  it.each([
    [-0.5, 0],
    [0, 0],
    [0.5, 7.5],
    [0.8, 12],
    [1, 15],
    [1.7, 15],
  ])('confidence %f scores %f (clamped to 0..1, times 15)', (confidence, expected) => {
    expect(scoreEntity(entity({ confidence })).confidence_score).toBeCloseTo(expected, 10);
  });

  it.each([
    [0, 7],
    [1, 7],
    [2, 8],
    [3, 12],
    [4, 12],
    [5, 15],
    [40, 15],
  ])('%i citing chunks score %i', (chunkCount, expected) => {
    expect(scoreEntity(entity({ chunkCount })).cross_chunk_score).toBe(expected);
  });

  it.each([
    [0, 0],
    [1, 4],
    [2, 7],
    [3, 10],
    [4, 10],
    [5, 13],
    [6, 13],
    [7, 15],
    [20, 15],
  ])('%i properties score %i', (propertyCount, expected) => {
    expect(scoreEntity(entity({ propertyCount })).properties_score).toBe(expected);
  });

  it.each([
    [0, 0],
    [1, 5],
    [2, 8],
    [3, 10],
    [9, 10],
  ])('%i aliases score %i', (aliasCount, expected) => {
    expect(scoreEntity(entity({ aliasCount })).aliases_score).toBe(expected);
  });

  it('takes the domain type value (at most 25), 18 by default, and sums the parts', () => {
    expect(scoreEntity(entity()).type_value_score).toBe(18);
    expect(scoreEntity(entity(), 20).type_value_score).toBe(20);
    expect(scoreEntity(entity(), 40).type_value_score).toBe(25);
    const best = scoreEntity(
      entity({ descriptionLength: 300, confidence: 1, chunkCount: 6, propertyCount: 8, aliasCount: 4 }),
      25,
    );
    expect(best).toMatchObject({ entity_name: 'Marie Curie', entity_type: 'Person', total_score: 100 });
    const worst = scoreEntity(entity(), 0);
    expect(worst.total_score).toBe(3 + 7);
    const mixed = scoreEntity(
      entity({ descriptionLength: 120, confidence: 0.9, chunkCount: 2, propertyCount: 3, aliasCount: 1 }),
    );
    expect(mixed.total_score).toBeCloseTo(14 + 13.5 + 8 + 10 + 5 + 18, 10);
  });
});

describe('relationship score (0-100)', () => {
  it.each([
    [0, 5],
    [9, 5],
    [10, 15],
    [24, 15],
    [25, 22],
    [39, 22],
    [40, 30],
    [49, 30],
    [50, 35],
    [400, 35],
  ])('justification of %i characters scores %i', (justificationLength, expected) => {
    expect(scoreRelationship(relationship({ justificationLength })).justification_score).toBe(expected);
  });

  it.each([
    [-1, 0],
    [0.4, 10],
    [1, 25],
    [2, 25],
  ])('confidence %f scores %f', (confidence, expected) => {
    expect(scoreRelationship(relationship({ confidence })).confidence_score).toBeCloseTo(expected, 10);
  });

  it.each([
    [2, 15],
    [1, 8],
    [0, 0],
  ] as const)('%i valid endpoints score %i', (validRefs, expected) => {
    expect(scoreRelationship(relationship({ validRefs })).valid_refs_score).toBe(expected);
  });

  it('takes the domain specificity (at most 25), 15 by default, and sums the parts', () => {
    expect(scoreRelationship(relationship()).specificity_score).toBe(15);
    expect(scoreRelationship(relationship(), 30).specificity_score).toBe(25);
    const best = scoreRelationship(relationship({ justificationLength: 80, confidence: 1 }), 25);
    expect(best).toMatchObject({
      relationship_type: 'married_to',
      source_entity: 'Marie Curie',
      target_entity: 'Pierre Curie',
      total_score: 100,
    });
    expect(scoreRelationship(relationship({ validRefs: 0 }), 0).total_score).toBe(5);
  });
});

describe('source parts', () => {
  it('weighs each item by its score squared and adds 10 per connected entity', () => {
    expect(richness([100, 50], [80], 2)).toEqual({
      entity_contribution: 125,
      relationship_contribution: 64,
      connectivity_bonus: 20,
      total_score: 209,
    });
    expect(richness([], [], 0).total_score).toBe(0);
  });

  it('computes connectivity, coverage and the low-quality count', () => {
    expect(connectivityRatio(3, 4)).toBe(0.75);
    expect(connectivityRatio(0, 0)).toBe(0);
    expect(coverageScore(5, 10)).toBe(50);
    expect(coverageScore(30, 10)).toBe(100);
    expect(coverageScore(3, 0)).toBe(0);
    expect(countBelow([39.99, 40, 12, 80], 40)).toBe(2);
  });
});

describe('topology', () => {
  it.each([
    // [ratio, target, score]
    [0, 2.5, 0],
    [1.25, 2.5, 50],
    [2.5, 2.5, 100],
    [3.75, 2.5, 75],
    [5, 2.5, 50],
    [7.5, 2.5, 0],
    [10, 2.5, 0],
    [1, 2, 50],
    [3, 2, 75],
  ])('density ratio %f with target %f scores %f (bell around the target, floor 0)', (ratio, target, expected) => {
    expect(densityScore(ratio, target)).toBeCloseTo(expected, 10);
  });

  it('uses a target of 2.5 by default, divides relationships by entities and averages connectivity with density', () => {
    expect(densityScore(2.5)).toBe(100);
    expect(densityRatio(10, 4)).toBe(2.5);
    expect(densityRatio(3, 0)).toBe(0);
    expect(topologyScore(0.5, 80)).toBe(65);
  });
});

describe('penalties', () => {
  it.each([
    // [low items, all items, penalty]: 5 per full 10%, at most 15
    [0, 10, 0],
    [0, 0, 0],
    [9, 100, 0],
    [1, 10, 5],
    [19, 100, 5],
    [2, 10, 10],
    [3, 10, 15],
    [7, 10, 15],
    [10, 10, 15],
  ])('%i low-quality items of %i cost %i', (low, total, expected) => {
    expect(pollutionPenalty(low, total)).toBe(expected);
  });

  it('measures hub skew as max over median degree of connected entities', () => {
    expect(hubSkew([])).toBe(1);
    expect(hubSkew([0, 0])).toBe(1);
    expect(hubSkew([2, 2, 2])).toBe(1);
    expect(hubSkew([1, 1, 1, 9])).toBe(9);
    expect(hubSkew([0, 1, 2, 3, 12])).toBe(12 / 2.5);
  });

  it.each([
    // [skew, entities, penalty]: only with at least 10 entities and a skew above 3; 2 per unit above 3, at most 10
    [8, 9, 0],
    [3, 10, 0],
    [3.5, 10, 1],
    [4, 10, 2],
    [7.9, 12, 9.8],
    [8, 10, 10],
    [30, 50, 10],
  ])('hub skew %f over %i entities costs %f', (skew, entities, expected) => {
    expect(hubPenalty(skew, entities)).toBeCloseTo(expected, 10);
  });

  it('counts edges whose reverse of the same type exists', () => {
    expect(reciprocalRate([])).toBe(0);
    const edges = [
      { source: 'a', target: 'b', type: 'knows' },
      { source: 'b', target: 'a', type: 'knows' },
      { source: 'a', target: 'c', type: 'parent_of' },
      { source: 'c', target: 'a', type: 'child_of' },
    ];
    expect(reciprocalRate(edges)).toBe(0.5);
  });

  it.each([
    [0, 0],
    [0.1, 0],
    [0.12, 1],
    [0.2, 5],
    [0.3, 10],
    [0.9, 10],
  ])('reciprocal rate %f costs %f', (rate, expected) => {
    expect(reciprocalPenalty(rate)).toBeCloseTo(expected, 10);
  });

  it('sums hub and reciprocal penalties up to 15', () => {
    expect(structuralPenalty(4, 5)).toBe(9);
    expect(structuralPenalty(10, 10)).toBe(15);
  });
});

describe('grade and label', () => {
  const inputs = (overrides: Partial<GradeInputs> = {}): GradeInputs => ({
    entityCount: 10,
    relationshipCount: 5,
    avgEntityQuality: 60,
    avgRelationshipQuality: 80,
    topology: 40,
    pollutionPenalty: 0,
    structuralPenalty: 0,
    vaguenessPenalty: 0,
    ...overrides,
  });

  it('weighs R 0.50, E 0.35 and T 0.15 when there are relationships', () => {
    expect(qualityGrade(inputs())).toBeCloseTo(0.5 * 80 + 0.35 * 60 + 0.15 * 40, 10);
  });

  it('weighs E 0.55 and T 0.45 without relationships (the relationship average is ignored)', () => {
    expect(qualityGrade(inputs({ relationshipCount: 0, avgRelationshipQuality: 99 }))).toBeCloseTo(
      0.55 * 60 + 0.45 * 40,
      10,
    );
  });

  it('subtracts the penalties, clamps to 0-100, and grades a source without entities 0', () => {
    expect(qualityGrade(inputs({ pollutionPenalty: 10, structuralPenalty: 5 }))).toBeCloseTo(67 - 15, 10);
    expect(qualityGrade(inputs({ pollutionPenalty: 10, structuralPenalty: 5, vaguenessPenalty: 7 }))).toBeCloseTo(
      67 - 22,
      10,
    );
    expect(
      qualityGrade(inputs({ avgEntityQuality: 0, avgRelationshipQuality: 0, topology: 0, pollutionPenalty: 15 })),
    ).toBe(0);
    expect(qualityGrade(inputs({ avgEntityQuality: 100, avgRelationshipQuality: 100, topology: 100 }))).toBe(100);
    expect(qualityGrade(inputs({ entityCount: 0, relationshipCount: 0 }))).toBe(0);
  });

  it.each([
    [100, 'Outstanding'],
    [85, 'Outstanding'],
    [84.99, 'Excellent'],
    [70, 'Excellent'],
    [69.99, 'Good'],
    [50, 'Good'],
    [49.99, 'Fair'],
    [30, 'Fair'],
    [29.99, 'Low'],
    [0, 'Low'],
  ])('grade %f is labelled %s', (grade, label) => {
    expect(qualityLabel(grade)).toBe(label);
  });
});
