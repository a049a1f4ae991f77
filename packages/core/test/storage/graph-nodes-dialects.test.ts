import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/index.ts';
import { decodeVector } from '../../src/storage/index.ts';
import { connectionsPage } from '../../src/graph/nodes/navigation.ts';
import {
  deleteNodeRow,
  findNodeRow,
  insertNodeRows,
  listNodeRows,
  nodeStats,
  nodeTemplates,
  updateNodeRow,
  type NodeRow,
} from '../../src/graph/nodes/repo.ts';
import {
  dropDerivedNodeVector,
  nodesLackingVectors,
  setClientNodeVector,
  storeClientNodeVectors,
  storeNodeVectors,
} from '../../src/graph/nodes/vectors.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };

const node = (id: string, label: string, template = 'person', extra: Partial<NodeRow> = {}): NodeRow => ({
  id,
  template_id: template,
  label,
  properties: '{}',
  position_x: null,
  position_y: null,
  embedding: null,
  source_id: null,
  ...stamps,
  ...extra,
});

/** The graph's node repository, vectors and connections give the same answers on both dialects. */
describe.each(dialects)('graph nodes on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('nodes');
    await db('graph_templates').insert([
      { id: 'person', name: 'Person', template_type: 'node', properties: '[]', ...stamps },
      { id: 'place', name: 'Place', template_type: 'node', properties: '[]', ...stamps },
      { id: 'knows', name: 'knows', template_type: 'edge', properties: '[]', ...stamps },
    ]);
    await db('sources').insert({ id: 's1', title: 'Letters', ...stamps });
    await insertNodeRows(db, [
      node('ada', 'Ada Lovelace', 'person', { properties: '{"born":1815}', position_x: 1, position_y: 2 }),
      node('bob', 'bob', 'person', { source_id: 's1' }),
      node('carl', 'Carl', 'person'),
      node('london', 'London', 'place'),
    ]);
    const edge = (id: string, from: string, to: string, label: string) => ({
      id,
      template_id: 'knows',
      source_node_id: from,
      target_node_id: to,
      label,
      properties: '{}',
      ...stamps,
    });
    await db('graph_edges').insert([
      edge('e1', 'ada', 'bob', 'knows'),
      edge('e2', 'carl', 'ada', 'Admires'),
      edge('e3', 'ada', 'london', 'lives in'),
      edge('e4', 'ada', 'ada', 'knows'),
      edge('e5', 'bob', 'carl', 'knows'),
    ]);
  }, 120_000);
  afterAll(() => databases.close());

  it('stores nodes with their name keys and reads, lists, counts, updates and deletes them', async () => {
    expect(await findNodeRow(db, 'ada')).toEqual(
      node('ada', 'Ada Lovelace', 'person', { properties: '{"born":1815}', position_x: 1, position_y: 2 }),
    );
    expect((await db('graph_nodes').where({ id: 'ada' }).first('name_key'))?.name_key).toBeTruthy();
    expect(Object.fromEntries(await nodeTemplates(db, ['bob', 'london', 'nobody', 'bob']))).toEqual({
      bob: 'person',
      london: 'place',
    });

    const page = await listNodeRows(db, { templateId: 'person' }, { offset: 1, limit: 2 }, true);
    expect(page).toEqual({
      total: 3,
      rows: [
        { id: 'bob', label: 'bob', template_id: 'person', position_x: null, position_y: null },
        { id: 'carl', label: 'Carl', template_id: 'person', position_x: null, position_y: null },
      ],
    });
    expect(
      (await listNodeRows(db, { sourceIds: ['s1'] }, { offset: 0, limit: 10 }, false)).rows.map((r) => r.id),
    ).toEqual(['bob']);
    const byDegree = await listNodeRows(db, {}, { offset: 0, limit: 10, order: { by: 'degree' } }, true);
    expect(byDegree.rows.map((row) => row.id)).toEqual(['ada', 'bob', 'carl', 'london']);

    expect(Object.fromEntries(await nodeStats(db, ['ada', 'london']))).toEqual({
      ada: {
        edge_count: 5,
        incoming_edge_count: 2,
        outgoing_edge_count: 3,
        citation_count: 0,
        relationship_type_count: 3,
      },
      london: {
        edge_count: 1,
        incoming_edge_count: 1,
        outgoing_edge_count: 0,
        citation_count: 0,
        relationship_type_count: 1,
      },
    });

    await updateNodeRow(db, 'carl', { label: 'Carl Gauss', updated_at: '2026-02-01T00:00:00.000Z' });
    expect(await findNodeRow(db, 'carl')).toMatchObject({
      label: 'Carl Gauss',
      updated_at: '2026-02-01T00:00:00.000Z',
    });
    await insertNodeRows(db, [node('temp', 'Temporary')]);
    expect(await deleteNodeRow(db, 'temp')).toBe(true);
    expect(await deleteNodeRow(db, 'temp')).toBe(false);
  });

  it('pages a node’s connections in every order, names compared regardless of case', async () => {
    const page = async (sort: 'edge_count' | 'label' | 'relationship', offset = 0, limit = 10) => {
      const { rows, total } = await connectionsPage(db, 'ada', sort, { offset, limit });
      return { total, rows: rows.map((row) => `${row.direction}:${row.relationship}:${row.id}:${row.edge_count}`) };
    };
    expect(await page('label')).toEqual({
      total: 4,
      rows: ['outgoing:knows:ada:5', 'outgoing:knows:bob:2', 'incoming:Admires:carl:2', 'outgoing:lives in:london:1'],
    });
    expect((await page('relationship')).rows).toEqual([
      'incoming:Admires:carl:2',
      'outgoing:knows:ada:5',
      'outgoing:knows:bob:2',
      'outgoing:lives in:london:1',
    ]);
    expect(await page('edge_count', 1, 2)).toEqual({
      total: 4,
      rows: ['outgoing:knows:bob:2', 'incoming:Admires:carl:2'],
    });
    expect(await page('label', 9)).toEqual({ total: 4, rows: [] });
    expect(await connectionsPage(db, 'nobody', 'label', { offset: 0, limit: 5 })).toEqual({ rows: [], total: 0 });
  });

  it('replaces a node’s vector under a new rowid and finds the nodes lacking a usable one', async () => {
    const identity = { provider: 'builtin', model: 'm', dimensions: 2 } as const;
    const vectors = async () =>
      (await db('node_embeddings').orderBy('rowid').select('rowid', 'node_id', 'model', 'dimensions', 'vector')).map(
        (row) => ({ ...row, vector: [...decodeVector(row.vector, row.dimensions)] }),
      );
    await storeNodeVectors(db, [
      { nodeId: 'ada', model: 'm', vector: Float32Array.of(0.5, 0.25) },
      { nodeId: 'bob', model: 'old', vector: Float32Array.of(1, 1) },
    ]);
    await storeClientNodeVectors(db, [
      { id: 'london', embedding: [2, 3, 4] },
      { id: 'carl', embedding: null },
    ]);
    const first = await vectors();
    expect(first.map((row) => [row.node_id, row.model, row.vector])).toEqual([
      ['ada', 'm', [0.5, 0.25]],
      ['bob', 'old', [1, 1]],
      ['london', 'user', [2, 3, 4]],
    ]);
    expect((await findNodeRow(db, 'ada'))?.embedding).toBe('[0.5,0.25]');
    expect((await nodesLackingVectors(db, identity, 0, 10)).map((row) => row.id)).toEqual(['bob', 'carl']);

    await storeNodeVectors(db, [
      { nodeId: 'bob', model: 'x', vector: Float32Array.of(7, 7) },
      { nodeId: 'bob', model: 'm', vector: Float32Array.of(3, 3) },
    ]);
    const second = await vectors();
    const bob = second.find((row) => row.node_id === 'bob')!;
    expect(bob).toMatchObject({ model: 'm', vector: [3, 3] });
    expect(bob.rowid).toBeGreaterThan(Math.max(...first.map((row) => row.rowid)));
    expect(second.map((row) => row.node_id)).toEqual(['ada', 'london', 'bob']);

    expect(await dropDerivedNodeVector(db, 'london')).toBe(false);
    expect(await dropDerivedNodeVector(db, 'ada')).toBe(true);
    await setClientNodeVector(db, 'london', null);
    const [carl] = await db('graph_nodes').where({ id: 'carl' }).select('rowid');
    expect(await nodesLackingVectors(db, identity, 0, 2)).toEqual([
      expect.objectContaining({ id: 'ada' }),
      { rowid: carl.rowid, id: 'carl' },
    ]);
  });
});
