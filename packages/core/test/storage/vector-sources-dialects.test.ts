import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/index.ts';
import { storeClientNodeVectors, storeNodeVectors } from '../../src/graph/nodes/vectors.ts';
import {
  autoEmbedArmed,
  nodesWithoutVector,
  someNodeLacksVector,
} from '../../src/search/read-model/node-vector-gaps.ts';
import { hasOrphanedVectors, storedVectorGroups } from '../../src/search/read-model/vector-identity.ts';
import { idsOfLabels, vectorSources } from '../../src/search/read-model/vector-sources.ts';
import type { VectorItem } from '../../src/search/vectors/port.ts';
import { storeChunkVectors } from '../../src/sources/chunk-vectors.ts';
import {
  corpusState,
  learnChunks,
  markRefreshed,
  replaceCorpus,
  termStats,
} from '../../src/search/vectors/corpus/store.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };
const identity = { provider: 'builtin', model: 'm', dimensions: 2 } as const;

const shown = (items: VectorItem[]) => items.map((item) => [item.label, [...item.vector]]);

/** What the vector indexes are built and caught up from reads the same rows on both dialects. */
describe.each(dialects)('vector sources on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  const rowids: Record<string, number> = {};

  beforeAll(async () => {
    db = await databases.open('vectors');
    await db('graph_templates').insert([
      { id: 'person', name: 'Person', template_type: 'node', properties: '[]', ...stamps },
      { id: 'place', name: 'Place', template_type: 'node', properties: '[]', ...stamps },
    ]);
    await db('sources').insert({ id: 's1', title: 'Letters', ...stamps });
    await db('document_chunks').insert(
      ['c0', 'c1', 'c2'].map((id, index) => ({ id, source_id: 's1', chunk_index: index, content: id, created_at: at })),
    );
    await db('graph_nodes').insert(
      ['ada', 'bob', 'carl'].map((id) => ({ id, template_id: 'person', label: id, ...stamps })),
    );
    for (const table of ['document_chunks', 'graph_nodes', 'graph_templates'])
      for (const row of await db(table).select('rowid', 'id')) rowids[row.id] = row.rowid;
    await storeChunkVectors(db, [
      { rowid: rowids.c0, model: 'm', vector: Float32Array.of(1, 0) },
      { rowid: rowids.c2, model: 'm', vector: Float32Array.of(0, 1) },
    ]);
    await storeChunkVectors(db, [{ rowid: rowids.c1, model: 'other', vector: Float32Array.of(1, 1) }]);
    await storeNodeVectors(db, [
      { nodeId: 'ada', model: 'm', vector: Float32Array.of(0.5, 0.5) },
      { nodeId: 'carl', model: 'm', vector: Float32Array.of(1, 2, 3) },
    ]);
    await storeClientNodeVectors(db, [{ id: 'bob', embedding: [0.25, 0.75] }]);
    await db('graph_templates')
      .where({ id: 'place' })
      .update({ embedding: '[0.5,-0.5]', embedding_model: 'm', embedding_dimensions: 2 });
  }, 120_000);
  afterAll(() => databases.close());

  it('counts, walks, picks and lists the chunk vectors of one identity', async () => {
    const source = vectorSources.chunks;
    expect(await source.count(db, identity)).toBe(2);
    expect(shown(await source.scan(db, identity, 0, 1))).toEqual([[rowids.c0, [1, 0]]]);
    expect(shown(await source.scan(db, identity, rowids.c0, 10))).toEqual([[rowids.c2, [0, 1]]]);
    expect(shown(await source.fetch(db, identity, [rowids.c1, rowids.c2, 999_999]))).toEqual([[rowids.c2, [0, 1]]]);
    expect(await source.labels(db, identity)).toEqual([rowids.c0, rowids.c2]);
    expect(await source.lastSeq(db)).toBe(rowids.c2);
    expect((await source.since(db, identity, rowids.c0, 10)).map((item) => [item.seq, item.label])).toEqual([
      [rowids.c2, rowids.c2],
    ]);
    expect(await source.before(db, identity, rowids.c2 + 1, 10)).toEqual([
      { seq: rowids.c2, label: rowids.c2 },
      { seq: rowids.c0, label: rowids.c0 },
    ]);
  });

  it('labels node vectors by the node, counts a client’s, and sequences them by their writes', async () => {
    const source = vectorSources.nodes;
    expect(await source.count(db, identity)).toBe(2);
    expect(await source.labels(db, identity)).toEqual([rowids.ada, rowids.bob]);
    expect(shown(await source.fetch(db, identity, [rowids.bob, rowids.carl]))).toEqual([[rowids.bob, [0.25, 0.75]]]);
    const written = await source.since(db, identity, 0, 10);
    expect(written.map((item) => item.label)).toEqual([rowids.ada, rowids.bob]);
    expect(written[1].seq).toBeGreaterThan(written[0].seq);
    expect(await source.lastSeq(db)).toBe(written[1].seq);
  });

  it('reads template vectors from their JSON and maps labels back to ids', async () => {
    const source = vectorSources.templates;
    expect(shown(await source.scan(db, identity, 0, 10))).toEqual([[rowids.place, [0.5, -0.5]]]);
    expect(await source.lastSeq(db)).toBeGreaterThan(0);
    expect(Object.fromEntries(await idsOfLabels(db, 'chunks', [rowids.c2, rowids.c0, 999_999]))).toEqual({
      [rowids.c0]: 'c0',
      [rowids.c2]: 'c2',
    });
    expect(Object.fromEntries(await idsOfLabels(db, 'nodes', [rowids.bob]))).toEqual({ [rowids.bob]: 'bob' });
  });

  it('tells vectors of another identity, the stored groups, and the nodes the sweep must embed', async () => {
    expect(await hasOrphanedVectors(db, identity)).toBe(true);
    expect(await hasOrphanedVectors(db, { ...identity, model: 'other' })).toBe(true);
    expect(
      (await storedVectorGroups(db))
        .map((group) => `${group.kind}:${group.model}:${group.dimensions}:${group.count}`)
        .sort(),
    ).toEqual(['chunks:m:2:2', 'chunks:other:2:1', 'nodes:m:2:1', 'nodes:m:3:1', 'templates:m:2:1']);
    await db('chunk_vectors').where({ model: 'other' }).delete();
    await db('node_embeddings').where({ node_id: 'carl' }).delete();
    expect(await hasOrphanedVectors(db, identity)).toBe(false);

    expect(await someNodeLacksVector(db)).toBe(true);
    expect(await nodesWithoutVector(db, '2027-01-01T00:00:00.000Z', 0, 10)).toEqual([
      { rowid: rowids.carl, id: 'carl' },
    ]);
    expect(await nodesWithoutVector(db, at, 0, 10)).toEqual([]);

    expect(await autoEmbedArmed(db)).toBe(false);
    await db('workflows').insert({
      id: 'w',
      name: 'Embed',
      is_system: true,
      is_active: true,
      input_schema: '{}',
      timeout_seconds: 60,
      max_retries: 0,
      ...stamps,
    });
    await db('triggers').insert({
      id: 't',
      name: 'On create',
      event_source: 'node.create',
      filters: '{}',
      workflow_id: 'w',
      enabled: true,
      is_system: true,
      ...stamps,
    });
    expect(await autoEmbedArmed(db)).toBe(true);
    await db('workflows').where({ id: 'w' }).update({ is_active: false });
    expect(await autoEmbedArmed(db)).toBe(false);
  });

  it('learns the corpus model from chunks, term by term, and replaces it whole', async () => {
    expect(await corpusState(db)).toMatchObject({ documents: 0, learnedThrough: 0 });
    await learnChunks(db, [
      { rowid: 4, content: 'radium glows' },
      { rowid: 7, content: 'radium decays' },
    ]);
    await learnChunks(db, [{ rowid: 9, content: 'polonium decays' }]);
    expect(await corpusState(db)).toMatchObject({ documents: 3, learnedThrough: 9, refreshedDocuments: 0 });
    const stats = await termStats(db, ['radium', 'decays', 'polonium', 'absent']);
    expect([...stats].map(([term, { documents }]) => [term, documents]).sort()).toEqual([
      ['decays', 2],
      ['polonium', 1],
      ['radium', 2],
    ]);
    const context = stats.get('radium')!.context;
    await replaceCorpus(db, {
      seed: 7,
      documents: 1,
      learnedThrough: 4,
      terms: new Map([['glows', { documents: 1, context }]]),
    });
    await markRefreshed(db, 1);
    expect(await corpusState(db)).toEqual({ seed: 7, documents: 1, learnedThrough: 4, refreshedDocuments: 1 });
    expect([...(await termStats(db, ['radium', 'glows']))].map(([term, value]) => [term, [...value.context]])).toEqual([
      ['glows', [...context]],
    ]);
  });
});
