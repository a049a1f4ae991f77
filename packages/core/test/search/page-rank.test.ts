import { describe, expect, it } from 'vitest';
import { buildAdjacencyGraph } from '../../src/search/graph/adjacency.ts';
import { pageRank, personalizedPageRank, topNodes } from '../../src/search/graph/ppr.ts';

/** The undirected CSR of directed edges given as pairs. */
const graphOf = (nodeCount: number, edges: [number, number][]) =>
  buildAdjacencyGraph(
    nodeCount,
    Int32Array.from(edges.map(([s]) => s)),
    Int32Array.from(edges.map(([, t]) => t)),
    new Int32Array(edges.length),
  );

const sum = (values: Float64Array) => values.reduce((total, value) => total + value, 0);

describe('pageRank: the uniform case of the one PageRank', () => {
  it('ranks a hub first, its leaves alike, and sums to 1', () => {
    // 0 is the hub of leaves 1–4; 5 and 6 are a pair; 7 is alone.
    const graph = graphOf(8, [
      [1, 0],
      [2, 0],
      [0, 3],
      [4, 0],
      [5, 6],
    ]);
    const { scores, converged } = pageRank(graph, null, { damping: 0.85 });
    expect(converged).toBe(true);
    expect(sum(scores)).toBeCloseTo(1, 9);
    expect(topNodes(scores, 1)).toEqual([0]);
    for (const leaf of [2, 3, 4]) expect(scores[leaf]).toBeCloseTo(scores[1], 9);
    expect(scores[5]).toBeCloseTo(scores[6], 9);
    expect(scores[0]).toBeGreaterThan(scores[5]);
    // Without neighbours a node keeps only its share of the restart, the least of all.
    expect(Math.min(...scores)).toBe(scores[7]);
  });

  it('is personalized PageRank with every node of the mask weighted alike', () => {
    const graph = graphOf(5, [
      [0, 1],
      [1, 2],
      [2, 0],
      [2, 3],
    ]);
    const mask = Uint8Array.from([1, 1, 1, 1, 0]);
    const uniform = new Map([0, 1, 2, 3].map((v) => [v, 1]));
    const expected = personalizedPageRank(graph, uniform, mask, { damping: 0.85 }).scores;
    const { scores } = pageRank(graph, mask, { damping: 0.85 });
    expect([...scores]).toEqual([...expected]);
    expect(scores[4]).toBe(0);
    expect(sum(scores)).toBeCloseTo(1, 9);
  });
});
