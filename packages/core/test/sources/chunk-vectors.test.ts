import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { decodeVector } from '../../src/storage/vector-blob.ts';
import type { EmbeddingIdentity } from '../../src/providers/embeddings/port.ts';
import {
  chunksLackingVectors,
  storeChunkVectors,
  storeChunkVectorsById,
  type ChunkVector,
} from '../../src/sources/chunk-vectors.ts';

const at = '2026-01-01T00:00:00.000Z';
const identity: EmbeddingIdentity = { provider: 'builtin', model: 'm', dimensions: 4 };

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-chunk-vectors-'));
  db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
});

afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A source with `count` chunks; returns their rowids in chunk order. */
async function sourceWithChunks(sourceId: string, count: number): Promise<number[]> {
  await db('sources').insert({ id: sourceId, created_at: at, updated_at: at });
  for (let start = 0; start < count; start += 500)
    await db('document_chunks').insert(
      Array.from({ length: Math.min(500, count - start) }, (_, offset) => ({
        id: `${sourceId}-chunk-${start + offset}`,
        source_id: sourceId,
        chunk_index: start + offset,
        content: `chunk ${start + offset} of ${sourceId}`,
        created_at: at,
      })),
    );
  const rows = (await db('document_chunks').where({ source_id: sourceId }).orderBy('chunk_index').select('rowid')) as {
    rowid: number;
  }[];
  return rows.map((row) => row.rowid);
}

const vectorOf = (seed: number, dimensions = identity.dimensions) =>
  Float32Array.from({ length: dimensions }, (_, index) => seed + index / 8);

interface StoredRow {
  chunk_rowid: number;
  model: string;
  dimensions: number;
  vector: Buffer;
}

async function stored(): Promise<Map<number, { model: string; vector: number[] }>> {
  const rows = (await db('chunk_vectors').orderBy('chunk_rowid').select()) as StoredRow[];
  return new Map(
    rows.map((row) => [
      row.chunk_rowid,
      { model: row.model, vector: Array.from(decodeVector(row.vector, row.dimensions)) },
    ]),
  );
}

const vectorCount = async () => Number(((await db('chunk_vectors').count({ n: '*' })) as { n: number }[])[0].n);

describe('chunk vectors', () => {
  it('stores vectors keyed by the chunk rowid and reads them back bit for bit', async () => {
    const rowids = await sourceWithChunks('s1', 5);
    const rows: ChunkVector[] = rowids.map((rowid, index) => ({
      rowid,
      model: 'm',
      vector: vectorOf(index + Math.PI),
    }));
    await db.transaction((trx) => storeChunkVectors(trx, rows));
    const back = await stored();
    expect([...back.keys()]).toEqual(rowids);
    for (const row of rows) expect(back.get(row.rowid)).toEqual({ model: 'm', vector: Array.from(row.vector) });
    const dimensions = (await db('chunk_vectors').distinct('dimensions')) as { dimensions: number }[];
    expect(dimensions).toEqual([{ dimensions: 4 }]);
  });

  it('replaces the vector a chunk had, whatever its model or dimensions', async () => {
    const rowids = await sourceWithChunks('s1', 3);
    await storeChunkVectors(
      db,
      rowids.map((rowid, index) => ({ rowid, model: 'old', vector: vectorOf(index, 2) })),
    );
    await storeChunkVectors(db, [{ rowid: rowids[1], model: 'm', vector: vectorOf(10) }]);
    const back = await stored();
    expect(back.size).toBe(3);
    expect(back.get(rowids[1])).toEqual({ model: 'm', vector: Array.from(vectorOf(10)) });
    expect(back.get(rowids[0])).toEqual({ model: 'old', vector: Array.from(vectorOf(0, 2)) });
    expect(await chunksLackingVectors(db, identity, 0, 10)).toEqual([
      { rowid: rowids[0], id: 's1-chunk-0', content: 'chunk 0 of s1' },
      { rowid: rowids[2], id: 's1-chunk-2', content: 'chunk 2 of s1' },
    ]);
    expect((await chunksLackingVectors(db, identity, rowids[0], 1)).map((chunk) => chunk.rowid)).toEqual([rowids[2]]);
  });

  it('writes calls beyond one statement, of several models, whole', async () => {
    const rowids = await sourceWithChunks('s1', 12_001);
    const rows = rowids.map((rowid, index) => ({
      rowid,
      model: index % 3 === 0 ? 'a' : 'b',
      vector: vectorOf(index, 3),
    }));
    await db.transaction((trx) => storeChunkVectors(trx, rows));
    const back = await stored();
    expect(back.size).toBe(rowids.length);
    for (const index of [0, 1, 4_999, 5_000, 5_001, 9_999, 10_000, 12_000])
      expect(back.get(rowids[index])).toEqual({ model: rows[index].model, vector: Array.from(rows[index].vector) });
    const byModel = (await db('chunk_vectors').groupBy('model').orderBy('model').select('model').count({ n: '*' })) as {
      model: string;
      n: number;
    }[];
    expect(byModel).toEqual([
      { model: 'a', n: 4_001 },
      { model: 'b', n: 8_000 },
    ]);
  });

  it('refuses vectors of several dimension counts in one call, and stores nothing of it', async () => {
    const rowids = await sourceWithChunks('s1', 2);
    await expect(
      db.transaction((trx) =>
        storeChunkVectors(trx, [
          { rowid: rowids[0], model: 'm', vector: vectorOf(0, 4) },
          { rowid: rowids[1], model: 'm', vector: vectorOf(1, 5) },
        ]),
      ),
    ).rejects.toThrow(/one dimension count/);
    await expect(
      storeChunkVectors(db, [{ rowid: rowids[0], model: 'm', vector: new Float32Array(0) }]),
    ).rejects.toThrow(/no dimensions/);
    expect(await vectorCount()).toBe(0);
  });

  it('leaves out the vectors of chunks that no longer exist', async () => {
    const rowids = await sourceWithChunks('s1', 3);
    await db('document_chunks').where('rowid', rowids[1]).delete();
    await storeChunkVectors(
      db,
      rowids.map((rowid, index) => ({ rowid, model: 'm', vector: vectorOf(index) })),
    );
    expect([...(await stored()).keys()]).toEqual([rowids[0], rowids[2]]);
  });

  it('stores vectors of chunks known by id', async () => {
    const rowids = await sourceWithChunks('s1', 3);
    await storeChunkVectorsById(db, [
      { chunkId: 's1-chunk-2', model: 'm', vector: vectorOf(2) },
      { chunkId: 's1-chunk-0', model: 'm', vector: vectorOf(0) },
      { chunkId: 'no-such-chunk', model: 'm', vector: vectorOf(9) },
    ]);
    const back = await stored();
    expect([...back.keys()]).toEqual([rowids[0], rowids[2]]);
    expect(back.get(rowids[2])?.vector).toEqual(Array.from(vectorOf(2)));
  });

  it('deletes a chunk vector with its chunk', async () => {
    const rowids = await sourceWithChunks('s1', 4);
    await storeChunkVectors(
      db,
      rowids.map((rowid, index) => ({ rowid, model: 'm', vector: vectorOf(index) })),
    );
    await db('document_chunks').whereIn('rowid', [rowids[0], rowids[3]]).delete();
    expect([...(await stored()).keys()]).toEqual([rowids[1], rowids[2]]);
    // Re-indexing clears a source's chunks, then writes new ones.
    await db('document_chunks').where({ source_id: 's1' }).delete();
    expect(await vectorCount()).toBe(0);
  });

  it("deletes a source's chunk vectors with the source (its chunks go by cascade), and only its", async () => {
    const first = await sourceWithChunks('s1', 3);
    const second = await sourceWithChunks('s2', 2);
    await storeChunkVectors(
      db,
      [...first, ...second].map((rowid, index) => ({ rowid, model: 'm', vector: vectorOf(index) })),
    );
    await db('sources').where({ id: 's1' }).delete();
    expect(await db('document_chunks').where({ source_id: 's1' }).first()).toBeUndefined();
    expect([...(await stored()).keys()]).toEqual(second);
  });
});
