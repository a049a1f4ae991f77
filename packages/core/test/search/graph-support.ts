/**
 * Shared fixtures of the graph-search tests: a migrated SQLite file, graph rows, and simple real
 * retrieval to inject as seeds and vector chunks (exact cosine over hashed bag-of-words vectors kept
 * in a test table), so graph search is exercised without the vector indexes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSettings, type Settings } from '@rhizome/contracts/settings';
import { EmbeddingService } from '../../src/providers/embeddings/service.ts';
import type { GraphSearchDeps } from '../../src/search/graph/index.ts';
import { keywordChunks } from '../../src/search/keyword.ts';
import type { RankedItem, SearchContext } from '../../src/search/types.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

export const at = '2025-01-01T00:00:00.000Z';

export interface TestDatabase {
  dir: string;
  db: Db;
  close(): Promise<void>;
}

export async function openTestDatabase(prefix: string): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
  await db('graph_templates').insert([
    { id: 'entity', name: 'Entity', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
    { id: 'place', name: 'Place', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
    { id: 'rel', name: 'Related', template_type: 'edge', properties: '[]', created_at: at, updated_at: at },
  ]);
  await db.raw(
    'CREATE TABLE test_vectors (kind TEXT NOT NULL, id TEXT NOT NULL, vector TEXT NOT NULL, PRIMARY KEY (kind, id))',
  );
  return {
    dir,
    db,
    close: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function testContext(db: Db, change: (settings: Settings) => void = () => undefined): SearchContext {
  const settings = defaultSettings();
  change(settings);
  // Never called by graph search: the injected seeds and vector chunks embed on their own.
  const embeddings = new EmbeddingService({
    settings: () => settings,
    adapter: () => {
      throw new Error('graph search tests embed through their own test vectors');
    },
    record: () => undefined,
  });
  return { db, database: 'test', settings, embeddings };
}

const dimensions = 256;
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A hashed bag-of-words vector (FNV-1a per word), unit length. */
export function textVector(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of words(text)) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
    vector[(hash >>> 0) % dimensions] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

export async function storeVector(db: Db, kind: 'node' | 'chunk', id: string, text: string): Promise<void> {
  await db('test_vectors')
    .insert({ kind, id, vector: JSON.stringify(textVector(text)) })
    .onConflict(['kind', 'id'])
    .merge();
}

/** Exact cosine search over the test table, best first, similarities ≥ `minimum`. */
export async function exactSearch(
  db: Db,
  kind: 'node' | 'chunk',
  query: string,
  k: number,
  minimum: number,
): Promise<RankedItem[]> {
  const q = textVector(query);
  const rows = (await db('test_vectors').where({ kind }).select('id', 'vector')) as { id: string; vector: string }[];
  return rows
    .map((row) => ({
      kind,
      id: row.id,
      score: (JSON.parse(row.vector) as number[]).reduce((sum, value, i) => sum + value * q[i], 0),
    }))
    .filter((item) => item.score >= minimum)
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, k);
}

/** Seeds and vector chunks from the test table (vector chunks at the 0.3 minimum similarity of the settings), keyword chunks from the real keyword search. */
export const testDeps: GraphSearchDeps = {
  seedNodes: (context, query, k) => exactSearch(context.db, 'node', query, k, 0),
  vectorChunks: (context, query, k) => exactSearch(context.db, 'chunk', query, k, 0.3),
  keywordChunks: async (context, query, k, scope) =>
    (await keywordChunks(context, query, { sourceIds: scope?.sourceIds ?? null, templateId: null }, k)).items,
};

export async function addSource(db: Db, id: string, enabled = true): Promise<void> {
  await db('sources').insert({ id, title: id, enabled, created_at: at, updated_at: at });
}

/** A node with its test vector; `sources` become node_sources rows (as an extraction commit writes). */
export async function addNode(
  db: Db,
  id: string,
  label: string,
  options: { sources?: string[]; template?: string; sourceId?: string } = {},
): Promise<void> {
  await db('graph_nodes').insert({
    id,
    template_id: options.template ?? 'entity',
    label,
    source_id: options.sourceId ?? null,
    created_at: at,
    updated_at: at,
  });
  for (const source of options.sources ?? []) await db('node_sources').insert({ node_id: id, source_id: source });
  await storeVector(db, 'node', id, label);
}

export async function addEdge(db: Db, id: string, from: string, label: string, to: string): Promise<void> {
  await db('graph_edges').insert({
    id,
    template_id: 'rel',
    source_node_id: from,
    target_node_id: to,
    label,
    created_at: at,
    updated_at: at,
  });
}

let chunkIndex = 0;

/** A chunk with its test vector, and a citation of it by each node in `cites`. */
export async function addChunk(
  db: Db,
  id: string,
  source: string,
  content: string,
  cites: string[] = [],
  confidence = 0.9,
): Promise<void> {
  await db('document_chunks').insert({ id, source_id: source, chunk_index: chunkIndex++, content, created_at: at });
  for (const node of cites)
    await db('source_citations').insert({
      id: `${id}:${node}`,
      entity_uri: node,
      source_id: source,
      chunk_id: id,
      confidence,
      created_at: at,
    });
  await storeVector(db, 'chunk', id, content);
}
