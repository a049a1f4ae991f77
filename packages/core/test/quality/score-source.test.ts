import { describe, expect, it } from 'vitest';
import type { EntityFacts } from '../../src/quality/entity.ts';
import { scoreSource, type SourceGraph } from '../../src/quality/score-source.ts';

const plain: Omit<EntityFacts, 'name'> = {
  type: 'Person',
  descriptionLength: 0,
  confidence: 1,
  chunkCount: 1,
  propertyCount: 0,
  aliasCount: 0,
};
const edge = (sourceNodeId: string, targetNodeId: string, type = 'knows') => ({
  sourceNodeId,
  targetNodeId,
  type,
  sourceName: sourceNodeId,
  targetName: targetNodeId,
  justificationLength: 0,
  confidence: 1,
});
const params = { typeValue: 18, specificity: 15, targetDensity: 2.5, lowQualityThreshold: 40 };

describe('a source scored from its graph', () => {
  // e1..e3 score 43 (3 + 15 + 7 + 18), e4 has no confidence: 28, low quality. Relationships: 5 + 25 + 15 + 15 = 60,
  // the one to an entity of another source 53. e1 and e2 name each other: half the edges are reciprocal.
  const graph: SourceGraph = {
    sourceId: 'src_a',
    title: 'A',
    domain: 'biographical',
    chunkCount: 2,
    entities: [
      { id: 'e1', name: 'e1', ...plain },
      { id: 'e2', name: 'e2', ...plain },
      { id: 'e3', name: 'e3', ...plain },
      { id: 'e4', name: 'e4', ...plain, confidence: 0 },
    ],
    relationships: [
      edge('e1', 'e2'),
      edge('e2', 'e1'),
      edge('e1', 'e3', 'mentors'),
      edge('e1', 'elsewhere', 'mentors'),
    ],
  };

  it('combines every part of formula v7', () => {
    const score = scoreSource(graph, params);
    expect(score.entity_scores.map((entity) => entity.total_score)).toEqual([43, 43, 43, 28]);
    expect(
      score.relationship_scores.map((relationship) => [relationship.valid_refs_score, relationship.total_score]),
    ).toEqual([
      [15, 60],
      [15, 60],
      [15, 60],
      [8, 53],
    ]);
    expect(score).toMatchObject({
      source_id: 'src_a',
      source_title: 'A',
      domain: 'biographical',
      entity_count: 4,
      relationship_count: 4,
      entity_contribution: 63.31,
      relationship_contribution: 136.09,
      connectivity_bonus: 30,
      total_score: 229.4,
      avg_entity_quality: 39.25,
      avg_relationship_quality: 58.25,
      connectivity_ratio: 0.75,
      low_quality_entity_count: 1,
      low_quality_relationship_count: 0,
      density_ratio: 1,
      density_score: 40,
      topology_score: 57.5,
      pollution_penalty: 5,
      hub_skew: 2,
      reciprocal_rate: 0.5,
      structural_penalty: 10,
      coverage_score: 100,
      // 0.5 × 58.25 + 0.35 × 39.25 + 0.15 × 57.5 − 5 − 10
      quality_grade: 36.4875,
      quality_label: 'Fair',
    });
  });

  it('grades a source without relationships by entities and topology only, and one without entities 0', () => {
    const alone = scoreSource({ ...graph, relationships: [] }, params);
    // 0.55 × 39.25 + 0.45 × ((0 + 0) / 2) − pollution (1 of 4 low: 2 full tenths → 10)
    expect(alone).toMatchObject({
      connectivity_ratio: 0,
      topology_score: 0,
      pollution_penalty: 10,
      hub_skew: 1,
      reciprocal_rate: 0,
      quality_grade: 11.5875,
      quality_label: 'Low',
    });
    const empty = scoreSource({ ...graph, entities: [], relationships: [] }, params);
    expect(empty).toMatchObject({
      entity_count: 0,
      quality_grade: 0,
      quality_label: 'Low',
      total_score: 0,
      avg_entity_quality: 0,
      coverage_score: 0,
    });
  });

  it("uses the domain's type value, specificity and target density", () => {
    const score = scoreSource(graph, { ...params, typeValue: 25, specificity: 25, targetDensity: 1 });
    expect(score.entity_scores[0].type_value_score).toBe(25);
    expect(score.relationship_scores[0].specificity_score).toBe(25);
    expect(score.density_score).toBe(100);
  });
});
