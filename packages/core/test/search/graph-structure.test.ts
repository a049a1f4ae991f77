import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphStructure } from '../../src/search/graph/structure.ts';
import { addEdge, addNode, openTestDatabase, type TestDatabase } from './graph-support.ts';

describe('graph structure: communities, clustering, PageRank and isolated nodes', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase('rhizome-structure-');
    // Two triangles (a1 a2 a3, b1 b2 b3) joined by one bridge a1–b1, a pendant p on a1, and two loners.
    for (const id of ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'p']) await addNode(test.db, id, id);
    await addNode(test.db, 'x', 'x', { template: 'place' });
    await addNode(test.db, 'y', 'y', { template: 'place' });
    const edges: [string, string][] = [
      ['a1', 'a2'],
      ['a2', 'a3'],
      ['a3', 'a1'],
      ['b1', 'b2'],
      ['b2', 'b3'],
      ['b3', 'b1'],
      ['a1', 'b1'],
      ['p', 'a1'],
      ['a2', 'a1'], // a parallel edge the other way counts once
    ];
    for (const [index, [from, to]] of edges.entries()) await addEdge(test.db, `e${index}`, from, 'rel', to);
  });
  afterAll(() => test.close());

  it('counts the graph and finds the two triangles as communities', async () => {
    const structure = await graphStructure(test.db);
    expect(structure.statistics).toMatchObject({
      node_count: 9,
      edge_count: 8,
      average_degree: Number((16 / 9).toFixed(3)),
      isolated_nodes: 2,
    });
    // Two communities with edges and the two loners on their own.
    expect(structure.statistics.num_communities).toBe(4);
    const [first, second] = structure.communities;
    expect(new Set([...first.members, ...second.members])).toEqual(new Set(['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'p']));
    expect(first.members).toContain('a1');
    expect(first.members).not.toContain('b2');
    expect(structure.isolated_nodes.sort()).toEqual(['x', 'y']);
    expect(structure.top_nodes[0].id).toBe('a1');
  });

  it('averages the local clustering coefficient over every node', async () => {
    // a1: 4 neighbours (a2 a3 b1 p), one link among them → 1/6; a2, a3, b2, b3: 1; b1: 3 neighbours, 1 link → 1/3.
    const expected = (1 / 6 + 1 + 1 + 1 / 3 + 1 + 1) / 9;
    expect((await graphStructure(test.db)).statistics.average_clustering).toBeCloseTo(expected, 3);
  });

  it('analyses only the nodes of the given templates', async () => {
    const structure = await graphStructure(test.db, { templateIds: ['place'] });
    expect(structure.statistics).toMatchObject({ node_count: 2, edge_count: 0, isolated_nodes: 2 });
    expect(structure.statistics.num_communities).toBe(2);
    expect(structure.top_nodes.map((node) => node.id).sort()).toEqual(['x', 'y']);
  });
});
