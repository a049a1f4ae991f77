import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import type { EmbeddingIdentity } from '../../src/providers/embeddings/port.ts';
import { HnswIndex } from '../../src/search/vectors/hnsw.ts';
import { chunkVectorSource } from '../../src/search/read-model/vector-sources.ts';
import { encodeVector } from '../../src/storage/vector-blob.ts';
import { VectorStore, type VectorStoreOptions } from '../../src/search/vectors/store.ts';
import { sleep, until, untilHolds } from '../../../../tests/support/wait.ts';

const identity: EmbeddingIdentity = { provider: 'builtin', model: 'test-16d', dimensions: 16 };
const quiet: VectorStoreOptions = { checkpointIntervalMs: 3_600_000, checkpointWrites: 1_000_000 };

let dir: string;
let db: Db;
let open: VectorStore[];
let nextChunk = 0;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-vectors-'));
  db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
  const at = new Date().toISOString();
  await db('sources').insert({ id: 's1', created_at: at, updated_at: at });
  open = [];
});

afterEach(async () => {
  for (const store of open) await store.close().catch(() => undefined);
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function openStore(options: VectorStoreOptions = {}, storeIdentity = identity): Promise<VectorStore> {
  const store = await VectorStore.open(dir, 'chunks', storeIdentity, db, chunkVectorSource, { ...quiet, ...options });
  open.push(store);
  return store;
}

function randomUnit(dimensions: number, random: () => number = Math.random): Float32Array {
  const vector = new Float32Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i += 1) {
    // Box–Muller: normal components give directions uniform on the sphere.
    vector[i] = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    norm += vector[i] * vector[i];
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dimensions; i += 1) vector[i] /= norm;
  return vector;
}

/** Commits chunks with their vectors to SQLite, as the indexing pipeline does; returns their rows. */
async function insertChunks(count: number, model = identity.model): Promise<{ label: number; vector: Float32Array }[]> {
  const rows: { label: number; vector: Float32Array }[] = [];
  const at = new Date().toISOString();
  for (let i = 0; i < count; i += 1) {
    const id = `chunk-${(nextChunk += 1)}`;
    const vector = randomUnit(identity.dimensions);
    await db('document_chunks').insert({
      id,
      source_id: 's1',
      chunk_index: nextChunk,
      content: `chunk ${nextChunk}`,
      created_at: at,
    });
    const [{ rowid }] = (await db('document_chunks').where({ id }).select('rowid')) as { rowid: number }[];
    await db('chunk_vectors').insert({
      chunk_rowid: rowid,
      model,
      dimensions: identity.dimensions,
      vector: encodeVector(vector),
    });
    rows.push({ label: rowid, vector });
  }
  return rows;
}

async function deleteChunks(labels: number[]): Promise<void> {
  await db('document_chunks').whereIn('rowid', labels).delete();
}

const nearest = (store: VectorStore, vector: Float32Array) => store.search(vector, 1)[0];
const labelsOf = (store: VectorStore, vector: Float32Array, k = 10) => store.search(vector, k).map((hit) => hit.label);

describe('VectorStore', () => {
  it('adds, searches and removes, with cosine similarity = 1 − distance', async () => {
    const store = await openStore();
    expect(store.startup).toMatchObject({ action: 'rebuilt', reason: 'no usable checkpoint marker' });
    expect(store.search(randomUnit(16), 5)).toEqual([]);
    const rows = await insertChunks(40);
    await store.upsert(rows);
    expect(store.size).toBe(40);
    const hit = nearest(store, rows[7].vector);
    expect(hit.label).toBe(rows[7].label);
    expect(hit.similarity).toBeCloseTo(1, 5);
    expect(hit.similarity).toBeCloseTo(1 - hit.distance, 10);
    const opposite = nearest(
      store,
      rows[7].vector.map((x) => -x),
    );
    expect(opposite.label).not.toBe(rows[7].label);
    expect(store.search(rows[7].vector, 100)).toHaveLength(40);

    await deleteChunks([rows[7].label]);
    await store.remove([rows[7].label, 999_999]);
    expect(store.size).toBe(39);
    expect(labelsOf(store, rows[7].vector, 40)).not.toContain(rows[7].label);

    // Re-adding replaces the vector, also for a removed label.
    const moved = randomUnit(16);
    await store.upsert([
      { label: rows[3].label, vector: moved },
      { label: rows[7].label, vector: rows[7].vector },
    ]);
    expect(store.size).toBe(40);
    expect(nearest(store, moved)).toMatchObject({ label: rows[3].label });
    expect(nearest(store, rows[7].vector)).toMatchObject({ label: rows[7].label });
    await expect(store.upsert([{ label: 1, vector: new Float32Array(3) }])).rejects.toThrow(/dimensions/);
  });

  it('leaves the event loop to other work while yieldWhile answers true and many vectors wait', async () => {
    let yielding = false;
    const store = await openStore({ yieldWhile: () => yielding, deferUpTo: 0 });
    const batch = (from: number) =>
      Array.from({ length: 4_000 }, (_, offset) => ({ label: from + offset, vector: randomUnit(16) }));
    /** Event-loop turns other work got while the upsert ran. */
    const turnsBeside = async (rows: { label: number; vector: Float32Array }[]) => {
      let done = false;
      let turns = 0;
      const upserted = store.upsert(rows).finally(() => (done = true));
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        turns += 1;
      }
      await upserted;
      return turns;
    };

    const eager = await turnsBeside(batch(1));
    yielding = true;
    const yieldingTurns = await turnsBeside(batch(10_001));

    expect(store.size).toBe(8_000);
    expect(yieldingTurns).toBeGreaterThan(eager * 10);
  });

  it('defers insertion while yieldWhile answers true, up to deferUpTo waiting vectors, then catches up', async () => {
    let yielding = true;
    const store = await openStore({ yieldWhile: () => yielding, deferUpTo: 3_000 });
    const batch = (from: number) =>
      Array.from({ length: 2_000 }, (_, offset) => ({ label: from + offset, vector: randomUnit(16) }));
    const settled = (promise: Promise<void>) => {
      let done = false;
      void promise.finally(() => (done = true));
      return () => done;
    };
    const pause = () => sleep(150);

    const first = settled(store.upsert(batch(1)));
    await pause();
    expect(store.size).toBe(0);
    expect(first()).toBe(false);

    // 4,000 waiting: insertion runs until fewer than 3,000 wait, then waits again.
    const second = settled(store.upsert(batch(2_001)));
    // How fast the 1,000 go in depends on the machine's load; that they stop there does not.
    await until(() => store.size >= 1_000, { timeoutMs: 10_000, what: '1,000 vectors inserted' });
    await pause();
    expect(store.size).toBeLessThanOrEqual(1_008);
    expect(second()).toBe(false);

    yielding = false;
    await until(() => first() && second(), { timeoutMs: 10_000, what: 'both upserts to settle' });
    expect(store.size).toBe(4_000);
  });

  it('normalises vectors that are not unit length', async () => {
    const store = await openStore();
    const rows = await insertChunks(10);
    await store.upsert(rows.map((row) => ({ label: row.label, vector: row.vector.map((x) => x * 7) })));
    const hit = nearest(
      store,
      rows[2].vector.map((x) => x * 0.1),
    );
    expect(hit.label).toBe(rows[2].label);
    expect(hit.similarity).toBeCloseTo(1, 5);
  });

  it('passes candidate labels through the filter callback', async () => {
    const store = await openStore();
    const rows = await insertChunks(60);
    await store.upsert(rows);
    const allowed = new Set(rows.filter((_, index) => index % 3 === 0).map((row) => row.label));
    const hits = store.search(rows[1].vector, 10, (label) => allowed.has(label));
    expect(hits).toHaveLength(10);
    for (const hit of hits) expect(allowed.has(hit.label)).toBe(true);
    expect(store.search(rows[1].vector, 10, () => false)).toEqual([]);
  });

  it('persists across a reopen without rebuilding', async () => {
    const writer = await openStore();
    const rows = await insertChunks(30);
    await writer.upsert(rows);
    await writer.remove([rows[0].label]);
    await deleteChunks([rows[0].label]);
    await writer.close();
    const files = fs.readdirSync(path.join(dir, 'vectors')).sort();
    expect(files).toEqual(['chunks.hnsw', 'chunks.meta.json']);
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'vectors', 'chunks.meta.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(meta).toMatchObject({ format: 1, kind: 'chunks', identity, count: 29, tombstones: [rows[0].label] });

    const reopened = await openStore();
    expect(reopened.startup).toEqual({ action: 'loaded', replayed: 0, added: 0, removed: 0 });
    expect(reopened.size).toBe(29);
    expect(nearest(reopened, rows[5].vector).label).toBe(rows[5].label);
    expect(labelsOf(reopened, rows[0].vector, 29)).not.toContain(rows[0].label);
  });

  describe('rebuilds from SQLite', () => {
    let rows: { label: number; vector: Float32Array }[];
    beforeEach(async () => {
      const writer = await openStore();
      rows = await insertChunks(25);
      await writer.upsert(rows);
      await writer.close();
    });
    const indexFile = () => path.join(dir, 'vectors', 'chunks.hnsw');

    it('when the index file is missing', async () => {
      fs.rmSync(indexFile());
      const store = await openStore();
      expect(store.startup).toMatchObject({ action: 'rebuilt', reason: expect.stringMatching(/missing/) });
      expect(store.size).toBe(25);
      expect(nearest(store, rows[4].vector).label).toBe(rows[4].label);
    });

    it('when the index file is garbage, whatever its size', async () => {
      const size = fs.statSync(indexFile()).size;
      fs.writeFileSync(indexFile(), Buffer.alloc(size, 0x5a));
      const sameSize = await openStore();
      expect(sameSize.startup).toMatchObject({ action: 'rebuilt', reason: expect.stringMatching(/cannot be read/) });
      expect(nearest(sameSize, rows[9].vector).label).toBe(rows[9].label);
      await sameSize.close();

      fs.writeFileSync(indexFile(), 'not an index');
      const otherSize = await openStore();
      expect(otherSize.startup.action).toBe('rebuilt');
      expect(otherSize.size).toBe(25);
    });

    it('when the marker is corrupt', async () => {
      fs.writeFileSync(path.join(dir, 'vectors', 'chunks.meta.json'), '{"format":');
      const store = await openStore();
      expect(store.startup).toMatchObject({ action: 'rebuilt', reason: 'no usable checkpoint marker' });
      expect(store.size).toBe(25);
    });

    it('when the embedding identity changed, at open or while running', async () => {
      const other: EmbeddingIdentity = { provider: 'localllm', model: 'other', dimensions: 16 };
      const otherRows = await insertChunks(5, 'other');
      const switched = await openStore({}, other);
      expect(switched.startup).toMatchObject({ action: 'rebuilt', reason: expect.stringMatching(/builtin\/test-16d/) });
      expect(switched.size).toBe(5);
      expect(nearest(switched, otherRows[1].vector).label).toBe(otherRows[1].label);

      expect(switched.needsRebuild(other)).toBe(false);
      expect(switched.needsRebuild(identity)).toBe(true);
      await switched.rebuild(identity);
      expect(switched.needsRebuild(identity)).toBe(false);
      expect(switched.size).toBe(25);
      expect(nearest(switched, rows[3].vector).label).toBe(rows[3].label);
      await switched.close();
      expect((await openStore()).startup.action).toBe('loaded');
    });
  });

  describe('reconciles with SQLite after a crash between checkpoints', () => {
    it('replays journaled writes: new rows found, deleted rows gone, reused rowids re-read', async () => {
      const writer = await openStore();
      const rows = await insertChunks(30);
      await writer.upsert(rows);
      await writer.flush();

      const added = await insertChunks(10);
      await writer.upsert(added);
      await deleteChunks([rows[2].label, rows[3].label]);
      await writer.remove([rows[2].label, rows[3].label]);
      // The newest chunks deleted and re-created: SQLite hands the same rowids out again, with other vectors.
      const newest = added.slice(-3).map((row) => row.label);
      await deleteChunks(newest);
      await writer.remove(newest);
      const reused = await insertChunks(3);
      expect(reused.map((row) => row.label)).toEqual(newest);
      await writer.upsert(reused);
      expect(fs.readdirSync(path.join(dir, 'vectors')).filter((name) => name.endsWith('.journal'))).toHaveLength(1);
      // Crash: the writer is abandoned without a checkpoint (its timer is an hour away and unref'd).
      open = open.filter((store) => store !== writer);

      const recovered = await openStore();
      expect(recovered.startup).toEqual({ action: 'loaded', replayed: 12, added: 0, removed: 0 });
      expect(recovered.size).toBe(38);
      for (const row of [...added.slice(0, 7), ...reused]) expect(nearest(recovered, row.vector).label).toBe(row.label);
      const everything = recovered.search(rows[2].vector, 100).map((hit) => hit.label);
      expect(everything).not.toContain(rows[2].label);
      expect(everything).not.toContain(rows[3].label);
      expect(fs.readdirSync(path.join(dir, 'vectors')).filter((name) => name.endsWith('.journal'))).toEqual([]);
    });

    it('diffs labels when SQLite changed behind the store', async () => {
      const writer = await openStore();
      const rows = await insertChunks(20);
      await writer.upsert(rows);
      await writer.close();
      // Committed to SQLite, but the process died before telling the index; and another process deleted rows.
      const unindexed = await insertChunks(4);
      await deleteChunks([rows[0].label, rows[1].label]);

      const recovered = await openStore();
      expect(recovered.startup).toEqual({ action: 'loaded', replayed: 0, added: 4, removed: 2 });
      expect(recovered.size).toBe(22);
      expect(nearest(recovered, unindexed[2].vector).label).toBe(unindexed[2].label);
      expect(labelsOf(recovered, rows[0].vector, 22)).not.toContain(rows[0].label);

      await deleteChunks([rows[5].label]);
      expect(await recovered.reconcile()).toEqual({ added: 0, removed: 1 });
      expect(recovered.size).toBe(21);
    });
  });

  describe('checkpoints', () => {
    it('after the configured number of writes, and at most every interval otherwise', async () => {
      const writer = await openStore({ checkpointWrites: 10, checkpointIntervalMs: 200 });
      const marker = () =>
        JSON.parse(fs.readFileSync(path.join(dir, 'vectors', 'chunks.meta.json'), 'utf8')) as {
          checkpoint: string;
          count: number;
        };
      const first = marker().checkpoint;
      const rows = await insertChunks(12);
      await writer.upsert(rows.slice(0, 10));
      expect(marker()).toMatchObject({ count: 10 });
      expect(marker().checkpoint).not.toBe(first);
      await writer.upsert(rows.slice(10));
      expect(marker().count).toBe(10);
      await untilHolds(
        () => marker().count,
        (count) => count === 12,
        {
          timeoutMs: 2_000,
          intervalMs: 20,
          what: 'the marker to count the checkpointed rows',
        },
      );
    });
  });

  describe('a reader in another process', () => {
    it('loads the last checkpoint and picks up the writer’s next ones', async () => {
      const writer = await openStore();
      const rows = await insertChunks(10);
      await writer.upsert(rows);
      await writer.flush();

      const reader = await openStore({ role: 'reader', pollMs: 0 });
      expect(reader.startup.action).toBe('loaded');
      expect(reader.size).toBe(10);
      await expect(reader.upsert(rows)).rejects.toThrow(/reader/);

      const later = await insertChunks(5);
      await writer.upsert(later);
      expect(reader.size).toBe(10);
      await writer.flush();
      await reader.refresh();
      expect(reader.size).toBe(15);
      expect(nearest(reader, later[4].vector).label).toBe(later[4].label);

      // Without an explicit refresh: a search stats the marker and reloads in the background.
      await deleteChunks([later[4].label]);
      await writer.remove([later[4].label]);
      await writer.flush();
      reader.search(later[4].vector, 1);
      await untilHolds(
        () => reader.size,
        (size) => size === 14,
        {
          timeoutMs: 2_000,
          intervalMs: 10,
          what: 'the background reload after the search',
        },
      );
      expect(labelsOf(reader, later[4].vector, 14)).not.toContain(later[4].label);
    });

    it('starts empty without a checkpoint of its identity, and serves the writer’s once it exists', async () => {
      const rows = await insertChunks(6);
      const reader = await openStore({ role: 'reader', pollMs: 0 });
      expect(reader.startup.action).toBe('empty');
      expect(reader.search(rows[0].vector, 3)).toEqual([]);
      const writer = await openStore();
      expect(writer.startup.action).toBe('rebuilt');
      await reader.refresh();
      expect(reader.size).toBe(6);

      const other = await openStore({ role: 'reader' }, { ...identity, model: 'other' });
      expect(other.size).toBe(0);
      expect(other.needsRebuild(identity)).toBe(true);
    });
  });
});

describe('HNSW recall', () => {
  it('reaches recall@10 ≥ 0.95 against exact search on 20,000 random 100-d unit vectors', () => {
    let seed = 12_345;
    // mulberry32: a seeded generator, so the asserted recall is the same on every run.
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const dimensions = 100;
    const data = Array.from({ length: 20_000 }, () => randomUnit(dimensions, random));
    const index = HnswIndex.create(dimensions);
    index.add(data.map((vector, label) => ({ label, vector })));
    let found = 0;
    const queries = 100;
    for (let q = 0; q < queries; q += 1) {
      const query = randomUnit(dimensions, random);
      const exact = data
        .map((vector, label) => {
          let dot = 0;
          for (let i = 0; i < dimensions; i += 1) dot += vector[i] * query[i];
          return { label, dot };
        })
        .sort((a, b) => b.dot - a.dot)
        .slice(0, 10)
        .map((entry) => entry.label);
      const approximate = new Set(index.search(query, 10).map((hit) => hit.label));
      found += exact.filter((label) => approximate.has(label)).length;
    }
    index.close();
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);
});
