import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { semanticSearch } from '@rhizome/core/search';
import type { SearchContext } from '@rhizome/core/search';
import { decodeVector, type Db } from '@rhizome/core/storage';
import { setUpAccount, startTestServer, type TestServer } from '../../../../tests/support/server.ts';
import { uploadSources, waitForSource } from '../../../../tests/support/sources.ts';
import { until } from '../../../../tests/support/wait.ts';
import { needsRefresh } from '../../src/search/vectors/corpus/update.ts';
import { wikiCorpus } from '../fixtures/wiki-corpus.ts';

const everything = { sourceIds: null, templateId: null };
const passages = wikiCorpus.slice(0, 60);
const corpusComponents = 256;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return dot / Math.sqrt(aa * bb);
}

interface StateRow {
  documents: number;
  refreshed_documents: number;
  updated_at: string;
}

describe('the corpus model of a running server', () => {
  let server: TestServer;
  let cookie: string;
  let db: Db;
  const context = (): SearchContext => ({
    db,
    database: 'default',
    settings: server.platform.settings.get(),
    embeddings: server.platform.providers.embeddings,
  });
  const state = async () => (await db('corpus_state').first()) as StateRow | undefined;
  const chunkCount = async () => Number(((await db('document_chunks').count({ n: '*' }).first()) as { n: number }).n);
  const open = async () => {
    cookie = await setUpAccount(server).catch(() => cookie);
    db = (await server.platform.databases.current()).db;
  };
  const upload = async (batch: typeof passages) => {
    const ids: string[] = [];
    for (const passage of batch) {
      const accepted = await uploadSources(server, cookie, '/sources', [
        { name: `${passage.title}.txt`, content: `${passage.title}\n\n${passage.text}` },
      ]);
      expect(accepted.status, accepted.text).toBe(202);
      ids.push((accepted.body as SourceResponseBody).id);
    }
    for (const id of ids) await waitForSource(server, cookie, id, ['awaiting_confirmation', 'indexed', 'error']);
  };
  const chunksLackingCorpusPart = async () => {
    const rows = (await db('chunk_vectors').select('dimensions', 'vector')) as { dimensions: number; vector: Buffer }[];
    return rows.filter((row) =>
      decodeVector(row.vector, row.dimensions)
        .subarray(row.dimensions - corpusComponents)
        .every((component) => component === 0),
    ).length;
  };
  const learnedAll = () =>
    until(
      async () => {
        const chunks = await chunkCount();
        const learned = await state();
        if (!learned || learned.documents !== chunks || (await chunksLackingCorpusPart()) > 0) return undefined;
        const settled = !needsRefresh(
          { seed: 0, documents: learned.documents, learnedThrough: 0, refreshedDocuments: learned.refreshed_documents },
          0,
        );
        return settled ? learned : undefined;
      },
      { timeoutMs: 60_000, what: 'the corpus model to learn every chunk, give its vector a corpus part and settle' },
    );
  const ask = (query: string) => semanticSearch(context(), query, everything, 5);

  beforeAll(async () => {
    server = await startTestServer();
    await open();
    const patched = await server.call('PATCH', '/settings', {
      cookie,
      body: { embedding: { vector_sweep_interval_seconds: 1 } },
    });
    expect(patched.status, patched.text).toBe(200);
    await upload(passages.slice(0, 30));
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('learns the chunks in the background and gives their vectors a corpus part', async () => {
    const learned = await learnedAll();
    expect([learned.documents, await chunksLackingCorpusPart()]).toEqual([await chunkCount(), 0]);
    const result = await ask(passages[3].text.slice(0, 60));
    expect(result.fallback).toBeNull();
    const top = (await db('document_chunks').where({ id: result.items[0].id }).first('content')) as { content: string };
    expect(top.content.startsWith(passages[3].title)).toBe(true);
  }, 90_000);

  it('keeps answering while the vectors are re-made for a corpus grown by half', async () => {
    const before = (await state())!;
    await upload(passages.slice(30, 60));
    const answers: { fallback: string | null; items: number }[] = [];
    const refreshed = await until(
      async () => {
        const result = await ask('Who was the father of the queen?');
        answers.push({ fallback: result.fallback, items: result.items.length });
        const now = await state();
        const chunks = await chunkCount();
        return now && now.refreshed_documents > before.refreshed_documents && now.documents === chunks
          ? now
          : undefined;
      },
      { timeoutMs: 60_000, what: 'the corpus model to be learned anew' },
    );
    expect(refreshed.documents).toBe(await chunkCount());
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.fallback !== null || answer.items === 0)).toEqual([]);
    // The refresh wrote the re-made vectors to SQLite only: the rebuilt chunk index holds those, not the ones it had.
    const writers = server.platform.vectorWriters.chunks;
    await writers.settled();
    const index = (await writers.opened('default'))!;
    const rows = (await db('chunk_vectors').select('chunk_rowid', 'dimensions', 'vector')) as {
      chunk_rowid: number;
      dimensions: number;
      vector: Buffer;
    }[];
    const stale = rows.filter((row) => {
      const held = index.vector(row.chunk_rowid);
      return !held || cosine(held, decodeVector(row.vector, row.dimensions)) < 0.9999;
    });
    expect([rows.length, stale.map((row) => row.chunk_rowid)]).toEqual([refreshed.documents, []]);
  }, 120_000);

  it('is reused after a restart: the same query gets the same answer at once', async () => {
    await learnedAll();
    const query = passages[40].text.slice(0, 80);
    const before = await ask(query);
    const stored = await state();
    const dataDir = server.dataDir;
    await server.stop();
    server = await startTestServer({ dataDir });
    await open();
    const after = await ask(query);
    expect(after.fallback).toBeNull();
    expect(after.items.map((item) => [item.id, item.score.toFixed(4)])).toEqual(
      before.items.map((item) => [item.id, item.score.toFixed(4)]),
    );
    expect(await state()).toEqual(stored);
  }, 120_000);
});
