import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { shippedMigrations } from '../../src/storage/migrations/index.ts';
import { decodeVector, encodeVector } from '../../src/storage/vector-blob.ts';
import type { EmbeddingIdentity } from '../../src/providers/embeddings/port.ts';
import { chunkVectorSource, sqlVectorSource } from '../../src/search/read-model/vector-sources.ts';
import { hasOrphanedVectors, storedVectorGroups } from '../../src/search/read-model/vector-identity.ts';
import { VectorReaders } from '../../src/search/vectors/readers.ts';
import { VectorStore } from '../../src/search/vectors/store.ts';
import { chunksLackingVectors, storeChunkVectors } from '../../src/sources/chunk-vectors.ts';

const at = '2026-01-01T00:00:00.000Z';
const identity: EmbeddingIdentity = { provider: 'builtin', model: 'm', dimensions: 8 };
const before0012 = shippedMigrations.filter((migration) => migration.name < '0012');

/** The chunk vector source as it read `chunk_embeddings` before migration 0012. */
const chunkEmbeddingsSource = sqlVectorSource({
  from: 'chunk_embeddings join document_chunks on document_chunks.id = chunk_embeddings.chunk_id',
  byLabel: 'document_chunks cross join chunk_embeddings on chunk_embeddings.chunk_id = document_chunks.id',
  vectorTable: 'chunk_embeddings',
  label: 'document_chunks.rowid',
  vector: 'chunk_embeddings.vector',
  model: 'chunk_embeddings.model',
  dimensions: 'chunk_embeddings.dimensions',
  seq: 'chunk_embeddings.rowid',
});

let dir: string;
let db: Db;
const stores: VectorStore[] = [];
let readers: VectorReaders;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-0012-'));
  db = openSqlite(path.join(dir, 'app.db'));
  readers = new VectorReaders({ store: { pollMs: 0 } });
});

afterEach(async () => {
  await readers.close();
  while (stores.length) await stores.pop()!.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

function unit(seed: number): Float32Array {
  const vector = Float32Array.from({ length: identity.dimensions }, (_, index) => Math.sin(seed * 7.3 + index * 1.9));
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

const openStore = async (source = chunkVectorSource) => {
  const store = await VectorStore.open(dir, 'chunks', identity, db, source);
  stores.push(store);
  return store;
};

describe('migration 0012 (chunk vectors keyed by rowid)', () => {
  it('carries every chunk vector over to its chunk rowid, and the index checkpointed before it stays valid', async () => {
    await new Migrator(path.join(dir, 'backups'), before0012).apply(db);
    await db('sources').insert([
      { id: 's1', created_at: at, updated_at: at },
      { id: 's2', created_at: at, updated_at: at },
    ]);
    const chunk = (id: string, sourceId: string, index: number) => ({
      id,
      source_id: sourceId,
      chunk_index: index,
      content: `text of ${id}`,
      created_at: at,
    });
    // Ids out of rowid order, and a rowid gap, as real databases have.
    await db('document_chunks').insert([chunk('chk_f', 's1', 0), chunk('gone', 's1', 1)]);
    await db('document_chunks').where({ id: 'gone' }).delete();
    await db('document_chunks').insert([
      chunk('chk_a', 's1', 1),
      chunk('chk_d', 's1', 2),
      chunk('chk_b', 's2', 0),
      chunk('chk_e', 's2', 1),
    ]);
    const rowidOf = new Map(
      ((await db('document_chunks').select('rowid', 'id')) as { rowid: number; id: string }[]).map((row) => [
        row.id,
        row.rowid,
      ]),
    );
    const vectors = new Map(['chk_f', 'chk_a', 'chk_b', 'chk_e'].map((id, index) => [id, unit(index + 1)]));
    await db('chunk_embeddings').insert(
      [...vectors].map(([id, vector]) => ({
        chunk_id: id,
        model: 'm',
        dimensions: identity.dimensions,
        vector: encodeVector(vector),
      })),
    );
    // A vector of another model: carried over as it is, an orphan until re-embedded.
    await db('chunk_embeddings').insert({
      chunk_id: 'chk_d',
      model: 'old',
      dimensions: 2,
      vector: encodeVector(Float32Array.from([0.25, -1])),
    });
    const before = await openStore(chunkEmbeddingsSource);
    expect(before.size).toBe(4);
    await before.close();
    stores.pop();

    await new Migrator(path.join(dir, 'backups')).apply(db);

    const tables = (await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'chunk_%'")) as {
      name: string;
    }[];
    expect(tables.map((table) => table.name).sort()).toEqual(['chunk_groups', 'chunk_vectors']);
    const rows = (await db('chunk_vectors').orderBy('chunk_rowid').select()) as {
      chunk_rowid: number;
      model: string;
      dimensions: number;
      vector: Buffer;
    }[];
    expect(rows.map((row) => row.chunk_rowid)).toEqual(
      ['chk_f', 'chk_a', 'chk_d', 'chk_b', 'chk_e'].map((id) => rowidOf.get(id)),
    );
    for (const [id, vector] of vectors) {
      const row = rows.find((entry) => entry.chunk_rowid === rowidOf.get(id))!;
      expect(row).toMatchObject({ model: 'm', dimensions: identity.dimensions });
      expect(Array.from(decodeVector(row.vector, identity.dimensions))).toEqual(Array.from(vector));
    }
    const old = rows.find((row) => row.chunk_rowid === rowidOf.get('chk_d'))!;
    expect(Array.from(decodeVector(old.vector, 2))).toEqual([0.25, -1]);
    expect(await storedVectorGroups(db)).toEqual(
      expect.arrayContaining([
        { kind: 'chunks', model: 'm', dimensions: 8, count: 4 },
        { kind: 'chunks', model: 'old', dimensions: 2, count: 1 },
      ]),
    );
    expect(await hasOrphanedVectors(db, identity)).toBe(true);
    expect((await chunksLackingVectors(db, identity, 0, 10)).map((chunk) => chunk.id)).toEqual(['chk_d']);

    // The vector index labels chunks by rowid before and after: the old checkpoint loads with nothing to reconcile.
    const after = await openStore();
    expect(after.startup).toMatchObject({ action: 'loaded', added: 0, removed: 0 });
    for (const [id, vector] of vectors) expect(after.search(vector, 1)[0].label).toBe(rowidOf.get(id));

    // Re-embedding the orphan, then searching through a reader (the API process's path).
    const moved = unit(9);
    await db.transaction((trx) =>
      storeChunkVectors(trx, [{ rowid: rowidOf.get('chk_d')!, model: 'm', vector: moved }]),
    );
    await after.upsert([{ label: rowidOf.get('chk_d')!, vector: moved }]);
    await after.flush();
    expect(await hasOrphanedVectors(db, identity)).toBe(false);
    const reader = readers.reader(db, 'chunks', identity);
    expect((await reader.search(moved, 1))[0].label).toBe(rowidOf.get('chk_d'));
    expect((await reader.search(vectors.get('chk_b')!, 1))[0].label).toBe(rowidOf.get('chk_b'));
    const among = await reader.searchAmong(vectors.get('chk_e')!, [rowidOf.get('chk_a')!, rowidOf.get('chk_e')!], 1);
    expect(among[0].label).toBe(rowidOf.get('chk_e'));

    // Deletes now reach the vectors through the trigger.
    await db('sources').where({ id: 's2' }).delete();
    expect(((await db('chunk_vectors').select('chunk_rowid')) as { chunk_rowid: number }[]).length).toBe(3);
  });
});
