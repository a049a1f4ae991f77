import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { shortestPath, traverse, type WalkFilter } from '../../src/graph/walk.ts';
import { nodeNames, resolveName } from '../../src/graph/node-lookup.ts';
import { graphStatistics } from '../../src/graph/statistics.ts';

const at = '2025-01-01T00:00:00.000Z';
const both: WalkFilter = { direction: 'both', relationshipTypes: [] };

/** a → b → c → d, a → e (knows), f alone; d carries the alias "Dee". */
describe('graph walks over graph_edges', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walk-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    await db('graph_templates').insert([
      { id: 'n', name: 'N', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
      { id: 'p', name: 'P', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
      { id: 'l', name: 'L', template_type: 'edge', properties: '[]', created_at: at, updated_at: at },
    ]);
    await db('graph_nodes').insert(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({
        id,
        template_id: id === 'e' ? 'p' : 'n',
        label: id.toUpperCase(),
        properties: id === 'd' ? JSON.stringify({ aliases: ['Dee'] }) : '{}',
        created_at: at,
        updated_at: at,
      })),
    );
    const edge = (from: string, to: string, label = 'next') => ({
      id: `${from}${to}`,
      template_id: 'l',
      source_node_id: from,
      target_node_id: to,
      label,
      created_at: at,
      updated_at: at,
    });
    await db('graph_edges').insert([edge('a', 'b'), edge('b', 'c'), edge('c', 'd'), edge('a', 'e', 'Knows')]);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds the fewest-hops path, against edge direction only when allowed', async () => {
    const path = await shortestPath(db, 'a', 'd', 6, both);
    expect(path?.map((step) => [step.from, step.to, step.forward])).toEqual([
      ['a', 'b', true],
      ['b', 'c', true],
      ['c', 'd', true],
    ]);
    expect((await shortestPath(db, 'd', 'a', 6, both))?.every((step) => !step.forward)).toBe(true);
    expect(await shortestPath(db, 'd', 'a', 6, { direction: 'outgoing', relationshipTypes: [] })).toBeNull();
    expect(await shortestPath(db, 'a', 'd', 2, both)).toBeNull();
    expect(await shortestPath(db, 'a', 'f', 6, both)).toBeNull();
    expect(await shortestPath(db, 'a', 'a', 6, both)).toEqual([]);
  });

  it('follows only the named relationship types, ignoring case', async () => {
    const knows = { direction: 'both' as const, relationshipTypes: ['KNOWS'] };
    expect((await shortestPath(db, 'e', 'a', 6, knows))?.map((step) => step.edge_id)).toEqual(['ae']);
    expect(await shortestPath(db, 'a', 'b', 6, knows)).toBeNull();
  });

  it('traverses breadth first, each node once at its fewest hops, up to a limit', async () => {
    const { reached, truncated } = await traverse(db, 'b', 2, 100, both);
    expect(reached.map((entry) => [entry.node_id, entry.depth]).sort()).toEqual([
      ['a', 1],
      ['c', 1],
      ['d', 2],
      ['e', 2],
    ]);
    expect(truncated).toBe(false);
    const capped = await traverse(db, 'b', 2, 3, both);
    expect([capped.reached.length, capped.truncated]).toEqual([3, true]);
    expect((await traverse(db, 'b', 3, 100, { direction: 'outgoing', relationshipTypes: [] })).reached).toHaveLength(2);
  });

  it('names nodes, resolves a label or an alias ignoring case, and counts the shape of the graph', async () => {
    expect([...(await nodeNames(db, ['a', 'e', 'missing'])).entries()]).toEqual([
      ['a', { label: 'A', template_id: 'n' }],
      ['e', { label: 'E', template_id: 'p' }],
    ]);
    expect(await resolveName(db, ' dee ', 5)).toEqual([{ id: 'd', label: 'D', template_id: 'n', matched: 'alias' }]);
    expect((await resolveName(db, 'c', 5)).map((match) => [match.id, match.matched])).toEqual([['c', 'label']]);
    const shape = await graphStatistics(db);
    expect(shape.counts).toEqual({ nodes: 6, edges: 4, templates: 3 });
    expect(shape.relationship_types).toEqual([
      { type: 'next', count: 3 },
      { type: 'Knows', count: 1 },
    ]);
    expect(shape.degree_distribution).toEqual([
      { degree: '0', nodes: 1 },
      { degree: '1', nodes: 2 },
      { degree: '2-3', nodes: 3 },
      { degree: '4-9', nodes: 0 },
      { degree: '10-99', nodes: 0 },
      { degree: '100+', nodes: 0 },
    ]);
  });
});
