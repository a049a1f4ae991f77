import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import type { EmbeddingIdentity } from '../../src/providers/embeddings/port.ts';
import { LabelSet } from '../../src/search/vectors/label-set.ts';
import { registerLocalStore, unregisterLocalStore } from '../../src/search/vectors/local-stores.ts';
import { VectorReaders } from '../../src/search/vectors/readers.ts';
import { chunkVectorSource, nodeVectorSource } from '../../src/search/read-model/vector-sources.ts';
import { storeChunkVectors } from '../../src/sources/chunk-vectors.ts';
import { encodeVector } from '../../src/storage/vector-blob.ts';
import { VectorStore } from '../../src/search/vectors/store.ts';
import { until } from '../../../../tests/support/wait.ts';

const identity: EmbeddingIdentity = { provider: 'builtin', model: 'test-16d', dimensions: 16 };

let dir: string;
let db: Db;
let readers: VectorReaders;
let stores: VectorStore[];
let nextChunk = 0;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-readers-'));
  db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
  const at = new Date().toISOString();
  await db('sources').insert({ id: 's1', created_at: at, updated_at: at });
  readers = new VectorReaders({ store: { pollMs: 0 } });
  stores = [];
});

afterEach(async () => {
  await readers.close();
  for (const store of stores) await store.close().catch(() => undefined);
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function openWriter(kind: 'chunks' | 'nodes' = 'chunks'): Promise<VectorStore> {
  const source = kind === 'chunks' ? chunkVectorSource : nodeVectorSource;
  const store = await VectorStore.open(dir, kind, identity, db, source, {
    checkpointIntervalMs: 3_600_000,
    checkpointWrites: 1_000_000,
  });
  stores.push(store);
  return store;
}

function randomUnit(): Float32Array {
  const vector = Float32Array.from({ length: identity.dimensions }, () => Math.random() * 2 - 1);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

interface Row {
  label: number;
  vector: Float32Array;
  id: string;
}

/** Commits chunks with their vectors to SQLite, as indexing does. */
async function insertChunks(count: number, model = identity.model): Promise<Row[]> {
  const rows: Row[] = [];
  const at = new Date().toISOString();
  for (let i = 0; i < count; i += 1) {
    const id = `chunk-${(nextChunk += 1)}`;
    const vector = randomUnit();
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
    rows.push({ label: rowid, vector, id });
  }
  return rows;
}

/** Commits nodes with their vectors, as the graph does. */
async function insertNodes(count: number): Promise<Row[]> {
  const rows: Row[] = [];
  const at = new Date().toISOString();
  await db('graph_templates')
    .insert({ id: 't1', name: 'Thing', template_type: 'node', properties: '[]', created_at: at, updated_at: at })
    .onConflict('id')
    .ignore();
  for (let i = 0; i < count; i += 1) {
    const id = `node-${i}`;
    const vector = randomUnit();
    await db('graph_nodes').insert({
      id,
      template_id: 't1',
      label: id,
      properties: '{}',
      created_at: at,
      updated_at: at,
    });
    await db('node_embeddings').insert({
      node_id: id,
      model: identity.model,
      dimensions: identity.dimensions,
      vector: encodeVector(vector),
    });
    const [{ rowid }] = (await db('graph_nodes').where({ id }).select('rowid')) as { rowid: number }[];
    rows.push({ label: rowid, vector, id });
  }
  return rows;
}

const reader = () => readers.reader(db, 'chunks', identity);
const top = async (vector: Float32Array, k = 1, filter?: (label: number) => boolean) =>
  (await reader().search(vector, k, filter)).map((hit) => hit.label);

describe('vector readers', () => {
  it('cover the vectors SQLite has and the loaded checkpoint lacks, by an exact scan, until the index has them', async () => {
    const writer = await openWriter();
    const rows = await insertChunks(30);
    await writer.upsert(rows.slice(0, 20));
    await writer.flush();

    expect(await top(rows[5].vector)).toEqual([rows[5].label]);
    // Never handed to the index: only the tail can find them.
    const [hit] = await reader().search(rows[25].vector, 1);
    expect(hit.label).toBe(rows[25].label);
    expect(hit.similarity).toBeCloseTo(1, 5);
    expect(reader().tailSize).toBe(10);
    expect(await reader().size()).toBe(30);

    // Written after the reader looked: found by their write sequence.
    const later = await insertChunks(3);
    expect(await top(later[1].vector)).toEqual([later[1].label]);
    expect(reader().tailSize).toBe(13);

    await writer.upsert([...rows.slice(20), ...later]);
    await writer.flush();
    await until(
      async () => {
        await reader().search(rows[0].vector, 1);
        return reader().tailSize === 0;
      },
      { timeoutMs: 2_000, intervalMs: 20, what: 'the reader to load the checkpoint' },
    );
    expect(await reader().size()).toBe(33);
    expect(await top(later[2].vector)).toEqual([later[2].label]);
  });

  it('find at open what the checkpoint lacks, and leave other identities out', async () => {
    const writer = await openWriter();
    const rows = await insertChunks(12);
    await writer.upsert(rows.slice(0, 4));
    await writer.flush();
    const others = await insertChunks(3, 'another-model');

    expect(await reader().size()).toBe(12);
    expect(reader().tailSize).toBe(8);
    for (const row of rows) expect(await top(row.vector)).toEqual([row.label]);
    for (const row of others) expect(await top(row.vector)).not.toContain(row.label);
  });

  it('answer a replaced vector with the new one, while the index still holds the old', async () => {
    // Node vectors: a replaced row gets a new rowid, its write sequence (a chunk vector keeps its key).
    const writer = await openWriter('nodes');
    const rows = await insertNodes(10);
    await writer.upsert(rows);
    await writer.flush();
    const nodes = () => readers.reader(db, 'nodes', identity);
    const nearestNode = async (vector: Float32Array) => (await nodes().search(vector, 1)).map((hit) => hit.label);
    expect(await nearestNode(rows[3].vector)).toEqual([rows[3].label]);

    const moved = randomUnit();
    await db.raw('INSERT OR REPLACE INTO node_embeddings (node_id, model, dimensions, vector) VALUES (?, ?, ?, ?)', [
      rows[3].id,
      identity.model,
      16,
      encodeVector(moved),
    ]);
    const [hit] = await nodes().search(moved, 1);
    expect(hit).toMatchObject({ label: rows[3].label });
    expect(hit.similarity).toBeCloseTo(1, 5);
    const old = (await nodes().search(rows[3].vector, 10)).find((entry) => entry.label === rows[3].label);
    expect(old?.similarity ?? 0).toBeLessThan(0.99);

    // The writer applies the replacement and checkpoints: the tail entry goes, the index answers alike.
    await writer.upsert([{ label: rows[3].label, vector: moved }]);
    await writer.flush();
    await until(
      async () => {
        await nodes().search(moved, 1);
        return nodes().tailSize === 0;
      },
      { timeoutMs: 2_000, intervalMs: 20, what: 'the node reader to load the checkpoint' },
    );
    expect(await nearestNode(moved)).toEqual([rows[3].label]);
  });

  it('see chunk vectors re-embedded in place once the index has them: their key, the write sequence, stays', async () => {
    const writer = await openWriter();
    const rows = await insertChunks(10, 'previous-model');
    expect(await reader().size()).toBe(0);

    const reembedded = rows.map((row) => ({ ...row, vector: randomUnit() }));
    await db.transaction((trx) =>
      storeChunkVectors(
        trx,
        reembedded.map((row) => ({ rowid: row.label, model: identity.model, vector: row.vector })),
      ),
    );
    // No new sequence: the reader that already looked does not see them in SQLite.
    expect(await reader().size()).toBe(0);
    expect(reader().tailSize).toBe(0);

    // Re-embedding hands them to the writer, which checkpoints: the reader loads them.
    await writer.upsert(reembedded);
    await writer.flush();
    await until(
      async () => {
        await reader().search(reembedded[0].vector, 1);
        return (await reader().size()) === 10;
      },
      { timeoutMs: 2_000, intervalMs: 20, what: 'the reader to load the re-embedded vectors' },
    );
    for (const row of reembedded) expect(await top(row.vector)).toEqual([row.label]);
  });

  it('apply the filter callback to index and tail hits alike', async () => {
    const writer = await openWriter();
    const rows = await insertChunks(40);
    await writer.upsert(rows.slice(0, 20));
    await writer.flush();
    const allowed = LabelSet.of(rows.filter((_, index) => index % 2 === 1).map((row) => row.label));
    const hits = await top(rows[0].vector, 40, (label) => allowed.has(label));
    expect(hits).toHaveLength(20);
    for (const label of hits) expect(allowed.has(label)).toBe(true);
    expect(await top(rows[30].vector, 5, () => false)).toEqual([]);
  });

  it('search an exact list of labels from SQLite', async () => {
    const rows = await insertChunks(8);
    const among = [rows[1].label, rows[4].label, rows[6].label];
    const hits = await reader().searchAmong(rows[4].vector, among, 2);
    expect(hits.map((hit) => hit.label)[0]).toBe(rows[4].label);
    expect(hits).toHaveLength(2);
    for (const hit of hits) expect(among).toContain(hit.label);
  });

  it('search the writer of this process when it has the index open, instead of loading a copy', async () => {
    const rows = await insertChunks(6);
    expect(await top(rows[2].vector)).toEqual([rows[2].label]);
    expect(reader().tailSize).toBe(6);

    const writer = await openWriter();
    registerLocalStore(dir, 'chunks', writer);
    try {
      const later = await insertChunks(4);
      await writer.upsert(later.slice(0, 2));
      // No checkpoint: the live writer index answers, the tail covers what it has not inserted yet.
      for (const row of [...rows, ...later]) expect(await top(row.vector)).toEqual([row.label]);
      expect(reader().tailSize).toBe(2);
      await writer.upsert(later.slice(2));
      await until(
        async () => {
          await reader().search(rows[0].vector, 1);
          return reader().tailSize === 0;
        },
        { timeoutMs: 2_000, intervalMs: 20, what: 'the reader to load the checkpoint' },
      );
      expect(await reader().size()).toBe(10);
    } finally {
      unregisterLocalStore(dir, 'chunks', writer);
    }
  });

  it('look again from what is left when the newest rows were deleted and their sequences reused', async () => {
    const writer = await openWriter();
    const rows = await insertChunks(10);
    await writer.upsert(rows);
    await writer.flush();
    await top(rows[0].vector);
    await db('document_chunks')
      .whereIn(
        'id',
        rows.slice(7).map((row) => row.id),
      )
      .delete();
    await writer.remove(rows.slice(7).map((row) => row.label));
    // The reader's checkpoint still holds the deleted labels: callers map labels to rows, which drops them.
    await top(rows[0].vector);
    // SQLite hands the deleted rowids out again, to rows with other vectors.
    const again = await insertChunks(3);
    expect(again.map((row) => row.label)).toEqual(rows.slice(7).map((row) => row.label));
    for (const row of again) expect(await top(row.vector)).toEqual([row.label]);
  });
});
