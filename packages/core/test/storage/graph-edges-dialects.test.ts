import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/index.ts';
import {
  deleteEdgeRow,
  findEdgeRow,
  insertEdgeRows,
  listEdgeRows,
  toEdge,
  updateEdgeRow,
  type EdgeRow,
} from '../../src/graph/edges/repo.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };

const edge = (id: string, from: string, to: string, label: string, extra: Partial<EdgeRow> = {}): EdgeRow => ({
  id,
  template_id: 'knows',
  source_node_id: from,
  target_node_id: to,
  label,
  properties: '{}',
  source_id: null,
  ...stamps,
  ...extra,
});

/** The graph's edge rows are written, listed and removed the same way on both dialects. */
describe.each(dialects)('graph edges on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('edges');
    await db('graph_templates').insert([
      { id: 'person', name: 'Person', template_type: 'node', properties: '[]', ...stamps },
      { id: 'knows', name: 'knows', template_type: 'edge', properties: '[]', ...stamps },
    ]);
    await db('sources').insert({ id: 's1', title: 'Letters', ...stamps });
    await db('graph_nodes').insert(
      ['a', 'b', 'c'].map((id) => ({ id, template_id: 'person', label: id.toUpperCase(), ...stamps })),
    );
    await insertEdgeRows(db, [
      edge('ab', 'a', 'b', 'knows', { properties: '{"since":1840}' }),
      edge('bc', 'b', 'c', 'knows', { source_id: 's1' }),
      edge('ca', 'c', 'a', 'admires'),
    ]);
    await db('edge_sources').insert({ edge_id: 'ca', source_id: 's1' });
  }, 120_000);
  afterAll(() => databases.close());

  const degrees = async () =>
    Object.fromEntries(
      (await db('graph_nodes').orderBy('id').select('id', 'degree')).map((row) => [row.id, row.degree]),
    );

  it('stores edges in bulk, keeping the degrees, and reads them back', async () => {
    expect(await degrees()).toEqual({ a: 2, b: 2, c: 2 });
    const ab = await findEdgeRow(db, 'ab');
    expect(ab).toEqual(edge('ab', 'a', 'b', 'knows', { properties: '{"since":1840}' }));
    expect(toEdge(ab!).properties).toEqual({ since: 1840 });
    expect(await findEdgeRow(db, 'nope')).toBeUndefined();
  });

  it('lists edges in creation order by their ends, type and sources', async () => {
    const listed = async (filter: Parameters<typeof listEdgeRows>[1], offset = 0, limit = 10) => {
      const { rows, total } = await listEdgeRows(db, filter, { offset, limit }, true);
      return { ids: rows.map((row) => row.id), total };
    };
    expect(await listed({})).toEqual({ ids: ['ab', 'bc', 'ca'], total: 3 });
    expect(await listed({}, 1, 1)).toEqual({ ids: ['bc'], total: 3 });
    expect(await listed({ sourceNodeId: 'b' })).toEqual({ ids: ['bc'], total: 1 });
    expect(await listed({ targetNodeId: 'a', label: 'admires' })).toEqual({ ids: ['ca'], total: 1 });
    expect(await listed({ label: 'Knows' })).toEqual({ ids: [], total: 0 });
    expect(await listed({ sourceIds: ['s1'] })).toEqual({ ids: ['bc', 'ca'], total: 2 });
  });

  it('updates and deletes an edge, its ends losing the degree', async () => {
    await updateEdgeRow(db, 'ab', { label: 'met', updated_at: '2026-02-01T00:00:00.000Z' });
    expect(await findEdgeRow(db, 'ab')).toMatchObject({ label: 'met', updated_at: '2026-02-01T00:00:00.000Z' });
    expect(await deleteEdgeRow(db, 'ab')).toBe(true);
    expect(await deleteEdgeRow(db, 'ab')).toBe(false);
    expect(await degrees()).toEqual({ a: 1, b: 1, c: 2 });
  });
});
