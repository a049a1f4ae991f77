import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { indexNewNodes } from '../../src/graph/search-index.ts';
import { hydrate } from '../../src/search/read-model/results.ts';
import { anyTermFallback, keywordSearch, mergeKeywordRankings } from '../../src/search/keyword.ts';
import { runSearch } from '../../src/search/modes.ts';
import type { SearchContext, SearchScope } from '../../src/search/types.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

const everywhere: SearchScope = { sourceIds: null, templateId: null };

describe('keyword search', () => {
  let dir: string;
  let db: Db;
  let context: SearchContext;
  const ids = async (query: string, scope: SearchScope = everywhere, limit = 50) =>
    (await keywordSearch(context, query, scope, limit)).items.map((item) => `${item.kind}:${item.id}`);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyword-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    context = {
      db,
      database: 'default',
      settings: defaultSettings(),
      embeddings: undefined as unknown as SearchContext['embeddings'],
    };
    const at = new Date().toISOString();
    await db('graph_templates').insert([
      { id: 'tpl_a', name: 'A', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
      { id: 'tpl_b', name: 'B', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
    ]);
    await db('sources').insert([
      { id: 'on', filename: 'on.txt', enabled: true, created_at: at, updated_at: at },
      { id: 'off', filename: null, title: 'Off title', enabled: false, created_at: at, updated_at: at },
    ]);
    // The disabled source holds the 30 strongest chunks for "alpha": more than a limit of 2 over-fetches.
    const chunk = (id: string, source: string, index: number, content: string) => ({
      id,
      source_id: source,
      chunk_index: index,
      content,
      created_at: at,
    });
    await db('document_chunks').insert([
      ...Array.from({ length: 30 }, (_, index) => chunk(`off_${index}`, 'off', index, 'alpha alpha alpha')),
      chunk('on_0', 'on', 0, 'alpha is mentioned once among many other words in this longer chunk of text'),
      chunk('on_1', 'on', 1, 'alpha alpha and gamma'),
      chunk('on_2', 'on', 2, 'kappa and lambda'),
      chunk('on_3', 'on', 3, 'kappa alone'),
    ]);
    const nodes = [
      { id: 'manual', template_id: 'tpl_a', label: 'Gamma manual', source_id: null },
      { id: 'row_off', template_id: 'tpl_a', label: 'Gamma row off', source_id: 'off' },
      { id: 'row_on', template_id: 'tpl_b', label: 'Gamma row on', source_id: 'on' },
      { id: 'owned_off', template_id: 'tpl_a', label: 'Gamma owned off', source_id: null },
      { id: 'owned_both', template_id: 'tpl_b', label: 'Gamma owned both', source_id: null },
    ];
    await db('graph_nodes').insert(
      nodes.map((node) => ({ ...node, properties: '{}', created_at: at, updated_at: at })),
    );
    await indexNewNodes(
      db,
      nodes.map((node) => ({ ...node, properties: node.id === 'manual' ? { note: 'delta' } : {} })),
    );
    await db('node_sources').insert([
      { node_id: 'owned_off', source_id: 'off' },
      { node_id: 'owned_both', source_id: 'off' },
      { node_id: 'owned_both', source_id: 'on' },
    ]);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never returns chunks of a disabled source, even when they fill the over-fetched ranking', async () => {
    expect(await ids('alpha', everywhere, 2)).toEqual(['chunk:on_1', 'chunk:on_0']);
    expect(await ids('alpha')).toEqual(['chunk:on_1', 'chunk:on_0']);
    expect(await ids('alpha', { sourceIds: ['off'], templateId: null })).toEqual([]);
  });

  it('shows a node unless every source it has is disabled; a source scope keeps only its nodes', async () => {
    expect((await ids('gamma')).filter((id) => id.startsWith('node:')).sort()).toEqual([
      'node:manual',
      'node:owned_both',
      'node:row_on',
    ]);
    expect((await ids('gamma', { sourceIds: ['on'], templateId: null })).sort()).toEqual([
      'chunk:on_1',
      'node:owned_both',
      'node:row_on',
    ]);
    expect(await ids('gamma', { sourceIds: ['off'], templateId: null })).toEqual([]);
    expect(await ids('gamma', { sourceIds: [], templateId: null })).toEqual([]);
    // A template keeps its nodes and no chunk.
    expect((await ids('gamma', { sourceIds: null, templateId: 'tpl_b' })).sort()).toEqual([
      'node:owned_both',
      'node:row_on',
    ]);
  });

  it('falls back to any term, and says so', async () => {
    const all = await keywordSearch(context, 'mentioned longer', everywhere, 10);
    expect(all).toEqual({ items: [{ kind: 'chunk', id: 'on_0', score: 1 }], fallback: null });
    // A node holds both terms (one in its properties) but no chunk does: the chunks holding some come too.
    const nodeOnly = await keywordSearch(context, 'gamma delta', everywhere, 10);
    expect(nodeOnly.fallback).toBe(anyTermFallback);
    expect(nodeOnly.items.map((item) => `${item.kind}:${item.id}`)).toEqual(
      expect.arrayContaining(['node:manual', 'chunk:on_1']),
    );
    // With a template there are no chunks to wait for: the node holding both is the answer.
    expect(await ids('gamma delta', { sourceIds: null, templateId: 'tpl_a' })).toEqual(['node:manual']);
    const any = await keywordSearch(context, 'delta epsilonword', everywhere, 10);
    expect(any.fallback).toBe(anyTermFallback);
    expect(any.items.map((item) => item.id)).toEqual(['manual']);
    expect(await keywordSearch(context, '*** ""', everywhere, 10)).toEqual({ items: [], fallback: null });
  });

  it('follows the chunks holding every term with those holding some, below them', async () => {
    // on_2 holds both terms; on_3 only "kappa": it comes after, scored under on_2, with no fallback.
    const both = await keywordSearch(context, 'kappa lambda', everywhere, 50);
    expect(both.fallback).toBeNull();
    expect(both.items.map((item) => item.id)).toEqual(['on_2', 'on_3']);
    expect(both.items[1].score).toBeLessThan(both.items[0].score);
    // A limit the every-term items fill leaves no room for the others.
    expect(await ids('kappa lambda', everywhere, 1)).toEqual(['chunk:on_2']);
  });

  it("leaves a question's function words out of the terms every result must hold", async () => {
    // "which", "is", "in" and "the" are in no chunk: the question is asked by "mentioned" and "longer".
    const question = await keywordSearch(context, 'which is mentioned in the longer', everywhere, 10);
    expect(question).toEqual({ items: [{ kind: 'chunk', id: 'on_0', score: 1 }], fallback: null });
    // Function words alone are searched as they are.
    expect((await ids('and')).sort()).toEqual(['chunk:on_1', 'chunk:on_2']);
  });

  it('ranks a node by the share of the query its label holds', async () => {
    // Every term in the label: the best node ties the best chunk and, on the tie, comes first.
    expect((await ids('gamma'))[0]).toMatch(/^node:/);
    // "zeta" is in no label: the nodes holding only "gamma" rank below the chunk holding it.
    const partial = await keywordSearch(context, 'gamma zeta', everywhere, 10);
    expect(partial.fallback).toBe(anyTermFallback);
    expect(partial.items[0]).toEqual({ kind: 'chunk', id: 'on_1', score: 1 });
    expect(partial.items.slice(1).every((item) => item.kind === 'node' && item.score < 0.75)).toBe(true);
  });

  it('scores each list relative to its best hit and interleaves them, nodes first on a tie', () => {
    const merged = mergeKeywordRankings(
      [
        { id: 'n1', rank: -10 },
        { id: 'n2', rank: -5 },
      ],
      [
        { id: 'c1', rank: -2 },
        { id: 'c2', rank: -1.8 },
      ],
      10,
    );
    expect(merged).toEqual([
      { kind: 'node', id: 'n1', score: 1 },
      { kind: 'chunk', id: 'c1', score: 1 },
      { kind: 'chunk', id: 'c2', score: 0.9 },
      { kind: 'node', id: 'n2', score: 0.5 },
    ]);
    expect(mergeKeywordRankings([{ id: 'n1', rank: -1 }], [{ id: 'c1', rank: -1 }], 1)).toHaveLength(1);
  });

  it('hydrates in rank order, skipping rows that went away, with a filename fallback', async () => {
    const results = await hydrate(db, [
      { kind: 'chunk', id: 'off_0', score: 0.9 },
      { kind: 'node', id: 'gone', score: 0.8 },
      { kind: 'node', id: 'manual', score: 0.7 },
      { kind: 'chunk', id: 'on_1', score: 0.6 },
    ]);
    expect(results).toEqual([
      {
        result_type: 'chunk',
        score: 0.9,
        node: null,
        chunk: {
          chunk_id: 'off_0',
          source_id: 'off',
          chunk_index: 0,
          content: 'alpha alpha alpha',
          page_number: null,
          section: null,
          filename: 'Off title',
        },
      },
      {
        result_type: 'node',
        score: 0.7,
        chunk: null,
        node: { id: 'manual', label: 'Gamma manual', template_id: 'tpl_a', edge_count: 0 },
      },
      {
        result_type: 'chunk',
        score: 0.6,
        node: null,
        chunk: {
          chunk_id: 'on_1',
          source_id: 'on',
          chunk_index: 1,
          content: 'alpha alpha and gamma',
          page_number: null,
          section: null,
          filename: 'on.txt',
        },
      },
    ]);
    expect(await hydrate(db, [])).toEqual([]);
  });

  it('refuses a mode that is not registered with 422', async () => {
    await expect(runSearch(context, 'no-such-mode' as never, 'x', everywhere, 5)).rejects.toMatchObject({
      kind: 'invalid',
      code: 'VALIDATION_FAILED',
    });
    await expect(runSearch(context, 'toString' as never, 'x', everywhere, 5)).rejects.toMatchObject({
      kind: 'invalid',
    });
    expect((await runSearch(context, 'keyword', 'gamma', everywhere, 5)).items.length).toBeGreaterThan(0);
  });
});
