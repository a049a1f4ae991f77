import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGraphSearch,
  graphAdjacency,
  personalizedPageRank,
  type GraphSearchDeps,
} from '../../src/search/graph/index.ts';
import type { Db } from '../../src/storage/connection.ts';
import { openTestDatabase, testContext, type TestDatabase } from './graph-support.ts';

const nodes = 100_000;
const edges = 1_000_000;

/**
 * A synthetic graph of 100k nodes and 1M edges, written by SQL in two statements. The degree triggers
 * are suspended for the bulk load (two node updates per edge would triple the load time) and put back
 * as they were; the graph_version triggers stay on.
 */
async function bulkGraph(db: Db): Promise<void> {
  await db.raw('PRAGMA cache_size = -200000');
  await db.raw(`WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${nodes - 1})
    INSERT INTO graph_nodes (id, template_id, label, created_at, updated_at) SELECT printf('n%06d', i), 'entity', 'entity ' || i, 'x', 'x' FROM c`);
  const triggers = (await db.raw(
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'graph_edges_degree_%'",
  )) as { name: string; sql: string }[];
  for (const trigger of triggers) await db.raw(`DROP TRIGGER ${trigger.name}`);
  // Node i / 10 points at a pseudo-random node: an out-degree of 10, in-degrees spread around 10.
  await db.raw(`WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${edges - 1})
    INSERT INTO graph_edges (id, template_id, source_node_id, target_node_id, label, created_at, updated_at)
    SELECT printf('e%07d', i), 'rel', printf('n%06d', i / 10), printf('n%06d', (i * 7919 + 13) % ${nodes}), 'rel ' || (i % 25), 'x', 'x' FROM c`);
  for (const trigger of triggers) await db.raw(trigger.sql);
}

/** Seeds: the nodes whose label is the query (a real, if literal, retrieval); no chunks exist. */
const exactLabel: GraphSearchDeps = {
  seedNodes: async (context, query) =>
    ((await context.db('graph_nodes').where({ label: query }).select('id')) as { id: string }[]).map((row) => ({
      kind: 'node',
      id: row.id,
      score: 1,
    })),
  vectorChunks: async () => [],
  keywordChunks: async () => [],
};

describe('graph search at 1M edges', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase('rhizome-graph-scale-');
    await bulkGraph(t.db);
  }, 120_000);
  afterAll(() => t.close());

  it('builds the adjacency in seconds and tens of MB, and answers PPR queries quickly', async () => {
    const started = performance.now();
    const adjacency = await graphAdjacency(t.db);
    const buildMs = performance.now() - started;
    expect(adjacency).toMatchObject({ nodeCount: nodes, edgeCount: edges });
    expect(adjacency.labels).toHaveLength(25);
    expect(buildMs).toBeLessThan(10_000);
    expect(adjacency.bytes).toBeLessThan(64 * 1024 * 1024);
    const v = adjacency.index.get('n000123')!;
    const codes = adjacency.codes.subarray(adjacency.offsets[v], adjacency.offsets[v + 1]);
    expect(codes.filter((code) => code >= 0)).toHaveLength(10); // out-degree 10
    const row = adjacency.neighbors.subarray(adjacency.offsets[v], adjacency.offsets[v + 1]);
    expect(row.every((u, i) => i === 0 || row[i - 1] <= u)).toBe(true);

    // The whole graph (no max_graph_nodes bound), then the default bound of 50,000 nodes.
    const seeds = new Map([
      [adjacency.index.get('n000007')!, 1],
      [adjacency.index.get('n054321')!, 0.5],
    ]);
    const whole = personalizedPageRank(adjacency, seeds, null, { damping: 0.85 });
    expect(whole.converged).toBe(true);
    expect(whole.scores.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 6);

    const search = createGraphSearch(exactLabel);
    const context = testContext(t.db);
    const times: number[] = [];
    for (const label of ['entity 7', 'entity 99999', 'entity 31337', 'entity 50000', 'entity 1']) {
      const queryStarted = performance.now();
      const result = await search(context, label, { sourceIds: null, templateId: null }, 10);
      times.push(performance.now() - queryStarted);
      expect(result.fallback).toBeNull();
      expect(result.items.filter((item) => item.kind === 'node')).toHaveLength(10);
      expect(result.triples!.length).toBeGreaterThan(0);
      expect(result.triples!.length).toBeLessThanOrEqual(200);
    }
    expect(Math.min(...times)).toBeLessThan(3_000);
    expect(await graphAdjacency(t.db)).toBe(adjacency);
  }, 120_000);
});
