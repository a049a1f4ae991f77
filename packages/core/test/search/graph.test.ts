import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEdge, deleteEdge } from '../../src/graph/edges/service.ts';
import { GraphEventBus } from '../../src/graph/events.ts';
import {
  buildAdjacencyGraph,
  createGraphSearch,
  graphAdjacency,
  noSeedsFallback,
  personalizedPageRank,
  readGraphVersion,
  scopeMask,
  seedRegion,
  topNodes,
} from '../../src/search/graph/index.ts';
import type { SearchScope } from '../../src/search/types.ts';
import {
  addChunk,
  addEdge,
  addNode,
  addSource,
  exactSearch,
  openTestDatabase,
  testContext,
  testDeps,
  type TestDatabase,
} from './graph-support.ts';

const everywhere: SearchScope = { sourceIds: null, templateId: null };

/** A CSR graph of directed edges given as [from, to] pairs (label 0). */
function tinyGraph(nodeCount: number, edges: [number, number][]) {
  return buildAdjacencyGraph(
    nodeCount,
    Int32Array.from(edges.map((e) => e[0])),
    Int32Array.from(edges.map((e) => e[1])),
    new Int32Array(edges.length),
  );
}

/**
 * The exact PPR of the undirected walk, as numpy would solve it: (I − d·W − d·p·1_danglingᵀ) x = (1 − d) p,
 * W[v][u] = (slots between u and v) / degree(u), everything restricted to the mask.
 */
function exactPpr(
  nodeCount: number,
  edges: [number, number][],
  p: number[],
  damping: number,
  mask: number[] = new Array(nodeCount).fill(1),
): number[] {
  const n = nodeCount;
  const slots = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const [a, b] of edges) {
    if (!mask[a] || !mask[b]) continue;
    slots[a][b]++;
    slots[b][a]++;
  }
  const degree = slots.map((row) => row.reduce((sum, value) => sum + value, 0));
  const a = Array.from({ length: n }, (_, v) =>
    Array.from(
      { length: n },
      (_, u) => (v === u ? 1 : 0) - (degree[u] ? (damping * slots[u][v]) / degree[u] : mask[u] ? damping * p[v] : 0),
    ),
  );
  const b = p.map((value) => (1 - damping) * value);
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    [b[col], b[pivot]] = [b[pivot], b[col]];
    for (let row = 0; row < n; row++) {
      if (row === col || a[col][col] === 0) continue;
      const factor = a[row][col] / a[col][col];
      for (let k = col; k < n; k++) a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  return b.map((value, v) => (a[v][v] ? value / a[v][v] : 0));
}

describe('undirected CSR', () => {
  it('gives every edge a slot at each end, direction in the code, rows sorted by neighbour', () => {
    // 2 → 0 (label 1), 0 → 1 (label 0), 1 → 1 (self-loop, label 2), 0 → 2 (label 0)
    const graph = buildAdjacencyGraph(
      3,
      Int32Array.from([2, 0, 1, 0]),
      Int32Array.from([0, 1, 1, 2]),
      Int32Array.from([1, 0, 2, 0]),
    );
    const neighbors = (v: number) => [...graph.neighbors.subarray(graph.offsets[v], graph.offsets[v + 1])];
    const slots = (v: number) =>
      neighbors(v)
        .map((u, i) => [u, graph.codes[graph.offsets[v] + i]])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(neighbors(0)).toEqual([1, 2, 2]);
    expect(neighbors(1)).toEqual([0, 1, 1]);
    expect(slots(0)).toEqual([
      [1, 0],
      [2, ~1],
      [2, 0],
    ]);
    expect(slots(1)).toEqual([
      [0, ~0],
      [1, ~2],
      [1, 2],
    ]);
    expect(slots(2)).toEqual([
      [0, ~0],
      [0, 1],
    ]);
  });
});

describe('personalized PageRank', () => {
  it('matches the closed form on one edge: x_a = (1 − d) / (1 − d²), x_b = d · x_a', () => {
    const { scores, converged } = personalizedPageRank(tinyGraph(2, [[0, 1]]), new Map([[0, 1]]), null, {
      damping: 0.85,
      tolerance: 1e-14,
      maxIterations: 1000,
    });
    expect(converged).toBe(true);
    expect(scores[0]).toBeCloseTo(0.15 / (1 - 0.85 ** 2), 10); // 0.540540…
    expect(scores[1]).toBeCloseTo((0.85 * 0.15) / (1 - 0.85 ** 2), 10); // 0.459459…
  });

  it('matches the exact linear solve on a small graph with a dangling node, a self-loop and two weighted seeds', () => {
    // 0 → 1 → 2 → 0, 2 → 3, 3 → 3 (self-loop), 4 isolated (dangling), 5 ← 2 and 5 → 1 (parallel path)
    const edges: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 0],
      [2, 3],
      [3, 3],
      [2, 5],
      [5, 1],
      [2, 5],
    ];
    const p = [0.75, 0, 0, 0, 0.25, 0];
    const expected = exactPpr(6, edges, p, 0.85);
    const { scores, iterations } = personalizedPageRank(
      tinyGraph(6, edges),
      new Map([
        [0, 3],
        [4, 1],
      ]),
      null,
      { damping: 0.85, tolerance: 1e-13, maxIterations: 1000 },
    );
    for (let v = 0; v < 6; v++) expect(scores[v]).toBeCloseTo(expected[v], 9);
    expect(scores.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 12);
    expect(iterations).toBeGreaterThan(10);
  });

  it('walks edges in both directions: a node pointing at the seed gets mass', () => {
    const { scores } = personalizedPageRank(
      tinyGraph(3, [
        [1, 0],
        [2, 1],
      ]),
      new Map([[0, 1]]),
      null,
      { damping: 0.85 },
    );
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[2]).toBeGreaterThan(0);
    expect(scores[1]).toBeGreaterThan(scores[2]);
    // x0 = 0.15 + 0.85·x1/2, x1 = 0.85·(x0 + x2), x2 = 0.85·x1/2
    expect(scores[0]).toBeCloseTo(0.15 + (0.85 * scores[1]) / 2, 5);
    expect(scores[2]).toBeCloseTo((0.85 * scores[1]) / 2, 5);
  });

  it('applies a mask without rebuilding: masked nodes hold nothing and do not count in degrees', () => {
    const edges: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 0],
      [1, 3],
    ];
    const mask = [1, 1, 0, 1];
    const expected = exactPpr(4, edges, [0, 1, 0, 0], 0.85, mask);
    const { scores, activeCount } = personalizedPageRank(
      tinyGraph(4, edges),
      new Map([
        [1, 1],
        [2, 5],
      ]),
      Uint8Array.from(mask),
      { damping: 0.85, tolerance: 1e-13, maxIterations: 1000 },
    );
    expect(activeCount).toBe(3);
    expect(scores[2]).toBe(0);
    for (let v = 0; v < 4; v++) expect(scores[v]).toBeCloseTo(expected[v], 9);
  });

  it('stops at the networkx criterion (L1 change < nodes × tolerance) within 100 iterations', () => {
    const ring: [number, number][] = Array.from({ length: 50 }, (_, v) => [v, (v + 1) % 50]);
    const loose = personalizedPageRank(tinyGraph(50, ring), new Map([[0, 1]]), null, { damping: 0.85 });
    expect(loose.converged).toBe(true);
    expect(loose.iterations).toBeLessThan(100);
    const capped = personalizedPageRank(tinyGraph(50, ring), new Map([[0, 1]]), null, {
      damping: 0.85,
      tolerance: 0,
      maxIterations: 7,
    });
    expect(capped).toMatchObject({ converged: false, iterations: 7 });
  });

  it('gives nothing when no seed is in scope', () => {
    const { scores } = personalizedPageRank(tinyGraph(2, [[0, 1]]), new Map([[0, 1]]), Uint8Array.from([0, 1]), {
      damping: 0.85,
    });
    expect([...scores]).toEqual([0, 0]);
  });

  it('ranks the top nodes best first, ties by lower index, skipping zero scores and rejected nodes', () => {
    const scores = Float64Array.from([0.1, 0.4, 0, 0.4, 0.05, 0.3]);
    expect(topNodes(scores, 3)).toEqual([1, 3, 5]);
    expect(topNodes(scores, 10)).toEqual([1, 3, 5, 0, 4]);
    expect(topNodes(scores, 2, (v) => v !== 1)).toEqual([3, 5]);
  });

  it('bounds the region to the nodes nearest the seeds when the scope is larger than max_graph_nodes', () => {
    const path: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [5, 4],
    ];
    const graph = tinyGraph(6, path);
    expect(seedRegion(graph, [2], null, 10)).toBeNull();
    expect([...seedRegion(graph, [2], null, 3)!]).toEqual([0, 1, 1, 1, 0, 0]);
    expect([...seedRegion(graph, [4], Uint8Array.from([1, 1, 1, 0, 1, 1]), 3)!]).toEqual([0, 0, 0, 0, 1, 1]);
  });
});

describe('graph search', () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await openTestDatabase('rhizome-graph-search-');
  });
  afterEach(() => t.close());

  /**
   * The fixture: the query names Marie Curie (A); A —discovered→ Polonium (B) —refined from ore
   * of→ Jachymov Mine (C); C is cited only by chunk X, which shares no word with the query.
   */
  async function curieFixture() {
    const { db } = t;
    await addSource(db, 's1');
    await addNode(db, 'A', 'Marie Curie', { sources: ['s1'], template: 'entity' });
    await addNode(db, 'B', 'Polonium', { sources: ['s1'] });
    await addNode(db, 'C', 'Jachymov Mine', { sources: ['s1'], template: 'place' });
    await addNode(db, 'D', 'Pierre Curie', { sources: ['s1'] });
    await addNode(db, 'E', 'Sorbonne', { sources: ['s1'], template: 'place' });
    await addNode(db, 'Z', 'Lisbon', { sources: ['s1'], template: 'place' });
    await addEdge(db, 'ab', 'A', 'discovered', 'B');
    await addEdge(db, 'bc', 'B', 'refined from ore of', 'C');
    await addEdge(db, 'da', 'D', 'married', 'A');
    await addEdge(db, 'de', 'D', 'taught at', 'E');
    await addChunk(db, 'c1', 's1', 'Marie Curie discovered polonium.', ['A', 'B']);
    await addChunk(db, 'c2', 's1', 'Pierre Curie taught physics at the Sorbonne.', ['D', 'E']);
    await addChunk(db, 'X', 's1', 'Uranium residues shipped from the Bohemian pits at Jachymov in the Ore Mountains.', [
      'C',
    ]);
    await addChunk(db, 'c4', 's1', 'The weather in Lisbon is mild in spring.', ['Z']);
  }

  const query = 'What did Marie Curie discover?';

  it('reaches a passage two hops from the query entity that keyword and vector search miss', async () => {
    await curieFixture();
    const context = testContext(t.db);
    // Keyword (FTS5 over chunks, any query term) and vector search both miss X.
    const terms = ['what', 'did', 'marie', 'curie', 'discover'].map((term) => `"${term}"`).join(' OR ');
    const keyword = (await t.db.raw(
      'SELECT d.id FROM fts_chunks f JOIN document_chunks d ON d.rowid = f.rowid WHERE fts_chunks MATCH ? ORDER BY bm25(fts_chunks)',
      [terms],
    )) as { id: string }[];
    expect(keyword.map((row) => row.id)).not.toContain('X');
    expect(keyword.length).toBeGreaterThan(0);
    const vector = await exactSearch(t.db, 'chunk', query, 100, 0.3);
    expect(vector.map((item) => item.id)).not.toContain('X');
    expect(vector.map((item) => item.id)).toContain('c1');

    const result = await createGraphSearch(testDeps)(context, query, everywhere, 10);
    expect(result.fallback).toBeNull();
    const ids = result.items.map((item) => `${item.kind}:${item.id}`);
    expect(ids).toContain('chunk:X');
    expect(ids).not.toContain('chunk:c4');
    expect(ids).toContain('node:C');
    expect(ids[0]).toBe('chunk:c1'); // cited by the seed and similar to the query: both rankings
    expect(result.items.every((item, i) => i === 0 || item.score <= result.items[i - 1].score)).toBe(true);
    expect(result.triples).toContainEqual({
      source: { id: 'A', label: 'Marie Curie', template_id: 'entity' },
      relationship: 'discovered',
      target: { id: 'B', label: 'Polonium', template_id: 'entity' },
    });
    expect(result.triples).toContainEqual({
      source: { id: 'B', label: 'Polonium', template_id: 'entity' },
      relationship: 'refined from ore of',
      target: { id: 'C', label: 'Jachymov Mine', template_id: 'place' },
    });
    const keys = result.triples!.map((triple) => `${triple.source.id}-${triple.relationship}-${triple.target.id}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the settings: top-k entities, triple cap, template filter', async () => {
    await curieFixture();
    const narrow = testContext(t.db, (settings) => {
      settings.graphrag.ppr_top_k = 2;
      settings.graphrag.max_triples = 1;
    });
    const result = await createGraphSearch(testDeps)(narrow, query, everywhere, 10);
    expect(result.items.filter((item) => item.kind === 'node')).toHaveLength(2);
    expect(result.triples).toHaveLength(1);
    const places = await createGraphSearch(testDeps)(
      testContext(t.db),
      query,
      { sourceIds: null, templateId: 'place' },
      10,
    );
    const nodes = places.items.filter((item) => item.kind === 'node').map((item) => item.id);
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.every((id) => ['C', 'E', 'Z'].includes(id))).toBe(true);
  });

  it('walks from passage seeds alone when the query names no entity, and says when nothing seeds it', async () => {
    await curieFixture();
    const result = await createGraphSearch(testDeps)(testContext(t.db), 'weather in spring', everywhere, 5);
    expect(result.fallback).toBeNull();
    // The passage found by its words hands its mass to the entity it mentions.
    expect(result.items.map((item) => `${item.kind}:${item.id}`)).toEqual(['chunk:c4', 'node:Z']);
    const nothing = await createGraphSearch(testDeps)(testContext(t.db), 'zeppelin', everywhere, 5);
    expect(nothing).toEqual({ items: [], fallback: noSeedsFallback, triples: [] });
  });

  it('serves the cached adjacency until the graph changes, and sees a node or edge write at once', async () => {
    await curieFixture();
    const { db } = t;
    const first = await graphAdjacency(db);
    expect(await graphAdjacency(db)).toBe(first);
    expect(first).toMatchObject({ nodeCount: 6, edgeCount: 4 });

    // Edits the adjacency does not hold leave it (and its version) alone.
    const before = await readGraphVersion(db);
    await db('graph_nodes')
      .where({ id: 'A' })
      .update({ properties: '{"born":1867}', label: 'Marie Skłodowska Curie', position_x: 3 });
    await addChunk(db, 'c5', 's1', 'Another passage.', ['A']);
    expect((await readGraphVersion(db)).structure).toBe(before.structure);
    expect(await graphAdjacency(db)).toBe(first);

    // A node linked only by a new edge (API write path) is reached by the next query.
    await addNode(db, 'F', 'Warsaw', { sources: ['s1'], template: 'place' });
    await addChunk(db, 'cF', 's1', 'The old town by the Vistula river.', ['F']);
    const search = createGraphSearch(testDeps);
    expect((await search(testContext(db), query, everywhere, 20)).items.map((item) => item.id)).not.toContain('F');
    const scope = { db, database: 'test', events: new GraphEventBus() };
    const edge = await createEdge(scope, {
      template_id: 'rel',
      source_node_id: 'A',
      target_node_id: 'F',
      label: 'born in',
    });
    const second = await graphAdjacency(db);
    expect(second).not.toBe(first);
    expect(second.edgeCount).toBe(5);
    const a = second.index.get('A')!;
    const f = second.index.get('F')!;
    const row = [...second.neighbors.subarray(second.offsets[a], second.offsets[a + 1])];
    const code = second.codes[second.offsets[a] + row.indexOf(f)];
    expect(code).toBeGreaterThanOrEqual(0); // leaves A
    expect(second.labels[code]).toBe('born in');
    const back = [...second.neighbors.subarray(second.offsets[f], second.offsets[f + 1])];
    expect(back).toEqual([a]);
    expect(second.labels[~second.codes[second.offsets[f]]]).toBe('born in'); // arrives at F
    const reached = await search(testContext(db), query, everywhere, 20);
    expect(reached.items.map((item) => item.id)).toEqual(expect.arrayContaining(['F', 'cF']));

    // Delete (API) and a raw SQL edge insert (as a commit writes) each invalidate too.
    await deleteEdge(scope, edge.id);
    const third = await graphAdjacency(db);
    expect(third).not.toBe(second);
    expect(third.edgeCount).toBe(4);
    await addEdge(db, 'ez', 'E', 'near', 'Z');
    expect((await graphAdjacency(db)).edgeCount).toBe(5);
    await db('graph_nodes').where({ id: 'Z' }).delete();
    const fifth = await graphAdjacency(db);
    expect(fifth).toMatchObject({ nodeCount: 6, edgeCount: 4 });
    expect(fifth.index.has('Z')).toBe(false);
  });

  it('masks nodes only disabled sources contributed, without rebuilding the adjacency', async () => {
    const { db } = t;
    await addSource(db, 's1');
    await addSource(db, 's2');
    await addNode(db, 'A', 'Marie Curie', { sources: ['s1'] });
    await addNode(db, 'G', 'Radium', { sources: ['s1', 's2'] }); // shared: stays
    await addNode(db, 'F', 'Nobel Committee', { sources: ['s2'] }); // only s2: hidden when s2 is off
    await addNode(db, 'H', 'Stockholm'); // hand-made, reachable only through F
    await addNode(db, 'M', 'Laboratory notebook', { sourceId: 's2' }); // API node of s2
    await addEdge(db, 'ag', 'A', 'discovered', 'G');
    await addEdge(db, 'af', 'A', 'honoured by', 'F');
    await addEdge(db, 'fh', 'F', 'sits in', 'H');
    await addEdge(db, 'am', 'A', 'wrote', 'M');
    await addChunk(db, 'c1', 's1', 'Marie Curie isolated radium.', ['A', 'G']);
    await addChunk(db, 'cF', 's2', 'The committee met in December.', ['F']);
    await addChunk(db, 'cG', 's2', 'Radium glows faintly.', ['G']);
    const search = createGraphSearch(testDeps);
    const ids = async (scope: SearchScope = everywhere, text = 'Marie Curie') =>
      (await search(testContext(db), text, scope, 20)).items.map((item) => item.id);

    const adjacency = await graphAdjacency(db);
    expect((await scopeMask(db, adjacency, everywhere, (await readGraphVersion(db)).scope)).mask).toBeNull();
    expect(await ids()).toEqual(expect.arrayContaining(['A', 'G', 'F', 'H', 'M', 'c1', 'cF', 'cG']));

    await db('sources').where({ id: 's2' }).update({ enabled: false });
    const version = await readGraphVersion(db);
    expect(await graphAdjacency(db)).toBe(adjacency);
    const { mask, size } = await scopeMask(db, adjacency, everywhere, version.scope);
    expect(size).toBe(3);
    expect(['A', 'G', 'H'].every((id) => mask![adjacency.index.get(id)!] === 1)).toBe(true);
    expect(['F', 'M'].every((id) => mask![adjacency.index.get(id)!] === 0)).toBe(true);
    const off = await search(testContext(db), 'Marie Curie', everywhere, 20);
    expect(off.items.map((item) => item.id).sort()).toEqual(['A', 'G', 'c1']); // H is no longer reachable
    expect(off.triples!.map((triple) => `${triple.source.id}-${triple.target.id}`)).toEqual(['A-G']);

    // A scope of sources: only their nodes (hand-made ones belong to none) and chunks.
    await db('sources').where({ id: 's2' }).update({ enabled: true });
    // In s2, Radium (G) has no neighbour (A is s1's), and c1, which also cites it, is s1's.
    expect((await ids({ sourceIds: ['s2'], templateId: null }, 'Radium')).sort()).toEqual(['G', 'cG']);
    // In s1: G's chunk of s2 (cG) is out, and so are F, M (s2) and H (no source).
    expect((await ids({ sourceIds: ['s1'], templateId: null })).sort()).toEqual(['A', 'G', 'c1']);
    const outside = await search(testContext(db), 'Marie Curie', { sourceIds: ['s2'], templateId: null }, 20);
    expect(outside).toMatchObject({ items: [], fallback: noSeedsFallback });
    expect(await graphAdjacency(db)).toBe(adjacency);
  });
});
