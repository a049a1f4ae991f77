import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { commonTermRows } from '../../src/search/common-terms.ts';
import { keywordSearch } from '../../src/search/keyword.ts';
import type { SearchContext } from '../../src/search/types.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

describe('ranking window of a very common query', () => {
  let dir: string;
  let db: Db;
  let context: SearchContext;
  const extra = 100;
  const search = async (query: string, sourceIds: string[] | null = null) =>
    (await keywordSearch(context, query, { sourceIds, templateId: null }, 5)).items.map((item) => item.id);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyword-window-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    context = {
      db,
      database: 'default',
      settings: defaultSettings(),
      embeddings: undefined as unknown as SearchContext['embeddings'],
    };
    const at = new Date().toISOString();
    await db('sources').insert([
      { id: 'old', filename: 'old.txt', enabled: true, created_at: at, updated_at: at },
      { id: 'new', filename: 'new.txt', enabled: true, created_at: at, updated_at: at },
    ]);
    // The oldest chunks score best for "common" (it fills them); the budget's worth of newer ones follow.
    const rows = Array.from({ length: commonTermRows + extra }, (_, index) => ({
      id: `c${index}`,
      source_id: index < extra ? 'old' : 'new',
      chunk_index: index,
      created_at: at,
      content: index < extra ? 'common common common' : `common filler words number ${index}`,
    }));
    await db.transaction(async (trx) => {
      for (let start = 0; start < rows.length; start += 500)
        await trx('document_chunks').insert(rows.slice(start, start + 500));
    });
  }, 120_000);
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ranks only the newest matches when more than the budget match', async () => {
    const ids = await search('common');
    expect(ids).toHaveLength(5);
    for (const id of ids) expect(Number(id.slice(1))).toBeGreaterThanOrEqual(extra);
  });

  it('ranks every match once the query is selective enough', async () => {
    expect(await search('common common')).toHaveLength(5);
    expect((await search('common number')).length).toBe(5);
    // A rare term: all its matches (old ones too) compete.
    await db('document_chunks').insert({
      id: 'rare_old',
      source_id: 'old',
      chunk_index: 999_999,
      content: 'zanzibar common',
      created_at: new Date().toISOString(),
    });
    expect(await search('zanzibar')).toEqual(['rare_old']);
    // A common word is not required when the query has a rarer one: no chunk holds both, yet it is found.
    expect(await search('zanzibar number')).toEqual(['rare_old']);
  });

  it('a scoped search ranks every match in its scope, outside the window too', async () => {
    const ids = await search('common', ['old']);
    expect(ids).toHaveLength(5);
    for (const id of ids) expect(Number(id.slice(1))).toBeLessThan(extra);
  });
});
