import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureCitations, changedCitations, restoreCitations } from '../../src/extraction/citation-journal.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

describe('the citation journal of a node merge', () => {
  let db: Db;
  const at = '2026-01-01T00:00:00.000Z';
  const citations = () => db.raw('SELECT rowid, * FROM source_citations ORDER BY rowid') as Promise<unknown[]>;
  const cite = (id: string, node: string, chunk: string) => ({
    id,
    entity_uri: node,
    source_id: 's',
    chunk_id: chunk,
    context_snippet: id,
    created_at: at,
  });

  beforeEach(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'citation-journal-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    await db('graph_templates').insert({
      id: 'n',
      name: 'N',
      template_type: 'node',
      properties: '[]',
      created_at: at,
      updated_at: at,
    });
    await db('graph_nodes').insert(
      ['a', 'b'].map((id) => ({ id, template_id: 'n', label: id, created_at: at, updated_at: at })),
    );
    await db('sources').insert({
      id: 's',
      title: 's',
      filename: 's.md',
      source_type: 'text',
      status: 'committed',
      created_at: at,
      updated_at: at,
    });
    await db('document_chunks').insert(
      ['c1', 'c2', 'c3'].map((id, index) => ({ id, source_id: 's', chunk_index: index, content: id, created_at: at })),
    );
    await db('source_citations').insert([cite('x', 'a', 'c1'), cite('y', 'b', 'c2'), cite('z', 'b', 'c3')]);
  });
  afterEach(() => db.destroy());

  it('journals only the rows that changed or went, and gives them back with their ids, values and rowids', async () => {
    const original = await citations();
    const before = await captureCitations(db, ['a', 'b'], []);
    await db('source_citations').where({ id: 'y' }).update({ entity_uri: 'a' });
    await db('source_citations').where({ id: 'z' }).delete();
    const changed = await changedCitations(db, before);
    expect(changed.source_citations.map((row) => row.id)).toEqual(['y', 'z']);
    expect(changed.relationship_citations).toEqual([]);

    await restoreCitations(db, changed);
    expect(await citations()).toEqual(original);
  });

  it('takes a new rowid when its own was taken, and leaves out a row whose passage went', async () => {
    const before = await captureCitations(db, ['a', 'b'], []);
    await db('source_citations').whereIn('id', ['y', 'z']).delete();
    const changed = await changedCitations(db, before);
    await db('source_citations').insert(cite('w', 'a', 'c1'));
    await db('document_chunks').where({ id: 'c3' }).delete();

    await restoreCitations(db, changed);
    const rows = (await citations()) as { rowid: number; id: string }[];
    // 'w' took the rowid 'y' had; 'z' went with its passage.
    expect(rows.map((row) => [row.rowid, row.id])).toEqual([
      [1, 'x'],
      [2, 'w'],
      [3, 'y'],
    ]);
  });
});
