import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyCcxImport } from '../../src/ccx/import-apply.ts';
import type { CcxChunk, CcxContent } from '../../src/ccx/model.ts';
import { sourceRecords } from '../../src/ccx/read-model.ts';
import { storeChunkVectors } from '../../src/sources/chunk-vectors.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { encodeVector } from '../../src/storage/vector-blob.ts';

const at = '2026-01-01T00:00:00.000Z';
const embedder = { provider: 'builtin' as const, model: 'm', dimensions: 3 };

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccx-chunk-vectors-'));
  db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
});

afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface ChunkRecord {
  id: string;
  embedding_model: string | null;
  embedding_dimensions: number | null;
  embedding?: string;
}

const chunk = (key: string, index: number, embedding: CcxChunk['embedding']): CcxChunk => ({
  key,
  chunk_index: index,
  content: `text ${key}`,
  page_number: null,
  section: null,
  metadata: null,
  start_offset: null,
  end_offset: null,
  created_at: at,
  embedding,
});

function content(chunks: CcxChunk[]): CcxContent {
  return {
    info: { ccx_version: '2.0', name: 'test', package_version: '1.0.0', license: null },
    templates: [],
    nodes: [],
    edges: [],
    sources: [
      {
        key: 's1',
        iri: 'urn:test:s1',
        title: 'Letters',
        filename: 'letters.txt',
        source_type: 'text',
        origin_url: null,
        status: 'committed',
        extraction_domain: null,
        metadata: {},
        created_at: at,
        updated_at: at,
        tags: [],
        chunks,
        citations: [],
        relationship_citations: [],
      },
    ],
    workflows: [],
    triggers: [],
    node_vector_model: null,
    warnings: [],
  };
}

describe('chunk vectors in .ccx packages', () => {
  it("exports a chunk's vector as the base64 of its stored float32 bytes, and nothing for a chunk without one", async () => {
    await db('sources').insert({ id: 's1', title: 'Letters', created_at: at, updated_at: at });
    await db('document_chunks').insert([
      { id: 'c0', source_id: 's1', chunk_index: 0, content: 'zero', created_at: at },
      { id: 'c1', source_id: 's1', chunk_index: 1, content: 'one', created_at: at },
    ]);
    const [{ rowid }] = (await db('document_chunks').where({ id: 'c1' }).select('rowid')) as { rowid: number }[];
    const vector = Float32Array.from([0.5, -1.25, Math.PI]);
    await storeChunkVectors(db, [{ rowid, model: 'm', vector }]);

    const records: { chunks: ChunkRecord[] }[] = [];
    for await (const record of sourceRecords(db, { sourceIds: null, nodeIds: null, vectors: null }, true, null))
      records.push(record as { chunks: ChunkRecord[] });
    const [first, second] = records[0].chunks;
    expect(first).toMatchObject({ id: 'c0', embedding_model: null, embedding_dimensions: null });
    expect(first).not.toHaveProperty('embedding');
    expect(second).toMatchObject({
      id: 'c1',
      embedding_model: 'm',
      embedding_dimensions: 3,
      embedding: encodeVector(vector).toString('base64'),
    });

    for await (const record of sourceRecords(db, { sourceIds: null, nodeIds: null, vectors: null }, false, null))
      expect((record as { chunks: ChunkRecord[] }).chunks[1]).not.toHaveProperty('embedding');
  });

  it("imports the configured embedder's chunk vectors to the new chunks' rowids, and leaves others to re-embedding", async () => {
    const vectors = [Float32Array.from([1, 2, 3]), Float32Array.from([-0.5, 0.25, 8])];
    const { stats } = await applyCcxImport(
      db,
      content([
        chunk('k0', 0, { model: 'm', dimensions: 3, values: vectors[0] }),
        chunk('k1', 1, { model: 'other', dimensions: 3, values: vectors[1] }),
        chunk('k2', 2, { model: 'm', dimensions: 3, values: vectors[1] }),
      ]),
      { merge: false, embedder, workflows: null },
    );
    expect(stats).toMatchObject({ chunks_imported: 3, embeddings_restored: 2, embeddings_pending: 1 });
    const rows = (await db.raw(
      'SELECT c.chunk_index, v.model, v.dimensions, v.vector FROM document_chunks c JOIN chunk_vectors v ON v.chunk_rowid = c.rowid ORDER BY c.chunk_index',
    )) as { chunk_index: number; model: string; dimensions: number; vector: Buffer }[];
    expect(rows).toEqual([
      { chunk_index: 0, model: 'm', dimensions: 3, vector: encodeVector(vectors[0]) },
      { chunk_index: 2, model: 'm', dimensions: 3, vector: encodeVector(vectors[1]) },
    ]);

    // A replacing import clears the vectors with the chunks.
    await applyCcxImport(db, content([chunk('k9', 0, null)]), { merge: false, embedder, workflows: null });
    expect(await db('chunk_vectors').select()).toEqual([]);
  });
});
