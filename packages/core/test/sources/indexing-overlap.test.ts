import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { DataPaths } from '../../src/paths.ts';
import { BuiltinEmbeddingAdapter } from '../../src/providers/embeddings/builtin/adapter.ts';
import { EmbeddingService } from '../../src/providers/embeddings/service.ts';
import type { LlmService } from '../../src/providers/llm/service.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { originalPath } from '../../src/sources/files.ts';
import { indexSource, type ChunkVectorSink } from '../../src/sources/indexing.ts';
import { segmentChars } from '../../src/sources/text/segments.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { sleep } from '../../../../tests/support/wait.ts';

// Indexing a real document into a real database with the builtin embedder: storing and embedding overlap
// wave by wave, so the first vectors reach the index while later chunks are not stored yet.

const waveSize = 20;

function documentText(paragraphs: number): string {
  const topics = ['harbour', 'orchard', 'observatory', 'glacier', 'archive', 'foundry', 'lagoon', 'monastery'];
  return Array.from({ length: paragraphs }, (_, index) => {
    const topic = topics[index % topics.length];
    return `Paragraph ${index} tells of the ${topic} near Quillonbrae, where keeper number ${index} kept a ledger of every ship, storm and visitor. `.repeat(
      5,
    );
  }).join('\n\n');
}

describe('indexing a source', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'indexing-overlap-'));
  const paths = new DataPaths(dir);
  const settings = defaultSettings();
  settings.batching.embedding_wave_size = waveSize;
  let db: Db;

  beforeAll(async () => {
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A stored original of `paragraphs` paragraphs and its `pending` source row. */
  async function pendingSource(sourceId: string, paragraphs: number): Promise<void> {
    const file = originalPath(paths, 'default', sourceId, 'chronicle.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, documentText(paragraphs));
    const at = new Date().toISOString();
    await db('sources').insert({
      id: sourceId,
      title: 'chronicle.txt',
      source_type: 'file',
      status: 'pending',
      filename: 'chronicle.txt',
      stored_filename: 'chronicle.txt',
      auto_confirm: true,
      extract_entities: false,
      created_at: at,
      updated_at: at,
    });
  }

  function builtinEmbeddings(): EmbeddingService {
    const adapter = new BuiltinEmbeddingAdapter({
      cacheDir: process.env.RHIZOME_MODELS_DIR ?? path.join(dir, 'models'),
    });
    return new EmbeddingService({ settings: () => settings, adapter: () => adapter, record: () => undefined });
  }

  const index = (sourceId: string, embeddings: EmbeddingService, vectors: ChunkVectorSink) =>
    indexSource({
      db,
      writer: db,
      database: 'default',
      sourceId,
      paths,
      settings,
      embeddings,
      vectors,
      domains: builtinDomains(),
      // A text source never asks for vision.
      llm: null as unknown as LlmService,
      signal: new AbortController().signal,
      checkCancelled: async () => undefined,
    });

  it('stores and embeds wave by wave, ending with every chunk stored, embedded and in the vector index once', async () => {
    const sourceId = 'src_overlap';
    await pendingSource(sourceId, 200);
    const embeddings = builtinEmbeddings();
    const upserts: { labels: number[]; storedRows: number }[] = [];
    const vectors: ChunkVectorSink = {
      yieldingTo: (work) => work(),
      upsert: async (rows) => {
        const [{ n }] = (await db('document_chunks').where({ source_id: sourceId }).count({ n: '*' })) as {
          n: number;
        }[];
        upserts.push({ labels: rows.map((row) => row.label), storedRows: Number(n) });
      },
    };

    const result = await index(sourceId, embeddings, vectors);

    expect(result.status).toBe('indexed');
    expect(result.chunks).toBeGreaterThan(waveSize * 3);
    // The first wave's vectors were handed over before the later waves' rows existed.
    expect(upserts[0]).toMatchObject({ storedRows: waveSize });
    expect(upserts).toHaveLength(Math.ceil(result.chunks / waveSize));

    const source = await db('sources').where({ id: sourceId }).first();
    expect(source).toMatchObject({
      chunk_count: result.chunks,
      embedded_chunk_count: result.chunks,
      current_step: 'indexed',
    });
    expect(JSON.parse(source!.index_timings!)).toMatchObject({
      storing_ms: expect.any(Number),
      embedding_ms: expect.any(Number),
      embedding_wait_ms: expect.any(Number),
    });
    const rowids = (
      (await db('document_chunks').where({ source_id: sourceId }).orderBy('rowid').select('rowid')) as {
        rowid: number;
      }[]
    ).map((row) => row.rowid);
    expect(upserts.flatMap((upsert) => upsert.labels).sort((a, b) => a - b)).toEqual(rowids);
    const [{ embedded }] = (await db('chunk_vectors').count({ embedded: '*' })) as { embedded: number }[];
    expect(Number(embedded)).toBe(result.chunks);
    const [{ indexed }] = (await db.raw('SELECT COUNT(*) AS indexed FROM fts_chunks WHERE fts_chunks MATCH ?', [
      'Quillonbrae',
    ])) as { indexed: number }[];
    expect(indexed).toBe(result.chunks);
  });

  it('commits each wave whole: a reader of the database never sees chunks without their embeddings and progress', async () => {
    const sourceId = 'src_whole_waves';
    await pendingSource(sourceId, 200);
    const seen: { chunks: number; embedded: number; progress: number }[] = [];
    let done = false;
    // Each sample is one statement, so one consistent snapshot of what other connections have committed.
    const sample = async () => {
      while (!done) {
        const [row] = (await db.raw(
          `SELECT (SELECT COUNT(*) FROM document_chunks WHERE source_id = :id) AS chunks,
                  (SELECT COUNT(*) FROM chunk_vectors v JOIN document_chunks c ON c.rowid = v.chunk_rowid WHERE c.source_id = :id) AS embedded,
                  (SELECT embedded_chunk_count FROM sources WHERE id = :id) AS progress`,
          { id: sourceId },
        )) as { chunks: number; embedded: number; progress: number }[];
        seen.push(row);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const sampling = sample();
    const result = await index(sourceId, builtinEmbeddings(), {
      upsert: async () => undefined,
      yieldingTo: (work) => work(),
    }).finally(() => (done = true));
    await sampling;

    const midway = seen.filter((row) => row.chunks > 0 && row.chunks < result.chunks);
    expect(midway.length).toBeGreaterThan(0);
    expect(seen.filter((row) => row.chunks !== row.embedded || row.embedded !== row.progress)).toEqual([]);
    expect(seen.at(-1)).toEqual({ chunks: result.chunks, embedded: result.chunks, progress: result.chunks });
  });

  it('stores and embeds the first segment of a large document while the rest is still being prepared', async () => {
    const sourceId = 'src_streamed';
    await pendingSource(sourceId, Math.ceil((4.5 * segmentChars) / documentText(1).length));
    settings.batching.embedding_wave_size = 500;
    // Loaded before indexing starts: loading the word vectors on the first wave would let preparation finish first.
    const embeddings = builtinEmbeddings();
    await embeddings.embed(['warm up']);
    const seen: { prepared: number; embedded: number }[] = [];
    let done = false;
    const sample = async () => {
      while (!done) {
        const row = (await db('sources')
          .where({ id: sourceId })
          .first('chunk_count as prepared', 'embedded_chunk_count as embedded')) as {
          prepared: number;
          embedded: number;
        };
        seen.push(row);
        await sleep(5);
      }
    };
    const sampling = sample();
    try {
      const result = await index(sourceId, embeddings, {
        upsert: async () => undefined,
        yieldingTo: (work) => work(),
      }).finally(() => (done = true));
      await sampling;

      // Chunks were stored and embedded while the count of prepared chunks was still short of the whole.
      expect(seen.some((row) => row.embedded > 0 && row.prepared < result.chunks)).toBe(true);
      const chunks = (await db('document_chunks')
        .where({ source_id: sourceId })
        .orderBy('chunk_index')
        .select('chunk_index', 'start_offset')) as { chunk_index: number; start_offset: number }[];
      expect(chunks.map((chunk) => chunk.chunk_index)).toEqual(chunks.map((_, index) => index));
      expect(chunks.every((chunk, index) => index === 0 || chunk.start_offset > chunks[index - 1].start_offset)).toBe(
        true,
      );
      const [{ groups }] = (await db('chunk_groups').where({ source_id: sourceId }).count({ groups: '*' })) as {
        groups: number;
      }[];
      expect(Number(groups)).toBeGreaterThan(0);
      expect(await db('sources').where({ id: sourceId }).first()).toMatchObject({
        chunk_count: result.chunks,
        embedded_chunk_count: result.chunks,
      });
    } finally {
      settings.batching.embedding_wave_size = waveSize;
    }
  });
});
