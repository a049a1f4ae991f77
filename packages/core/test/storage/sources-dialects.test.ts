import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataPaths } from '../../src/paths.ts';
import type { Db } from '../../src/storage/index.ts';
import { decodeVector, insertRows } from '../../src/storage/index.ts';
import { storeChunkRows, type PreparedChunk } from '../../src/sources/index.ts';
import { chunkPage, chunkRange, chunkRowids, findChunk, sourceChunks } from '../../src/sources/chunks.ts';
import {
  chunksLackingVectors,
  markChunksEmbedded,
  storeChunkVectors,
  storeChunkVectorsById,
} from '../../src/sources/chunk-vectors.ts';
import {
  findByContentHash,
  getSource,
  idleSources,
  insertSource,
  listSources,
  sourceIdsIn,
  sourcesInProgress,
  sourceStatuses,
  sourceTotals,
  tagsBySource,
  updateSource,
} from '../../src/sources/repo.ts';
import { originalPath } from '../../src/sources/files.ts';
import { recordDocumentLinks } from '../../src/sources/links/record.ts';
import { citationCount, contributedTotals, graphCountsBySource } from '../../src/sources/read-model.ts';
import { SourceTags } from '../../src/sources/tags.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

const chunk = (index: number, content: string): PreparedChunk => ({
  index,
  id: `chk_${index}`,
  content,
  start: index * 100,
  end: index * 100 + content.length,
  page: index === 0 ? 1 : null,
  pageStarts: index === 0 ? [{ page: 1, offset: 0 }] : null,
  section: null,
  tokenEstimate: Math.ceil(content.length / 4),
  originalStart: null,
  originalEnd: null,
  offsetMatch: 'exact',
});

/** The sources repository and its chunks' statements give the same answers on both dialects. */
describe.each(dialects)('sources and their chunks on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('sources');
    const source = (id: string, minute: number, extra: Record<string, unknown> = {}) =>
      insertSource(db, { id, created_at: at(minute), updated_at: at(minute), ...extra });
    await source('s_report', 1, { title: 'Quarterly REPORT', status: 'committed', content_hash: 'h1' });
    await source('s_notes', 2, { filename: 'field-notes_50%.txt', status: 'indexing', content_hash: 'h1' });
    await source('s_web', 3, { origin_url: 'https://example.org/Report', status: 'error', error_stage: 'indexing' });
    await source('s_off', 4, { title: 'Disabled', enabled: 0, last_activity_at: at(30) });
    await db('source_tags').insert([
      { id: 't_b', name: 'beta', created_at: at(0), updated_at: at(0) },
      { id: 't_a', name: 'alpha', color: '#fff', created_at: at(0), updated_at: at(0) },
    ]);
    await insertRows(
      db,
      'source_tag_links',
      ['source_id', 'tag_id'],
      [
        { source_id: 's_report', tag_id: 't_b' },
        { source_id: 's_report', tag_id: 't_a' },
        { source_id: 's_web', tag_id: 't_a' },
      ],
    );
  }, 120_000);
  afterAll(() => databases.close());

  const listed = async (filter: Parameters<typeof listSources>[1], offset = 0, limit = 10) => {
    const { rows, total } = await listSources(db, filter, offset, limit);
    return { ids: rows.map((row) => row.id), total };
  };

  it('reads sources back with booleans as 0 and 1, and filters them as SQLite does', async () => {
    const report = await getSource(db, 's_report');
    expect(report).toMatchObject({
      enabled: 1,
      extract_entities: 1,
      auto_confirm: 0,
      chunk_count: 0,
      user_metadata: '{}',
    });
    expect((await getSource(db, 's_off'))?.enabled).toBe(0);
    expect(await getSource(db, 'nope')).toBeUndefined();

    expect(await listed({})).toEqual({ ids: ['s_off', 's_web', 's_notes', 's_report'], total: 4 });
    expect(await listed({}, 1, 2)).toEqual({ ids: ['s_web', 's_notes'], total: 4 });
    // The search ignores case, and its pattern characters are literal.
    expect(await listed({ search: 'report' })).toEqual({ ids: ['s_web', 's_report'], total: 2 });
    expect(await listed({ search: '_50%' })).toEqual({ ids: ['s_notes'], total: 1 });
    expect(await listed({ search: '5_%' })).toEqual({ ids: [], total: 0 });
    expect(await listed({ enabled: false })).toEqual({ ids: ['s_off'], total: 1 });
    expect(await listed({ enabled: true, status: 'committed' })).toEqual({ ids: ['s_report'], total: 1 });
    expect(await listed({ tagId: 't_a' })).toEqual({ ids: ['s_web', 's_report'], total: 2 });
  });

  it('updates only from the expected statuses and finds sources by hash, idleness and state', async () => {
    expect(await updateSource(db, 's_web', { status: 'pending' }, ['committed'])).toBe(false);
    expect(await updateSource(db, 's_off', { enabled: 1, current_step: 'x' }, ['pending'])).toBe(true);
    expect(await getSource(db, 's_off')).toMatchObject({ enabled: 1, current_step: 'x' });
    await updateSource(db, 's_off', { enabled: 0 });

    expect((await findByContentHash(db, 'h1'))?.id).toBe('s_report');
    expect((await idleSources(db, ['pending', 'indexing'], at(20))).map((row) => row.id).sort()).toEqual(['s_notes']);
    expect((await idleSources(db, ['pending'], at(40))).map((row) => row.id)).toEqual(['s_off']);
    expect(await sourceStatuses(db, ['s_web', 'gone'])).toEqual([{ id: 's_web', status: 'error' }]);
    expect(await sourceIdsIn(db, ['pending'], ['indexing'])).toEqual(['s_web', 's_off']);
    expect(await sourcesInProgress(db)).toBe(true);
    expect(Object.fromEntries(await tagsBySource(db, ['s_report', 's_notes']))).toEqual({
      s_report: [
        { id: 't_a', name: 'alpha', color: '#fff' },
        { id: 't_b', name: 'beta', color: null },
      ],
      s_notes: [],
    });
    const tags = new SourceTags(db, 'sources');
    expect((await tags.list()).map((tag) => [tag.name, tag.source_count])).toEqual([
      ['alpha', 2],
      ['beta', 1],
    ]);
    expect((await tags.create('ALPHA', null, null)).id).toBe('t_a');
  });

  it('stores chunk rows in bulk and pages, ranges and counts them', async () => {
    const chunks = [chunk(0, 'first chunk'), chunk(1, 'second chunk'), chunk(2, 'third chunk')];
    const rowids = await storeChunkRows(db, 's_report', chunks, at(5));
    expect([...rowids.keys()].sort()).toEqual(['chk_0', 'chk_1', 'chk_2']);
    expect(await chunkRowids(db, 's_report')).toEqual(expect.arrayContaining([...rowids.values()]));

    const page = await chunkPage(db, 's_report', { offset: 1, limit: 1 });
    expect(page).toEqual({
      total: 3,
      rows: [
        {
          id: 'chk_1',
          source_id: 's_report',
          chunk_index: 1,
          content: 'second chunk',
          page_number: null,
          section: null,
          start_offset: 100,
          end_offset: 112,
          original_start: null,
          original_end: null,
          offset_match: 'exact',
          token_estimate: 3,
          created_at: at(5),
        },
      ],
    });
    expect((await findChunk(db, 's_report', 'chk_0'))?.page_number).toBe(1);
    expect(await findChunk(db, 's_notes', 'chk_0')).toBeUndefined();
    const [first] = await sourceChunks(db, 's_report');
    expect(JSON.parse(first.chunk_metadata!)).toEqual({ page_starts: [{ page: 1, offset: 0 }] });
    expect((await chunkRange(db, 's_report', 1, 2)).map((row) => row.id)).toEqual(['chk_1', 'chk_2']);
    expect(await sourceTotals(db)).toEqual({
      total_files: 4,
      by_status: { committed: 1, indexing: 1, error: 1, pending: 1 },
      total_chunks: 3,
    });
  });

  it('skips rows a unique key holds when asked to, and fails on them otherwise', async () => {
    const links = [
      { source_id: 's_report', tag_id: 't_a' },
      { source_id: 's_notes', tag_id: 't_a' },
    ];
    await insertRows(db, 'source_tag_links', ['source_id', 'tag_id'], links, 'INSERT OR IGNORE');
    expect(await db('source_tag_links').where({ tag_id: 't_a' }).orderBy('source_id').pluck('source_id')).toEqual([
      's_notes',
      's_report',
      's_web',
    ]);
    await expect(insertRows(db, 'source_tag_links', ['source_id', 'tag_id'], links)).rejects.toThrow();
  });

  it('stores chunk vectors by rowid and by id, replacing older ones, and finds the chunks lacking them', async () => {
    const identity = { provider: 'builtin', model: 'm', dimensions: 2 } as const;
    const rowids = await chunkRowids(db, 's_report');
    expect((await chunksLackingVectors(db, identity, 0, 10)).map((row) => row.id)).toEqual(['chk_0', 'chk_1', 'chk_2']);

    const [r0, r1] = [...rowids].sort((a, b) => a - b);
    await storeChunkVectors(db, [
      { rowid: r0, model: 'old', vector: Float32Array.of(9, 9) },
      { rowid: r1, model: 'm', vector: Float32Array.of(1, 2) },
      { rowid: 999_999, model: 'm', vector: Float32Array.of(5, 5) },
    ]);
    await storeChunkVectorsById(db, [
      { chunkId: 'chk_0', model: 'm', vector: Float32Array.of(3, 4) },
      { chunkId: 'chk_gone', model: 'm', vector: Float32Array.of(5, 5) },
    ]);
    const stored = await db('chunk_vectors')
      .orderBy('chunk_rowid')
      .select('chunk_rowid', 'model', 'dimensions', 'vector');
    expect(
      stored.map((row) => [row.chunk_rowid, row.model, row.dimensions, [...decodeVector(row.vector, row.dimensions)]]),
    ).toEqual([
      [r0, 'm', 2, [3, 4]],
      [r1, 'm', 2, [1, 2]],
    ]);
    expect((await chunksLackingVectors(db, identity, 0, 10)).map((row) => row.id)).toEqual(['chk_2']);
    expect(await chunksLackingVectors(db, { ...identity, dimensions: 3 }, r0, 1)).toEqual([
      { rowid: r1, id: 'chk_1', content: 'second chunk' },
    ]);

    await markChunksEmbedded(db, identity);
    expect(await getSource(db, 's_report')).toMatchObject({ embedding_model: null, chunk_count: 0 });
    await updateSource(db, 's_report', { chunk_count: 3 });
    await markChunksEmbedded(db, identity);
    expect(await getSource(db, 's_report')).toMatchObject({ embedding_model: 'm', embedding_dimensions: 2 });
  });

  it('records the names a source is linked by and the links its chunks make, replacing an earlier run', async () => {
    const paths = new DataPaths(fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-links-')));
    const text = '# Letters\n\nSee [[Field notes]] and [the report](https://example.org/Report).';
    const file = originalPath(paths, 'sources', 's_links', 'letters.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    await insertSource(db, {
      id: 's_links',
      title: 'Letters',
      filename: 'letters.md',
      stored_filename: 'letters.md',
      ...{ created_at: at(9), updated_at: at(9) },
    });
    await storeChunkRows(
      db,
      's_links',
      [chunk(0, text)].map((row) => ({ ...row, id: 'links_0' })),
      at(9),
    );
    const context = { writer: db, paths, database: 'sources', sourceId: 's_links' };
    await recordDocumentLinks(context, 'markdown');
    await recordDocumentLinks(context, 'markdown');
    const names = await db('source_names')
      .where({ source_id: 's_links' })
      .orderBy(['kind', 'name'])
      .select('kind', 'name');
    expect(names).toEqual(
      expect.arrayContaining([
        { kind: 'file', name: 'letters.md' },
        { kind: 'title', name: 'Letters' },
      ]),
    );
    const links = await db('document_links')
      .where({ source_id: 's_links' })
      .orderBy('id')
      .select('chunk_id', 'syntax', 'target');
    expect([...new Set(links.map((link) => `${link.chunk_id}:${link.target}`))]).toEqual([
      'links_0:Field notes',
      'links_0:https://example.org/Report',
    ]);
    fs.rmSync(paths.root, { recursive: true, force: true });
  });

  it('counts what sources contributed to the graph and the citations of their chunks', async () => {
    const stamps = { created_at: at(0), updated_at: at(0) };
    await db('graph_templates').insert({
      id: 'person',
      name: 'Person',
      template_type: 'node',
      properties: '[]',
      ...stamps,
    });
    await db('graph_templates').insert({
      id: 'knows',
      name: 'knows',
      template_type: 'edge',
      properties: '[]',
      ...stamps,
    });
    await db('graph_nodes').insert([
      { id: 'n1', template_id: 'person', label: 'One', ...stamps },
      { id: 'n2', template_id: 'person', label: 'Two', source_id: 's_notes', ...stamps },
      { id: 'n3', template_id: 'person', label: 'Three', ...stamps },
    ]);
    await db('graph_edges').insert({
      id: 'e1',
      template_id: 'knows',
      source_node_id: 'n1',
      target_node_id: 'n2',
      label: 'knows',
      ...stamps,
    });
    await db('node_sources').insert([
      { node_id: 'n1', source_id: 's_report' },
      { node_id: 'n2', source_id: 's_report' },
    ]);
    await db('edge_sources').insert({ edge_id: 'e1', source_id: 's_report' });
    await db('source_citations').insert([
      { id: 'c1', entity_uri: 'n1', source_id: 's_report', chunk_id: 'chk_0', created_at: at(0) },
      { id: 'c2', entity_uri: 'n2', source_id: 's_report', chunk_id: 'chk_1', created_at: at(0) },
      { id: 'c3', entity_uri: 'n2', source_id: 's_report', chunk_id: null, created_at: at(0) },
    ]);
    expect(Object.fromEntries(await graphCountsBySource(db, ['s_report', 's_notes']))).toEqual({
      s_report: { entities: 2, relationships: 1 },
      s_notes: { entities: 0, relationships: 0 },
    });
    expect(await contributedTotals(db)).toEqual({ total_entities: 2, total_relationships: 1 });
    expect(await citationCount(db, 's_report')).toBe(2);
  });
});
