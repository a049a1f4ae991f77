import { describe, expect, it } from 'vitest';
import type { EntityFacts } from '../../src/quality/entity.ts';
import { isGenericLink, unreadableEntity } from '../../src/quality/readability.ts';
import { scoreSource, type SourceGraph } from '../../src/quality/score-source.ts';

const params = { typeValue: 18, specificity: 15, targetDensity: 2.5, lowQualityThreshold: 40 };
const facts: Omit<EntityFacts, 'name' | 'type'> = {
  descriptionLength: 160,
  confidence: 0.9,
  chunkCount: 2,
  propertyCount: 0,
  aliasCount: 1,
};

/**
 * The graph the user got from five documents: people, places and organisations, but also
 * section headings and nationalities as entities, a state typed Person, and almost every link
 * "related_to" — graded "Good (67.6)" before.
 */
function graph(linkType: (index: number) => string, names: [string, string][]): SourceGraph {
  const entities = names.map(([name, type], index) => ({ id: `e${index}`, name, type, ...facts }));
  const relationships = entities.flatMap((entity, index) =>
    [1, 2].map((step, k) => {
      const other = entities[(index + step) % entities.length];
      return {
        sourceNodeId: entity.id,
        targetNodeId: other.id,
        type: linkType(index * 2 + k),
        sourceName: entity.name,
        targetName: other.name,
        justificationLength: 80,
        confidence: 0.5,
      };
    }),
  );
  return { sourceId: 'src_five', title: 'five documents', domain: 'generic', chunkCount: 10, entities, relationships };
}

const readable: [string, string][] = [
  ['Marie Curie', 'Person'],
  ['Pierre Curie', 'Person'],
  ['Warsaw', 'Location'],
  ['University of Paris', 'Organization'],
  ['Neil Armstrong', 'Person'],
  ['Marshall Space Flight Center', 'Organization'],
  ['James Watt', 'Person'],
  ['Greenock', 'Location'],
  ['Ohio', 'Location'],
  ['NASA', 'Organization'],
  ['Geneva', 'Location'],
];
const asExtracted: [string, string][] = [
  ['Marie Curie', 'Person'],
  ['Early', 'Concept'],
  ['Warsaw', 'Location'],
  ['French', 'Concept'],
  ['Neil Armstrong', 'Person'],
  ['Legacy', 'Concept'],
  ['Scottish', 'Concept'],
  ['Return', 'Concept'],
  ['Indiana', 'Person'],
  ['NASA', 'Organization'],
  ['Virginia', 'Person'],
];

describe('quality scores a reader would agree with', () => {
  it('flags heading-like and generic names, nationalities and places typed as people, and leaves real names alone', () => {
    expect(['Early', 'Legacy', 'Return'].map((name) => unreadableEntity(name, 'Concept'))).toEqual([
      'heading',
      'heading',
      'heading',
    ]);
    expect(
      ['French', 'Scottish', 'South African', 'Americans'].map((name) => unreadableEntity(name, 'Concept')),
    ).toEqual(['demonym', 'demonym', 'demonym', 'demonym']);
    expect(unreadableEntity('Indiana', 'Person')).toBe('type_conflict');
    expect(unreadableEntity('Indiana', 'Location')).toBeNull();
    expect(readable.map(([name, type]) => unreadableEntity(name, type))).toEqual(readable.map(() => null));
    expect(['related_to', 'RELATED_TO', 'Related To'].every(isGenericLink)).toBe(true);
    expect(isGenericLink('born_in')).toBe(false);
  });

  it('does not grade the five-document example Good, while the same graph with readable names and typed links stays Good', () => {
    // 91 % related_to, as in the issue.
    const honest = scoreSource(
      graph((index) => (index % 11 === 0 ? 'married_to' : 'related_to'), asExtracted),
      params,
    );
    const clean = scoreSource(
      graph((index) => ['born_in', 'works_at', 'married_to', 'located_in'][index % 4], readable),
      params,
    );
    expect(clean.quality_label).not.toBe('Fair');
    expect(clean.quality_grade).toBeGreaterThanOrEqual(50);
    expect(honest.quality_grade).toBeLessThan(50);
    expect(['Fair', 'Low']).toContain(honest.quality_label);
    expect(honest.low_quality_entity_count).toBe(7);
  });
});
