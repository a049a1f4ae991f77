import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { forgetTermCounts } from '../../src/search/common-terms.ts';
import { keywordSearch } from '../../src/search/keyword.ts';
import { reindexChunks } from '../../src/search/read-model/fulltext.ts';
import type { SearchContext, SearchScope } from '../../src/search/types.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

const everywhere: SearchScope = { sourceIds: null, templateId: null };
const at = '2025-01-01T00:00:00.000Z';

describe("keyword search over a chunk's source title", () => {
  let dir: string;
  let db: Db;
  let context: SearchContext;
  const chunkIds = async (query: string) => {
    forgetTermCounts(db);
    return (await keywordSearch(context, query, everywhere, 10)).items.map((item) => item.id);
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'title-field-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    context = {
      db,
      database: 'default',
      settings: defaultSettings(),
      embeddings: undefined as unknown as SearchContext['embeddings'],
    };
    await db('sources').insert([
      { id: 'lloyd', filename: 'doc-0001.txt', title: 'Frank Lloyd', enabled: true, created_at: at, updated_at: at },
      { id: 'cast', filename: 'doc-0002.txt', title: 'Cavalcade', enabled: true, created_at: at, updated_at: at },
      { id: 'plain', filename: 'harbour-notes.txt', enabled: true, created_at: at, updated_at: at },
    ]);
    const chunk = (id: string, source: string, index: number, content: string) => ({
      id,
      source_id: source,
      chunk_index: index,
      content,
      created_at: at,
    });
    await db('document_chunks').insert([
      chunk('lloyd_0', 'lloyd', 0, 'A Scottish-born director of silent and sound films.'),
      chunk('lloyd_1', 'lloyd', 1, 'He won two Academy Awards in the early years of the ceremony.'),
      chunk('cast_0', 'cast', 0, 'A 1933 drama directed by Frank Lloyd, with a large cast.'),
      chunk('plain_0', 'plain', 0, 'Tides and moorings of the old port.'),
    ]);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds every chunk of a source by its title, and ranks a title match above a mention in the text', async () => {
    expect(await chunkIds('Academy Awards Lloyd')).toEqual(['lloyd_1']);
    const lloyd = await chunkIds('Frank Lloyd');
    expect(lloyd.slice(0, 2).sort()).toEqual(['lloyd_0', 'lloyd_1']);
    expect(lloyd[2]).toBe('cast_0');
    // A source without a title is indexed under its file name.
    expect(await chunkIds('harbour')).toEqual(['plain_0']);
  });

  it('re-indexes the chunks of a source whose title changes, and a rebuild keeps the titles', async () => {
    await db('sources').where({ id: 'cast' }).update({ title: 'Cavalcade (1933 film)' });
    // Only the retitled chunk holds both terms: it leads, no any-term fallback; the chunk holding one follows.
    forgetTermCounts(db);
    const retitled = await keywordSearch(context, '1933 film', everywhere, 10);
    expect(retitled.fallback).toBeNull();
    // Then the other chunk of the director the retitled chunk names, found through that mention.
    expect(retitled.items.map((item) => item.id)).toEqual(['cast_0', 'lloyd_0', 'lloyd_1']);
    await db('sources').where({ id: 'plain' }).update({ title: 'Port almanac' });
    expect(await chunkIds('harbour')).toEqual([]);
    expect(await chunkIds('almanac')).toEqual(['plain_0']);
    await reindexChunks(db);
    expect(await chunkIds('almanac')).toEqual(['plain_0']);
    expect((await chunkIds('Cavalcade'))[0]).toBe('cast_0');
  });
});
