import { describe, expect, it } from 'vitest';
import { fuseRankings } from '../../src/chat/extractive-retrieval.ts';

describe('builtin chat: the passages of every search mode, fused', () => {
  it('ranks a passage several modes found above those one mode alone ranked first', () => {
    const keyword = ['python-history', 'licence', 'readme'];
    const graph = ['ssh', 'licence'];
    const hybrid = ['licence'];
    expect(fuseRankings([keyword, graph, hybrid])).toEqual(['licence', 'python-history', 'ssh', 'readme']);
  });

  it('keeps what only one mode found, and the first list breaks ties', () => {
    expect(fuseRankings([['a', 'b'], ['c', 'd'], []])).toEqual(['a', 'c', 'b', 'd']);
    expect(fuseRankings([])).toEqual([]);
  });
});
