import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import type { Db } from '../../src/storage/index.ts';
import { indexNewNodes, reindexNodes } from '../../src/graph/search-index.ts';
import { forgetTermCounts } from '../../src/search/common-terms.ts';
import { ftsQuery } from '../../src/search/fts-query.ts';
import { anyTermFallback, keywordChunks, keywordSearch } from '../../src/search/keyword.ts';
import { fulltextEntries, fulltextMatches, reindexChunks } from '../../src/search/read-model/fulltext.ts';
import { hydrate } from '../../src/search/read-model/results.ts';
import { tsqueryOf } from '../../src/search/tsquery.ts';
import type { SearchContext, SearchScope } from '../../src/search/types.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const everywhere: SearchScope = { sourceIds: null, templateId: null };

describe('the PostgreSQL text of a MATCH expression', () => {
  it('keeps phrases, prefixes, AND and OR, and quotes what the user typed', () => {
    const query = (input: string) => ftsQuery(input)!;
    expect(tsqueryOf(query('"Marie Curie" radio*').all)).toBe("'Marie Curie' & 'radio':*");
    expect(tsqueryOf(query('radium nobel').any!)).toBe("'radium' | 'nobel'");
    expect(tsqueryOf(query("O'Brien's back\\slash").all)).toBe("'O''Brien' & 'back\\\\slash'");
    expect(tsqueryOf(query('"marie curie" radio*').all, 'A')).toBe("'marie curie':A & 'radio':*A");
  });
});

/** Keyword search over chunks and nodes answers the same on SQLite (FTS5) and PostgreSQL (tsvector). */
describe.each(dialects)('keyword search on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  let context: SearchContext;
  const ids = async (query: string, scope: SearchScope = everywhere, limit = 20) =>
    (await keywordSearch(context, query, scope, limit)).items.map((item) => `${item.kind}:${item.id}`);

  beforeAll(async () => {
    db = await databases.open('keyword');
    context = {
      db,
      database: 'keyword',
      settings: defaultSettings(),
      embeddings: undefined as unknown as SearchContext['embeddings'],
    };
    const stamps = { created_at: at, updated_at: at };
    await db('graph_templates').insert([
      { id: 'tpl_a', name: 'A', template_type: 'node', properties: '[]', ...stamps },
      { id: 'tpl_b', name: 'B', template_type: 'node', properties: '[]', ...stamps },
    ]);
    await db('sources').insert([
      { id: 'on', title: 'Marie Curie biography', filename: null, enabled: true, ...stamps },
      { id: 'other', title: null, filename: 'notes.txt', enabled: true, ...stamps },
      { id: 'off', title: 'Archive', filename: null, enabled: false, ...stamps },
    ]);
    const chunk = (id: string, source: string, index: number, content: string) => ({
      id,
      source_id: source,
      chunk_index: index,
      content,
      created_at: at,
    });
    await db('document_chunks').insert([
      chunk('on_0', 'on', 0, 'She isolated radium and polonium in a shed in Paris.'),
      chunk('on_1', 'on', 1, 'The Nobel Prize in physics followed in 1903.'),
      chunk('other_0', 'other', 0, 'Laboratories across Europe cited Curie for decades afterwards.'),
      ...Array.from({ length: 30 }, (_, index) => chunk(`off_${index}`, 'off', index, 'radium radium radium')),
    ]);
    const nodes = [
      { id: 'marie', template_id: 'tpl_a', label: 'Marie Curie', source_id: null, note: 'radium chemistry' },
      { id: 'pierre', template_id: 'tpl_b', label: 'Pierre Curie', source_id: 'on', note: '' },
      { id: 'institute', template_id: 'tpl_a', label: 'Radium Institute', source_id: 'off', note: '' },
    ];
    await db('graph_nodes').insert(
      nodes.map(({ note: _note, ...node }) => ({ ...node, properties: '{}', created_at: at, updated_at: at })),
    );
    await indexNewNodes(
      db,
      nodes.map((node) => ({ ...node, properties: node.note ? { field: node.note } : {} })),
    );
  }, 120_000);
  afterAll(() => databases.close());

  it('never returns what a disabled source holds, and keeps to a source scope', async () => {
    expect((await ids('radium')).sort()).toEqual(['chunk:on_0', 'node:marie']);
    expect(await ids('radium', { sourceIds: ['off'], templateId: null })).toEqual([]);
    expect((await ids('curie', { sourceIds: ['on'], templateId: null })).sort()).toEqual([
      'chunk:on_0',
      'chunk:on_1',
      'node:pierre',
    ]);
  });

  it('weighs the source title above the text, and a label above properties', async () => {
    const found = await ids('curie');
    expect(found.filter((id) => id.startsWith('chunk:')).at(-1)).toBe('chunk:other_0');
    expect(found.filter((id) => id.startsWith('node:')).sort()).toEqual(['node:marie', 'node:pierre']);
    // "radium" is in the label of a hidden node and in the visible node's properties only.
    const hits = await keywordSearch(context, 'radium', everywhere, 10);
    const node = hits.items.find((item) => item.kind === 'node')!;
    const chunk = hits.items.find((item) => item.kind === 'chunk')!;
    expect(node.score).toBeLessThan(chunk.score);
  });

  it('keeps phrases, prefixes, possessives and column filters as users type them', async () => {
    expect((await ids('"marie curie"')).sort()).toEqual(['chunk:on_0', 'chunk:on_1', 'node:marie']);
    expect(await ids('"curie marie"', { sourceIds: null, templateId: 'tpl_a' })).toEqual([]);
    expect(await ids('polon*')).toEqual(['chunk:on_0']);
    expect(await ids('polon')).toEqual([]);
    expect((await ids("Curie's")).sort()).toEqual((await ids('curie')).sort());
    expect((await ids('label:curie')).sort()).toEqual((await ids('curie')).sort());
    expect(await keywordSearch(context, '*** ""', everywhere, 10)).toEqual({ items: [], fallback: null });
  });

  it('keeps a template to its nodes', async () => {
    expect(await ids('curie', { sourceIds: null, templateId: 'tpl_b' })).toEqual(['node:pierre']);
  });

  it('ranks the items holding every term first, and falls back to any term when none does', async () => {
    const both = await keywordSearch(context, 'nobel physics', everywhere, 10);
    expect(both).toEqual({ items: [{ kind: 'chunk', id: 'on_1', score: 1 }], fallback: null });
    const split = await keywordSearch(context, 'polonium nobel', everywhere, 10);
    expect(split.fallback).toBe(anyTermFallback);
    expect(split.items.map((item) => item.id).sort()).toEqual(['on_0', 'on_1']);
    expect((await keywordChunks(context, 'polonium', everywhere, 5)).items).toEqual([
      { kind: 'chunk', id: 'on_0', score: 1 },
    ]);
  });

  it('counts index entries and matches, and rebuilds both indexes from the rows', async () => {
    expect(await fulltextEntries(db)).toBe(33 + 3);
    expect(await fulltextMatches(db, '"radium"', 100)).toBe(1 + 30 + 2);
    expect(await fulltextMatches(db, '"radium"', 5)).toBe(5 + 2);
    await db('fts_chunks').delete();
    await db('fts_nodes').delete();
    forgetTermCounts(db);
    expect(await ids('curie')).toEqual([]);
    expect(await reindexChunks(db)).toBe(33);
    expect(await reindexNodes(db)).toBe(3);
    forgetTermCounts(db);
    expect((await ids('curie')).sort()).toEqual([
      'chunk:on_0',
      'chunk:on_1',
      'chunk:other_0',
      'node:marie',
      'node:pierre',
    ]);
  });

  it('hydrates a ranking in its order with the source’s name', async () => {
    const results = await hydrate(db, [
      { kind: 'chunk', id: 'other_0', score: 0.9 },
      { kind: 'node', id: 'gone', score: 0.8 },
      { kind: 'node', id: 'pierre', score: 0.7 },
    ]);
    expect(results.map((result) => [result.result_type, result.chunk?.filename ?? result.node?.label])).toEqual([
      ['chunk', 'notes.txt'],
      ['node', 'Pierre Curie'],
    ]);
  });

  it('answers hostile input with results or none, never an error', async () => {
    const alphabet = ['"', '*', '(', ')', ':', '&', '|', '!', '<->', '<2>', "'", "''", '\\', ' ', 'OR', 'AND', 'NOT'];
    const words = ['curie', 'radium', 'é', '😀', '\u0000', '1', 'label', 'a:b', 'x*'];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [...alphabet, ...words];
    for (let run = 0; run < 120; run++) {
      const input = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join(random() < 0.5 ? '' : ' ');
      await expect(keywordSearch(context, input, everywhere, 5), input).resolves.toHaveProperty('items');
    }
  });
});
