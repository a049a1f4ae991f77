import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodesByNameKey } from '../../src/graph/index.ts';
import type { Db } from '../../src/storage/connection.ts';
import { at, openTestDatabase, type TestDatabase } from '../search/graph-support.ts';

const nodes = 100_000;

/** The statements `work` sends, with SQLite's plan for each SELECT. */
async function plansOf(db: Db, work: () => Promise<unknown>): Promise<{ sql: string; plan: string[] }[]> {
  const sent: { sql: string; bindings: unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) =>
    sent.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listen);
  try {
    await work();
  } finally {
    db.off('query', listen);
  }
  const plans = [];
  for (const { sql, bindings } of sent.filter((query) => /^\s*select/i.test(query.sql))) {
    const rows = (await db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as never[])) as { detail: string }[];
    plans.push({ sql, plan: rows.map((row) => row.detail) });
  }
  return plans;
}

describe('finding the nodes an extraction names, on a large graph', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestDatabase('rhizome-name-keys-');
    await t.db.raw(`WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${nodes - 1})
      INSERT INTO graph_nodes (id, template_id, label, name_key, extracted, created_at, updated_at)
      SELECT printf('n%06d', i), 'entity', 'Entity ' || i, 'entity ' || i, i % 2, '${at}', '${at}' FROM c`);
    // Two nodes stored before every node kept a name key.
    await t.db('graph_nodes').whereIn('id', ['n000007', 'n000008']).update({ name_key: null });
  }, 60_000);
  afterAll(() => t.close());

  it('finds hand-made and extracted nodes by name key, keying unkeyed ones, through indexes only', async () => {
    const keys = Array.from({ length: 500 }, (_, i) => `entity ${i * 3}`);
    const found = await t.db.transaction((trx) => nodesByNameKey(trx, [...keys, 'entity 7', 'entity 8']));
    expect(found.map((node) => node.id).sort()).toEqual(
      [...Array.from({ length: 500 }, (_, i) => `n${String(i * 3).padStart(6, '0')}`), 'n000007', 'n000008'].sort(),
    );
    expect(await t.db('graph_nodes').whereNull('name_key').count({ n: '*' })).toEqual([{ n: 0 }]);

    const plans = await plansOf(t.db, () => t.db.transaction((trx) => nodesByNameKey(trx, keys)));
    expect(plans.length).toBeGreaterThanOrEqual(2);
    for (const { sql, plan } of plans) {
      expect(
        plan.filter((step) => /^SCAN (n|graph_nodes)\b/.test(step)),
        sql,
      ).toEqual([]);
    }
  });
});
