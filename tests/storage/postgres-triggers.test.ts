import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, postgresBackups, PostgresServer, quoteIdentifier, schemaOf, type Db } from '@rhizome/core/storage';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';

const at = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };

/** The PL/pgSQL triggers of the PostgreSQL head schema keep what SQLite's triggers keep. */
describe('the PostgreSQL schema’s triggers', () => {
  let postgres: TestPostgres;
  let server: PostgresServer;
  let db: Db;

  beforeAll(async () => {
    postgres = await startPostgres();
    server = new PostgresServer(postgres.url);
    await server.query(`CREATE SCHEMA ${quoteIdentifier(schemaOf('triggers'))}`);
    db = server.database('triggers');
    const backups = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-pgtrg-'));
    await new Migrator(backups, undefined, postgresBackups(postgres.url, schemaOf('triggers'))).apply(db);
    await db('graph_templates').insert([
      { id: 'n', name: 'N', template_type: 'node', properties: '[]', ...stamps },
      { id: 'l', name: 'L', template_type: 'edge', properties: '[]', ...stamps },
    ]);
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    await server?.close();
    await postgres?.stop();
  });

  const degrees = async () =>
    Object.fromEntries(
      (await db('graph_nodes').orderBy('id').select('id', 'degree')).map((row) => [row.id, row.degree]),
    );
  const version = async () =>
    (await db('graph_version').first('structure', 'scope')) as { structure: number; scope: number };

  it('keeps node degrees through edge inserts, moves, deletes and cascades, and bumps the graph version', async () => {
    const start = await version();
    await db('graph_nodes').insert(['a', 'b', 'c'].map((id) => ({ id, template_id: 'n', label: id, ...stamps })));
    const edge = (id: string, from: string, to: string) => ({
      id,
      template_id: 'l',
      source_node_id: from,
      target_node_id: to,
      label: 'r',
      ...stamps,
    });
    await db('graph_edges').insert([edge('ab', 'a', 'b'), edge('aa', 'a', 'a'), edge('bc', 'b', 'c')]);
    expect(await degrees()).toEqual({ a: 3, b: 2, c: 1 });
    await db('graph_edges').where({ id: 'bc' }).update({ source_node_id: 'c' });
    expect(await degrees()).toEqual({ a: 3, b: 1, c: 2 });
    await db('graph_nodes').where({ id: 'b' }).delete();
    expect(await degrees()).toEqual({ a: 2, c: 2 });
    const after = await version();
    expect(after.structure).toBeGreaterThanOrEqual(start.structure + 5);
    await db('graph_nodes').where({ id: 'a' }).update({ properties: '{"x":1}' });
    expect(await version()).toEqual(after);
    await db('graph_nodes').where({ id: 'a' }).update({ template_id: 'n' });
    expect((await version()).structure).toBe(after.structure + 1);
  });

  it('indexes chunks with their source’s title weighted A and the text D, and drops them with the chunk', async () => {
    await db('sources').insert({ id: 's1', title: 'Frank Lloyd Wright', ...stamps });
    await db('document_chunks').insert([
      { id: 'c1', source_id: 's1', chunk_index: 0, content: 'Houses built on prairies', created_at: at },
      { id: 'c2', source_id: 's1', chunk_index: 1, content: 'More houses and a museum', created_at: at },
    ]);
    const [c1] = await db('document_chunks').where({ id: 'c1' }).select('rowid');
    await db('chunk_vectors').insert({ chunk_rowid: c1.rowid, model: 'm', dimensions: 1, vector: Buffer.alloc(4) });
    const indexed = async () =>
      (
        await db.raw(
          `SELECT f.title, f.document::text AS document FROM fts_chunks f JOIN document_chunks c ON c.rowid = f.rowid
           WHERE c.source_id = 's1' ORDER BY c.chunk_index`,
        )
      ).rows as { title: string; document: string }[];
    const [first] = await indexed();
    expect(first.title).toBe('Frank Lloyd Wright');
    expect(first.document).toContain("'wright':3A");
    expect(first.document).toContain("'prairi':7 ");
    expect(first.document).not.toContain("'prairi':7A");

    const ranked = (
      await db.raw(
        `SELECT c.id FROM fts_chunks f JOIN document_chunks c ON c.rowid = f.rowid
         WHERE f.document @@ to_tsquery('english', 'museum | wright') ORDER BY ts_rank_cd(f.document, to_tsquery('english', 'museum | wright')) DESC, c.id`,
      )
    ).rows.map((row: { id: string }) => row.id);
    expect(ranked).toEqual(['c2', 'c1']);

    await db('sources').where({ id: 's1' }).update({ title: 'Fallingwater' });
    expect((await indexed()).map((row) => row.title)).toEqual(['Fallingwater', 'Fallingwater']);
    expect((await indexed())[0].document).toContain("'fallingwat':1A");

    await db('document_chunks').where({ id: 'c1' }).delete();
    expect(await indexed()).toHaveLength(1);
    expect(await db('chunk_vectors').where({ chunk_rowid: c1.rowid }).first()).toBeUndefined();
    await db('sources').where({ id: 's1' }).delete();
    expect(await db('fts_chunks').count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('drops a node’s full-text row with the node, and numbers template vector writes', async () => {
    await db('graph_nodes').insert({ id: 'x', template_id: 'n', label: 'Xavier', ...stamps });
    const [node] = await db('graph_nodes').where({ id: 'x' }).select('rowid');
    await db('fts_nodes').insert({ rowid: node.rowid, node_id: 'x', label: 'Xavier', body: 'a person' });
    expect(((await db('fts_nodes').where({ node_id: 'x' }).first('document')) as { document: string }).document).toBe(
      "'person':3 'xavier':1A",
    );
    await db('graph_nodes').where({ id: 'x' }).delete();
    expect(await db('fts_nodes').where({ node_id: 'x' }).first()).toBeUndefined();

    const seq = async (id: string) =>
      ((await db('graph_templates').where({ id }).first('embedding_seq')) as { embedding_seq: number | null })
        .embedding_seq;
    await db('graph_templates').insert({ id: 'v', name: 'V', template_type: 'node', embedding: '[1]', ...stamps });
    const firstSeq = (await seq('v'))!;
    expect(firstSeq).toBeGreaterThan(0);
    await db('graph_templates').where({ id: 'n' }).update({ embedding: '[2]' });
    expect(await seq('n')).toBe(firstSeq + 1);
    await db('graph_templates').where({ id: 'v' }).update({ name: 'renamed' });
    expect(await seq('v')).toBe(firstSeq);
  });
});
