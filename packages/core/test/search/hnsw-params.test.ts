import { describe, expect, it } from 'vitest';
import { defaultHnswParams, searchEf } from '../../src/search/vectors/hnsw.ts';

describe('search ef', () => {
  it.each([
    [0, 10, 400],
    [60_000, 10, 400],
    [60_001, 10, 401],
    [300_000, 10, 2_000],
    [480_000, 10, 3_200],
    [1_000_000, 10, 3_200],
    [1_000, 1_000, 1_000],
    [1_000_000, 5_000, 5_000],
  ])('an index of %i items asked for %i neighbours searches with ef %i', (size, k, ef) => {
    expect(searchEf(defaultHnswParams, size, k)).toBe(ef);
  });
});
