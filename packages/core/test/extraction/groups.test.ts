import { describe, expect, it } from 'vitest';
import { extractionGroups, sampleGroups } from '../../src/extraction/groups.ts';

describe('extraction groups', () => {
  it('packs chunks up to the token target with one chunk of overlap, always taking the first chunk', () => {
    const chunks = (tokens: number[]) => tokens.map((tokenEstimate, index) => ({ index, tokenEstimate }));
    const packed = extractionGroups(chunks([300, 300, 300, 300, 300, 300, 300]), 900, 1);
    expect(packed.map((g) => [g.firstChunkIndex, g.lastChunkIndex, g.tokens])).toEqual([
      [0, 2, 900],
      [2, 4, 900],
      [4, 6, 900],
    ]);
    const oversized = extractionGroups(chunks([2000, 100, 100, 5000]), 900, 1);
    expect(oversized.map((g) => [g.firstChunkIndex, g.lastChunkIndex])).toEqual([
      [0, 0],
      [1, 2],
      [2, 2],
      [3, 3],
    ]);
    expect(extractionGroups([], 900, 1)).toEqual([]);
  });

  it('samples groups evenly for quick depth', () => {
    const groups = Array.from({ length: 20 }, (_, i) => i);
    expect(sampleGroups(groups, 5)).toEqual([2, 6, 10, 14, 18]);
    expect(sampleGroups(groups, 1)).toEqual([10]);
    expect(sampleGroups([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });
});
