import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

describe('node degree kept by triggers', () => {
  let db: Db;
  afterEach(() => db.destroy());

  it('follows edge inserts, moves, deletes and node cascades, counting a self-loop twice', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'degree-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    const at = new Date().toISOString();
    await db('graph_templates').insert([
      { id: 'n', name: 'N', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
      { id: 'l', name: 'L', template_type: 'edge', properties: '[]', created_at: at, updated_at: at },
    ]);
    await db('graph_nodes').insert(
      ['a', 'b', 'c'].map((id) => ({ id, template_id: 'n', label: id, created_at: at, updated_at: at })),
    );
    const edge = (id: string, from: string, to: string) => ({
      id,
      template_id: 'l',
      source_node_id: from,
      target_node_id: to,
      label: 'r',
      created_at: at,
      updated_at: at,
    });
    await db('graph_edges').insert([edge('ab', 'a', 'b'), edge('ac', 'a', 'c'), edge('aa', 'a', 'a')]);
    const degrees = async () =>
      Object.fromEntries(
        ((await db('graph_nodes').select('id', 'degree').orderBy('id')) as { id: string; degree: number }[]).map(
          (row) => [row.id, row.degree],
        ),
      );
    expect(await degrees()).toEqual({ a: 4, b: 1, c: 1 });
    await db('graph_edges').where({ id: 'ac' }).update({ target_node_id: 'b' });
    expect(await degrees()).toEqual({ a: 4, b: 2, c: 0 });
    await db('graph_edges').where({ id: 'aa' }).delete();
    expect(await degrees()).toEqual({ a: 2, b: 2, c: 0 });
    await db('graph_nodes').where({ id: 'a' }).delete();
    expect(await degrees()).toEqual({ b: 0, c: 0 });
  });
});
