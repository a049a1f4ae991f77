import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/index.ts';
import {
  enabledSources,
  extractedNodesNamed,
  firstChunksOfSources,
  nodeFacts,
  nodesNamed,
  passageStamps,
  readGraphVersion,
  scanCitedChunks,
  scanEdges,
  scanNodeTemplates,
} from '../../src/search/read-model/graph-rows.ts';
import { chunksInScope, provenanceChunks } from '../../src/search/read-model/chunks.ts';
import {
  documentLinkStamp,
  resolvedDocumentLinks,
  titleAliasRows,
} from '../../src/search/read-model/document-links.ts';
import { chunkLabelScope, nodeLabelScope } from '../../src/search/read-model/label-scope.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };

/** What graph search loads of the graph, its sources and citations reads the same on both dialects. */
describe.each(dialects)('graph search rows on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('graphrows');
    await db('graph_templates').insert([
      { id: 'person', name: 'Person', template_type: 'node', properties: '[]', ...stamps },
      { id: 'knows', name: 'knows', template_type: 'edge', properties: '[]', ...stamps },
    ]);
    await db('sources').insert([
      { id: 's1', title: 'Letters', filename: null, enabled: true, ...stamps },
      { id: 's2', title: null, filename: 'diary.txt', enabled: true, ...stamps },
      { id: 's3', title: 'Off', filename: null, enabled: false, ...stamps, updated_at: '2026-03-01T00:00:00.000Z' },
    ]);
    await db('document_chunks').insert([
      { id: 's1_1', source_id: 's1', chunk_index: 1, content: 'second', created_at: at },
      { id: 's1_0', source_id: 's1', chunk_index: 0, content: 'first', created_at: at },
      { id: 's2_0', source_id: 's2', chunk_index: 0, content: 'diary', created_at: at },
    ]);
    await db('graph_nodes').insert([
      { id: 'ada', template_id: 'person', label: 'Ada', name_key: 'ada', extracted: true, ...stamps },
      { id: 'bob', template_id: 'person', label: 'Bob', name_key: 'bob', extracted: false, ...stamps },
      { id: 'cy', template_id: 'person', label: 'Cy', name_key: null, extracted: false, ...stamps },
    ]);
    const edge = (id: string, from: string, to: string, label: string) => ({
      id,
      template_id: 'knows',
      source_node_id: from,
      target_node_id: to,
      label,
      ...stamps,
    });
    await db('graph_edges').insert([edge('e1', 'ada', 'bob', 'knows'), edge('e2', 'bob', 'cy', 'met')]);
    await db('source_citations').insert([
      { id: 'c1', entity_uri: 'ada', source_id: 's1', chunk_id: 's1_0', created_at: at },
      { id: 'c2', entity_uri: 'bob', source_id: 's2', chunk_id: 's2_0', created_at: at },
      { id: 'c3', entity_uri: 'bob', source_id: 's1', chunk_id: null, created_at: at },
    ]);
  }, 120_000);
  afterAll(() => databases.close());

  it('scans nodes, edges and cited chunks as column arrays in rowid order', async () => {
    const batches: unknown[] = [];
    await scanNodeTemplates(db, (ids, templates) => batches.push({ ids, templates }));
    await scanEdges(db, (sources, targets, labels) => batches.push({ sources, targets, labels }));
    await scanCitedChunks(db, (nodes, chunks, sources) => batches.push({ nodes, chunks, sources }));
    expect(batches).toEqual([
      { ids: ['ada', 'bob', 'cy'], templates: ['person', 'person', 'person'] },
      { sources: ['ada', 'bob'], targets: ['bob', 'cy'], labels: ['knows', 'met'] },
      { nodes: ['ada', 'bob'], chunks: ['s1_0', 's2_0'], sources: ['s1', 's2'] },
    ]);
    await db('graph_edges').delete();
    const none: unknown[] = [];
    await scanEdges(db, (...columns) => none.push(columns));
    expect(none).toEqual([]);
  });

  it('reads the version, the stamps, first chunks, names and enabled sources', async () => {
    const version = await readGraphVersion(db);
    expect(version.structure).toBeGreaterThan(0);
    const stampsNow = await passageStamps(db);
    expect(stampsNow.sources).toBe('2026-03-01T00:00:00.000Z');
    expect(stampsNow.cited).toBe((await db('source_citations').max({ m: 'rowid' }).first())?.m);
    expect((await firstChunksOfSources(db)).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 's1_0', source_id: 's1', title: 'Letters' },
      { id: 's2_0', source_id: 's2', title: 'diary.txt' },
    ]);
    expect(await extractedNodesNamed(db, ['ada', 'bob'])).toEqual([{ id: 'ada', name_key: 'ada' }]);
    expect((await nodesNamed(db, ['bob'], ['Cy'])).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'bob', name_key: 'bob', label: 'Bob' },
      { id: 'cy', name_key: null, label: 'Cy' },
    ]);
    expect(await nodeFacts(db, ['cy', 'gone'])).toEqual([{ id: 'cy', label: 'Cy', template_id: 'person' }]);
    expect((await enabledSources(db, null)).sort()).toEqual(['s1', 's2']);
    expect(await enabledSources(db, ['s2', 's3'])).toEqual(['s2']);
  });

  it('ranks the chunks citing entities, and keeps rankings to enabled sources in scope', async () => {
    await db('document_chunks').insert({ id: 's3_0', source_id: 's3', chunk_index: 0, content: 'off', created_at: at });
    await db('source_citations').insert({
      id: 'c4',
      entity_uri: 'ada',
      source_id: 's3',
      chunk_id: 's3_0',
      created_at: at,
    });
    const entities = [
      { id: 'bob', score: 1 },
      { id: 'ada', score: 0.5 },
    ];
    expect(await provenanceChunks(db, entities, { sourceIds: null }, 5)).toEqual([
      { kind: 'chunk', id: 's2_0', score: 1 },
      { kind: 'chunk', id: 's1_0', score: 0.5 },
    ]);
    expect(await provenanceChunks(db, entities, { sourceIds: ['s1'] }, 5)).toEqual([
      { kind: 'chunk', id: 's1_0', score: 0.5 },
    ]);
    const items = ['s1_0', 's3_0', 's2_0'].map((id) => ({ kind: 'chunk' as const, id, score: 1 }));
    expect(Object.fromEntries(await chunksInScope(db, items, { sourceIds: null }))).toEqual({
      s1_0: 'first',
      s2_0: 'diary',
    });
    expect(Object.fromEntries(await chunksInScope(db, items, { sourceIds: ['s2'] }))).toEqual({ s2_0: 'diary' });
  });

  it('turns a scope into the vector labels it allows or denies', async () => {
    const rowid = async (table: string, id: string) => (await db(table).where({ id }).first('rowid'))!.rowid as number;
    await db('graph_nodes').insert({ id: 'dee', template_id: 'person', label: 'Dee', source_id: 's3', ...stamps });
    await db('node_sources').insert([
      { node_id: 'ada', source_id: 's1' },
      { node_id: 'bob', source_id: 's3' },
    ]);
    const everywhere = { sourceIds: null, templateId: null };
    const chunks = await chunkLabelScope(db, everywhere);
    expect(chunks.allowed).toBeNull();
    expect(chunks.denied?.has(await rowid('document_chunks', 's3_0'))).toBe(true);
    expect(chunks.denied?.size).toBe(1);
    expect((await chunkLabelScope(db, { sourceIds: ['s1', 's3'], templateId: null })).allowed).toEqual(
      [await rowid('document_chunks', 's1_0'), await rowid('document_chunks', 's1_1')].sort((a, b) => a - b),
    );
    expect((await chunkLabelScope(db, { sourceIds: null, templateId: 'person' })).empty).toBe(true);

    const nodes = await nodeLabelScope(db, everywhere);
    expect(nodes.denied?.has(await rowid('graph_nodes', 'dee'))).toBe(true);
    expect(nodes.denied?.has(await rowid('graph_nodes', 'bob'))).toBe(true);
    expect(nodes.denied?.size).toBe(2);
    expect((await nodeLabelScope(db, { sourceIds: ['s1'], templateId: 'person' })).allowed).toEqual([
      await rowid('graph_nodes', 'ada'),
    ]);
    expect((await nodeLabelScope(db, { sourceIds: ['s3'], templateId: null })).empty).toBe(true);
  });

  it('resolves links between documents to the most specific name', async () => {
    expect(await documentLinkStamp(db)).toBe('0.0');
    await db('source_names').insert([
      { source_id: 's1', kind: 'title', name: 'Letters', name_key: 'letters' },
      { source_id: 's3', kind: 'alias', name: 'Letters', name_key: 'letters' },
      { source_id: 's3', kind: 'alias', name: 'The off one', name_key: 'off' },
    ]);
    await db('document_links').insert([
      { source_id: 's2', chunk_id: 's2_0', syntax: 'wiki', target: 'Letters', target_key: 'letters', anchor: 'L' },
      { source_id: 's1', chunk_id: 's1_0', syntax: 'wiki', target: 'Letters', target_key: 'letters', anchor: 'self' },
    ]);
    expect(await documentLinkStamp(db)).toMatch(/^[1-9]\d*\.[1-9]\d*$/);
    expect(await resolvedDocumentLinks(db)).toEqual(
      expect.arrayContaining([
        { chunk_id: 's2_0', source_id: 's2', target_id: 's1' },
        { chunk_id: 's1_0', source_id: 's1', target_id: 's3' },
      ]),
    );
    expect(await resolvedDocumentLinks(db)).toHaveLength(2);
    expect((await titleAliasRows(db)).map((row) => row.name).sort()).toEqual(['Letters', 'The off one']);
  });
});
