import { describe, expect, it } from 'vitest';
import type { EntityFacts } from '../../src/quality/entity.ts';
import { duplicatePenalty, genericLinkPenalty, vaguenessPenalty } from '../../src/quality/penalties.ts';
import { scoreSource, type SourceGraph } from '../../src/quality/score-source.ts';

const plain: Omit<EntityFacts, 'name'> = {
  type: 'Person',
  descriptionLength: 40,
  confidence: 0.9,
  chunkCount: 2,
  propertyCount: 1,
  aliasCount: 0,
};
const ids = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'];
const graphTyped = (type: (index: number) => string): SourceGraph => ({
  sourceId: 'src_v',
  title: 'V',
  domain: null,
  chunkCount: 3,
  entities: ids.map((id) => ({ id, name: `Entity ${id}`, ...plain })),
  relationships: ids.slice(1).map((id, index) => ({
    sourceNodeId: 'e1',
    targetNodeId: id,
    type: type(index),
    sourceName: 'Entity e1',
    targetName: `Entity ${id}`,
    justificationLength: 30,
    confidence: 0.9,
  })),
});
const params = { typeValue: 18, specificity: 15, targetDensity: 2.5, lowQualityThreshold: 40 };

describe('the vagueness penalty', () => {
  it('grows with the share of "related to" links above a fifth and of duplicates above 5%, capped', () => {
    expect(genericLinkPenalty(0.2)).toBe(0);
    expect(genericLinkPenalty(0.6)).toBeCloseTo(5, 10);
    expect(genericLinkPenalty(1)).toBe(10);
    expect(duplicatePenalty(0.05)).toBe(0);
    expect(duplicatePenalty(0.15)).toBeCloseTo(4, 10);
    expect(duplicatePenalty(1)).toBe(10);
    expect(vaguenessPenalty(10, 10)).toBe(15);
  });

  it('grades a source of only related_to links below one with typed links', () => {
    const typed = scoreSource(
      graphTyped((index) => ['born_in', 'works_at', 'married_to', 'studied_at', 'founded'][index]),
      params,
    );
    const generic = scoreSource(
      graphTyped(() => 'related_to'),
      params,
    );
    expect(typed).toMatchObject({ related_to_share: 0, vagueness_penalty: 0 });
    expect(generic).toMatchObject({ related_to_share: 1, vagueness_penalty: 10 });
    expect(generic.quality_grade).toBeLessThan(typed.quality_grade);
  });

  it('grades a source lower when its entities are proposed as probable duplicates', () => {
    const graph = graphTyped(() => 'works_at');
    const clean = scoreSource(graph, params);
    const duplicated = scoreSource(graph, params, new Set(['e2', 'elsewhere']));
    expect(clean).toMatchObject({ duplicate_rate: 0, vagueness_penalty: 0 });
    expect(duplicated.duplicate_rate).toBeCloseTo(1 / 6, 4);
    expect(duplicated.vagueness_penalty).toBeCloseTo((1 / 6 - 0.05) * 40, 3);
    expect(duplicated.quality_grade).toBeCloseTo(clean.quality_grade - duplicated.vagueness_penalty, 3);
  });
});
