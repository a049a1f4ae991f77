import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { shippedMigrations } from '../../src/storage/migrations/index.ts';
import { decodeVector, encodeVector } from '../../src/storage/vector-blob.ts';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-0005-'));
  db = openSqlite(path.join(dir, 'app.db'));
});

afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const before0005 = shippedMigrations.filter((migration) => migration.name < '0005');

describe('migration 0005 (node vectors)', () => {
  it('copies node embeddings to node_embeddings, attributed to the chunk model of their dimensions when there is one', async () => {
    await new Migrator(path.join(dir, 'backups'), before0005).apply(db);
    const at = new Date().toISOString();
    const hundred = Array.from({ length: 100 }, (_, index) => index / 100);
    await db('graph_templates').insert({
      id: 't',
      name: 'Thing',
      template_type: 'node',
      properties: '[]',
      embedding: JSON.stringify([1, 0]),
      embedding_model: 'm2',
      embedding_dimensions: 2,
      created_at: at,
      updated_at: at,
    });
    await db('sources').insert({ id: 's', created_at: at, updated_at: at });
    await db('document_chunks').insert({ id: 'c', source_id: 's', chunk_index: 0, content: 'text', created_at: at });
    await db('chunk_embeddings').insert({
      chunk_id: 'c',
      model: 'm100',
      dimensions: 100,
      vector: encodeVector(new Float32Array(100)),
    });
    const node = (id: string, embedding: string | null) => ({
      id,
      template_id: 't',
      label: id,
      properties: '{}',
      embedding,
      created_at: at,
      updated_at: at,
    });
    await db('graph_nodes').insert([
      node('n100', JSON.stringify(hundred)),
      node('n3', '[1,2,3]'),
      node('none', null),
      node('broken', '[1,"x"]'),
      node('garbage', '{oops'),
    ]);

    await new Migrator(path.join(dir, 'backups')).apply(db);
    const rows = (await db('node_embeddings').orderBy('node_id').select()) as {
      node_id: string;
      model: string;
      dimensions: number;
      vector: Buffer;
    }[];
    expect(rows.map(({ node_id, model, dimensions }) => ({ node_id, model, dimensions }))).toEqual([
      { node_id: 'n100', model: 'm100', dimensions: 100 },
      { node_id: 'n3', model: 'user', dimensions: 3 },
    ]);
    expect(Array.from(decodeVector(rows[1].vector, 3))).toEqual([1, 2, 3]);
    expect(decodeVector(rows[0].vector, 100)[42]).toBeCloseTo(0.42, 6);

    // Template vector writes are numbered, whichever statement makes them.
    const seq = async (id: string) =>
      ((await db('graph_templates').where({ id }).first('embedding_seq')) as { embedding_seq: number | null })
        .embedding_seq;
    const first = await seq('t');
    expect(first).toEqual(expect.any(Number));
    await db('graph_templates').insert({
      id: 'u',
      name: 'Other',
      template_type: 'node',
      properties: '[]',
      embedding: '[0,1]',
      embedding_model: 'm2',
      embedding_dimensions: 2,
      created_at: at,
      updated_at: at,
    });
    expect(await seq('u')).toBe(first! + 1);
    await db('graph_templates').where({ id: 't' }).update({ embedding: '[0.5,0.5]' });
    expect(await seq('t')).toBe(first! + 2);
    await db('graph_templates').where({ id: 't' }).update({ name: 'Renamed' });
    expect(await seq('t')).toBe(first! + 2);
  });
});
