import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountsRegistry } from '../../src/observability/counts.ts';
import { sourceCount, sourceIds, sourceStamps, sourcesUpdatedSince } from '../../src/observability/read-model.ts';
import { featureModules } from '../../src/platform/modules.ts';
import type { Db } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const stamp = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/** What GET /counts, the dashboard and the change feed of GET /events read of a database, alike on both dialects. */
describe.each(dialects)('observability reads on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  const counts = new CountsRegistry();

  beforeAll(async () => {
    db = await databases.open('observed');
    for (const module of featureModules)
      for (const [name, probe] of Object.entries(module.counts ?? {})) counts.register(name, probe);
    await db('sources').insert([
      { id: 'a', title: 'A', status: 'committed', created_at: stamp(1), updated_at: stamp(1) },
      { id: 'b', title: 'B', status: 'awaiting_confirmation', created_at: stamp(2), updated_at: stamp(5) },
      { id: 'c', title: 'C', status: 'committed', created_at: stamp(3), updated_at: stamp(9) },
    ]);
    await db('graph_templates').insert({
      id: 'person',
      name: 'Person',
      template_type: 'node',
      properties: '[]',
      created_at: stamp(0),
      updated_at: stamp(0),
    });
    await db('graph_nodes').insert(
      ['x', 'y'].map((id) => ({ id, template_id: 'person', label: id, created_at: stamp(0), updated_at: stamp(0) })),
    );
    await db('graph_edges').insert({
      id: 'xy',
      template_id: 'person',
      source_node_id: 'x',
      target_node_id: 'y',
      label: 'knows',
      created_at: stamp(0),
      updated_at: stamp(0),
    });
  }, 120_000);
  afterAll(() => databases.close());

  it('counts what each feature owns, and 0 for what none registers', async () => {
    expect(
      await counts.collect(db, ['sources', 'awaiting_confirmation', 'templates', 'links', 'workflows', 'nothing']),
    ).toEqual({
      sources: 3,
      awaiting_confirmation: 1,
      templates: 1,
      links: 1,
      workflows: 0,
      nothing: 0,
    });
    const all = await counts.collect(db);
    expect(Object.values(all).every((value) => typeof value === 'number')).toBe(true);
    expect(all.knowledge_nodes).toBe(2);
  });

  it('reads the change feed: stamps, sources written since a cursor, their count and ids', async () => {
    expect(await sourceStamps(db)).toEqual(
      new Map([
        ['a', stamp(1)],
        ['b', stamp(5)],
        ['c', stamp(9)],
      ]),
    );
    expect((await sourcesUpdatedSince(db, stamp(5))).map((row) => row.id).sort()).toEqual(['b', 'c']);
    expect(await sourcesUpdatedSince(db, stamp(10))).toEqual([]);
    expect(await sourceCount(db)).toBe(3);
    expect(await sourceIds(db)).toEqual(new Set(['a', 'b', 'c']));
  });
});
