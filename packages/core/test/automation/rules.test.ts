import { describe, expect, it } from 'vitest';
import { compare, conditionHolds, isTruthy } from '../../src/automation/conditions.ts';
import { retryDelayMs } from '../../src/automation/engine/attempts.ts';
import { firstJsonValue } from '../../src/automation/tools/ai-extract-json.ts';
import { matchFilters } from '../../src/automation/triggers/matching.ts';

describe('trigger filters', () => {
  const payload = { entity_type: 'node', entity_id: 'node_1' };

  it('matches by top-level literal equality of every key; an empty filter matches all', () => {
    expect(matchFilters({}, payload)).toEqual({ matches: true });
    expect(matchFilters({ entity_type: 'node' }, payload)).toEqual({ matches: true });
    expect(matchFilters({ entity_type: 'node', entity_id: 'node_1' }, payload)).toEqual({ matches: true });
    expect(matchFilters({ entity_type: 'edge' }, payload)).toEqual({ matches: false });
    expect(matchFilters({ entity_type: 'node', entity_id: 'node_2' }, payload)).toEqual({ matches: false });
  });

  it('never matches a key the payload lacks, and says which key', () => {
    expect(matchFilters({ label: 'Ada' }, payload)).toEqual({ matches: false, absentKey: 'label' });
    // Literal: no coercion, no nested paths, no patterns.
    expect(matchFilters({ entity_id: 1 }, { entity_id: '1' })).toEqual({ matches: false });
    expect(matchFilters({ 'entity.type': 'node' }, { entity: { type: 'node' } })).toEqual({
      matches: false,
      absentKey: 'entity.type',
    });
    expect(matchFilters({ entity_type: 'no*' }, payload)).toEqual({ matches: false });
  });
});

describe('conditions', () => {
  it('judges truthiness as authors mean it', () => {
    for (const value of [null, undefined, false, 0, '', 'false', ' FALSE ', '0', []])
      expect(isTruthy(value), String(value)).toBe(false);
    for (const value of [true, 1, 'yes', [0], {}]) expect(isTruthy(value)).toBe(true);
  });

  it('compares values by operator', () => {
    expect(compare({ value: '10', operator: 'greater_than', compare_to: 9 })).toBe(true);
    expect(compare({ value: 'b', operator: 'less_than', compare_to: 'a' })).toBe(false);
    expect(compare({ value: { a: [1] }, operator: 'equals', compare_to: { a: [1] } })).toBe(true);
    expect(compare({ value: { a: 1 }, operator: 'contains', compare_to: 'a' })).toBe(true);
    expect(compare({ value: null, operator: 'greater_than', compare_to: 1 })).toBe(false);
    expect(conditionHolds({ value: 1, operator: 'not_equals', compare_to: 2 })).toBe(true);
    expect(conditionHolds('false')).toBe(false);
  });
});

describe('retry backoff', () => {
  it('starts at 1 s, doubles and stops at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
});

describe('JSON in model answers', () => {
  it('finds the first JSON value in prose or fences, skipping braces that are not JSON', () => {
    expect(firstJsonValue('Sure! ```json\n{"a": [1, "}"]}\n```')).toEqual({ a: [1, '}'] });
    expect(firstJsonValue('{not json} then [1,2]')).toEqual([1, 2]);
    expect(() => firstJsonValue('no json')).toThrow('without a JSON object or array');
  });
});
