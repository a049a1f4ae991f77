import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict, NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../src/storage/index.ts';
import { mergedCitations } from '../../src/extraction/citations.ts';
import { GraphEventBus } from '../../src/graph/events.ts';
import { mergeNodes } from '../../src/graph/nodes/merge.ts';
import { undoMerge } from '../../src/graph/nodes/merge-undo.ts';
import { insertNodeRows, type NodeRow } from '../../src/graph/nodes/repo.ts';
import { deleteNode, getNode, listNodes } from '../../src/graph/nodes/service.ts';
import { NodeTags } from '../../src/graph/tags/store.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';

const node = (id: string, label: string): NodeRow => ({
  id,
  template_id: 'person',
  label,
  properties: '{}',
  position_x: null,
  position_y: null,
  embedding: null,
  source_id: null,
  created_at: at,
  updated_at: at,
});

/** Entity tags: names one per database whatever their case, assignments, the list filter, deletes and merges. */
describe.each(dialects)('entity tags on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  let tags: NodeTags;
  const scope = () => ({ db, database: 'tags', events: new GraphEventBus() });

  beforeAll(async () => {
    db = await databases.open('tags');
    tags = new NodeTags(db, 'tags');
    await db('graph_templates').insert({
      id: 'person',
      name: 'Person',
      template_type: 'node',
      properties: '[]',
      created_at: at,
      updated_at: at,
    });
    await insertNodeRows(db, [node('ada', 'Ada'), node('bob', 'Bob'), node('carl', 'Carl'), node('dora', 'Dora')]);
  }, 120_000);
  afterAll(() => databases.close());

  it('creates a tag once whatever the case of its name, renames and refuses a name taken', async () => {
    const vip = await tags.create('VIP', '#aa0000', 'people who matter');
    expect(vip).toMatchObject({ database_name: 'tags', name: 'VIP', color: '#aa0000' });
    expect(await tags.create('vip', null, null)).toEqual(vip);
    const review = await tags.create('to review', null, null);
    await expect(tags.update(review.id, { name: 'Vip' })).rejects.toBeInstanceOf(Conflict);
    expect(await tags.update(review.id, { name: 'To Review' })).toMatchObject({ name: 'To Review' });
    expect((await tags.list()).map((tag) => [tag.name, tag.node_count])).toEqual([
      ['To Review', 0],
      ['VIP', 0],
    ]);
    await expect(tags.update('ntag_missing', { name: 'x' })).rejects.toBeInstanceOf(NotFound);
  });

  it('tags many nodes, a missing one failing alone, and lists and filters nodes by tag', async () => {
    const [vip] = (await tags.list()).filter((tag) => tag.name === 'VIP');
    expect(await tags.attachMany(vip.id, ['ada', 'ghost', 'bob', 'ada'])).toEqual([
      { index: 0, id: 'ada', success: true },
      { index: 1, id: 'ghost', success: false, error: "Node 'ghost' not found" },
      { index: 2, id: 'bob', success: true },
      { index: 3, id: 'ada', success: true },
    ]);
    await expect(tags.attachMany('ntag_missing', ['ada'])).rejects.toBeInstanceOf(NotFound);
    await expect(tags.attach('ghost', vip.id)).rejects.toBeInstanceOf(NotFound);
    const listed = await listNodes(db, { filter: { tagId: vip.id }, window: { offset: 0, limit: 10 } });
    expect(listed.total).toBe(2);
    expect(listed.items.map((item) => item.id).sort()).toEqual(['ada', 'bob']);
    expect((await getNode(db, 'ada')).tags).toEqual([{ id: vip.id, name: 'VIP', color: '#aa0000' }]);
    expect((await getNode(db, 'carl')).tags).toEqual([]);
    expect((await tags.list()).find((tag) => tag.id === vip.id)?.node_count).toBe(2);

    await tags.detach('bob', vip.id);
    await expect(tags.detach('bob', vip.id)).rejects.toBeInstanceOf(NotFound);
    await tags.attach('bob', vip.id);
  });

  it('drops the assignments of a deleted node and of a deleted tag', async () => {
    const temp = await tags.create('temporary', null, null);
    await tags.attachMany(temp.id, ['dora', 'carl']);
    await deleteNode(scope(), 'dora');
    expect(await db('node_tag_links').where({ node_id: 'dora' }).count({ n: '*' })).toEqual([{ n: 0 }]);
    await tags.delete(temp.id);
    expect(await db('node_tag_links').where({ tag_id: temp.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    await expect(tags.delete(temp.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('carries the merged nodes’ tags to the kept node, and its undo gives each its own again', async () => {
    const [review, vip] = await tags.list();
    await tags.attach('carl', review.id);
    const outcome = await mergeNodes(scope(), mergedCitations, 'carl', ['ada'], 30);
    expect(outcome.node.tags?.map((tag) => tag.name)).toEqual(['To Review', 'VIP']);
    expect((await getNode(db, 'bob')).tags?.map((tag) => tag.id)).toEqual([vip.id]);

    await undoMerge(db, mergedCitations, outcome.merge_id);
    expect((await getNode(db, 'carl')).tags?.map((tag) => tag.name)).toEqual(['To Review']);
    expect((await getNode(db, 'ada')).tags?.map((tag) => tag.name)).toEqual(['VIP']);
  });
});
