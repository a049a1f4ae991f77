// Benchmark (issue 8): a synthetic corpus of BENCH_CHUNKS chunks (default 1,000,000) and BENCH_NODES
// nodes (100,000) with BENCH_EDGES edges (300,000), builtin 100-d vectors, written straight into the
// embedded default's SQLite (the generation is part of this script). Then BENCH_QUERIES queries (200)
// per mode through GET /search — p50/p95 for keyword, semantic, hybrid, graph — beside the raw FTS5 and
// raw HNSW query times of the same queries (the limit the API is compared with), HNSW recall@10
// against exact search, index build times and file sizes.
import fs from 'node:fs';
import path from 'node:path';
import { BuiltinEmbeddingAdapter } from '@rhizome/core/providers';
import { indexNewNodes } from '@rhizome/core/graph';
import { requiredTerms, termRowCounts } from '@rhizome/core/search';
import { storeChunkVectors } from '@rhizome/core/sources';
import { ftsQuery } from '@rhizome/core/search';
import { vectorSources } from '@rhizome/core/search';
import { encodeVector } from '@rhizome/core/storage';
import { VectorStore } from '@rhizome/core/search';
import { startBenchServer } from './api-client.ts';
import { seededRandom } from './harness.ts';

const chunkCount = Number(process.env.BENCH_CHUNKS ?? 1_000_000);
const nodeCount = Number(process.env.BENCH_NODES ?? 100_000);
const edgeCount = Number(process.env.BENCH_EDGES ?? 300_000);
const queryCount = Number(process.env.BENCH_QUERIES ?? 200);
const corpusFile = '/work/shared/testdata/eval/2wiki/corpus.json';
const questionsFile = '/work/shared/testdata/eval/2wiki/questions-51.json';

const random = seededRandom(8);
const { server, dataDir, expectOk } = await startBenchServer('search');
const database = server.platform.databases.currentName();
const { db } = await server.platform.databases.current();
const embedder = new BuiltinEmbeddingAdapter({ cacheDir: server.platform.paths.modelsDir() });
const served = server.platform.providers.embeddings.identity();
const identity = { ...served, dimensions: served.dimensions ?? 100 };
const signal = new AbortController().signal;
const seconds = (since: number) => (performance.now() - since) / 1000;
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
const figures = (values: number[]) =>
  `p50 ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms`;

const passages = JSON.parse(fs.readFileSync(corpusFile, 'utf8')) as { title: string; text: string }[];
const sentences = passages.flatMap((passage) =>
  passage.text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.length > 30),
);
const titles = passages.map((passage) => passage.title);
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];

/** The corpus's source, inserted directly: uploading through the API would open the server's own vector writer, and the benchmark builds the index itself. */
async function sourceFor(): Promise<string> {
  const at = new Date().toISOString();
  await db('sources').insert({
    id: 'src_bench',
    title: 'Synthetic corpus',
    filename: 'synthetic.txt',
    source_type: 'file',
    status: 'indexed',
    enabled: true,
    extract_entities: false,
    created_at: at,
    updated_at: at,
  });
  return 'src_bench';
}

async function generateChunks(sourceId: string): Promise<void> {
  const at = new Date().toISOString();
  let started = performance.now();
  for (let start = 0; start < chunkCount; start += 5_000) {
    const rows = Array.from({ length: Math.min(5_000, chunkCount - start) }, (_, offset) => {
      const content = `${pick(sentences)} ${pick(sentences)} ${pick(sentences)}`;
      return {
        id: `bch_${start + offset}`,
        source_id: sourceId,
        chunk_index: 1 + start + offset,
        content,
        token_estimate: Math.ceil(content.length / 4),
        created_at: at,
      };
    });
    await db.transaction(async (trx) => {
      for (let index = 0; index < rows.length; index += 100)
        await trx('document_chunks').insert(rows.slice(index, index + 100));
    });
  }
  console.log(`chunks: ${chunkCount} written with their full-text index in ${seconds(started).toFixed(0)} s`);
  started = performance.now();
  let lastRowid = 0;
  for (;;) {
    const rows = (await db('document_chunks')
      .where('rowid', '>', lastRowid)
      .orderBy('rowid')
      .limit(5_000)
      .select('rowid', 'id', 'content')) as { rowid: number; id: string; content: string }[];
    if (!rows.length) break;
    const vectors = await embedder.embed(
      rows.map((row) => row.content),
      signal,
    );
    await db.transaction((trx) =>
      storeChunkVectors(
        trx,
        rows.map((row, offset) => ({ rowid: row.rowid, model: identity.model, vector: vectors[offset] })),
      ),
    );
    lastRowid = rows[rows.length - 1].rowid;
  }
  console.log(`chunk vectors: embedded and stored in ${seconds(started).toFixed(0)} s`);
}

async function generateGraph(sourceId: string): Promise<void> {
  const started = performance.now();
  const at = new Date().toISOString();
  const ids: string[] = [];
  for (let start = 0; start < nodeCount; start += 2_000) {
    const nodes = Array.from({ length: Math.min(2_000, nodeCount - start) }, (_, offset) => {
      const index = start + offset;
      return {
        id: `bnode_${index}`,
        label: `${titles[index % titles.length]}${index >= titles.length ? ` ${Math.floor(index / titles.length)}` : ''}`,
        properties: { description: pick(sentences) },
      };
    });
    const vectors = await embedder.embed(
      nodes.map((node) => `${node.label}. ${node.properties.description}`),
      signal,
    );
    await db.transaction(async (trx) => {
      for (let index = 0; index < nodes.length; index += 100) {
        const slice = nodes.slice(index, index + 100);
        await trx('graph_nodes').insert(
          slice.map((node) => ({
            id: node.id,
            template_id: 'system_template_concept',
            label: node.label,
            properties: JSON.stringify(node.properties),
            extracted: true,
            created_at: at,
            updated_at: at,
          })),
        );
        await trx('node_embeddings').insert(
          slice.map((node, offset) => ({
            node_id: node.id,
            model: identity.model,
            dimensions: identity.dimensions,
            vector: encodeVector(vectors[index + offset]),
          })),
        );
        await trx('node_sources').insert(slice.map((node) => ({ node_id: node.id, source_id: sourceId })));
        await trx('source_citations').insert(
          slice.map((node) => ({
            id: `bcit_${node.id}`,
            entity_uri: node.id,
            source_id: sourceId,
            chunk_id: `bch_${Math.floor(random() * chunkCount)}`,
            confidence: 0.8,
            created_at: at,
          })),
        );
      }
      await indexNewNodes(trx, nodes);
    });
    ids.push(...nodes.map((node) => node.id));
  }
  for (let start = 0; start < edgeCount; start += 5_000) {
    const edges = Array.from({ length: Math.min(5_000, edgeCount - start) }, (_, offset) => {
      const source = Math.floor(random() * nodeCount);
      const target = (source + 1 + Math.floor(random() * (nodeCount - 1))) % nodeCount;
      return {
        id: `bedge_${start + offset}`,
        template_id: 'system_template_link',
        source_node_id: ids[source],
        target_node_id: ids[target],
        label: 'related_to',
        properties: '{}',
        extracted: true,
        created_at: at,
        updated_at: at,
      };
    });
    await db.transaction(async (trx) => {
      for (let index = 0; index < edges.length; index += 100)
        await trx('graph_edges').insert(edges.slice(index, index + 100));
    });
  }
  console.log(
    `graph: ${nodeCount} nodes (with vectors, citations) and ${edgeCount} edges in ${seconds(started).toFixed(0)} s`,
  );
}

async function buildIndexes(): Promise<Record<string, VectorStore>> {
  const stores: Record<string, VectorStore> = {};
  for (const kind of ['chunks', 'nodes'] as const) {
    const started = performance.now();
    stores[kind] = await VectorStore.open(
      server.platform.paths.databaseDir(database),
      kind,
      identity,
      db,
      vectorSources[kind],
    );
    await stores[kind].flush();
    const dir = path.join(server.platform.paths.databaseDir(database), 'vectors');
    const bytes = fs
      .readdirSync(dir)
      .filter((file) => file.startsWith(kind))
      .reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);
    console.log(
      `HNSW ${kind}: built from SQLite in ${seconds(started).toFixed(0)} s, ${(bytes / 1024 / 1024).toFixed(0)} MiB on disk`,
    );
  }
  return stores;
}

function queries(): string[] {
  const questions = (JSON.parse(fs.readFileSync(questionsFile, 'utf8')) as { question: string }[]).map(
    (entry) => entry.question,
  );
  return Array.from({ length: queryCount }, (_, index) =>
    index < questions.length ? questions[index] : `${pick(titles)} ${pick(sentences).split(' ').slice(2, 5).join(' ')}`,
  );
}

async function timeApi(mode: string, list: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const q of list) {
    const started = performance.now();
    await expectOk('GET', `/search?${new URLSearchParams({ q, search_type: mode, limit: '10' })}`);
    times.push(performance.now() - started);
  }
  return times;
}

try {
  const sourceId = await sourceFor();
  await generateChunks(sourceId);
  await generateGraph(sourceId);
  const stores = await buildIndexes();
  const list = queries();
  for (const mode of ['keyword', 'semantic', 'hybrid', 'graph']) await timeApi(mode, list.slice(0, 5));

  // The full-text statements keyword search runs, bare: top 10 of nodes and of chunks for the required
  // terms, then, when neither has a match, for the same terms ORed (no filtering, hydration or HTTP).
  const rawFts: number[] = [];
  const rawTop = async (match: string) => {
    const nodes = (await db.raw(
      'SELECT rowid, bm25(fts_nodes, 0, 3.0, 1.0) AS rank FROM fts_nodes WHERE fts_nodes MATCH ? ORDER BY rank LIMIT 10',
      [match],
    )) as unknown[];
    const chunks = (await db.raw(
      'SELECT rowid, bm25(fts_chunks) AS rank FROM fts_chunks WHERE fts_chunks MATCH ? ORDER BY rank LIMIT 10',
      [match],
    )) as unknown[];
    return nodes.length + chunks.length;
  };
  for (const q of list) {
    const query = ftsQuery(q);
    const started = performance.now();
    if (query) {
      const counts = await termRowCounts(db, query.terms);
      const required = requiredTerms(query.terms, counts);
      if (!(await rawTop(required.join(' '))) && required.length > 1) await rawTop(required.join(' OR '));
    }
    rawFts.push(performance.now() - started);
  }
  const vectors = await embedder.embed(list, signal);
  const rawHnsw: number[] = [];
  for (const vector of vectors) {
    const started = performance.now();
    stores.chunks.search(vector, 10);
    rawHnsw.push(performance.now() - started);
  }
  console.log(`raw FTS5 queries (nodes and chunks, the required terms, then ORed; bm25 top 10): ${figures(rawFts)}`);
  console.log(`raw HNSW chunk query (top 10): ${figures(rawHnsw)}`);
  for (const mode of ['keyword', 'semantic', 'hybrid', 'graph']) {
    const times = await timeApi(mode, list);
    const overKeyword =
      mode === 'keyword'
        ? `; p95 ${(quantile(times, 0.95) / quantile(rawFts, 0.95)).toFixed(2)}× the raw full-text queries`
        : '';
    console.log(`GET /search ${mode}: ${figures(times)}${overKeyword}`);
  }

  // Recall@10 of the chunk index against exact search over every stored vector.
  const sample = vectors.slice(0, 50);
  const exact = sample.map(() => [] as { label: number; score: number }[]);
  let after = 0;
  for (;;) {
    const rows = await vectorSources.chunks.scan(db, identity, after, 20_000);
    if (!rows.length) break;
    for (const row of rows) {
      sample.forEach((query, index) => {
        let dot = 0;
        for (let d = 0; d < query.length; d++) dot += query[d] * row.vector[d];
        const top = exact[index];
        if (top.length < 10 || dot > top[top.length - 1].score) {
          top.push({ label: row.label, score: dot });
          top.sort((a, b) => b.score - a.score);
          if (top.length > 10) top.pop();
        }
      });
    }
    after = rows[rows.length - 1].label;
  }
  let found = 0;
  sample.forEach((query, index) => {
    const hits = new Set(stores.chunks.search(query, 10).map((hit) => hit.label));
    found += exact[index].filter((entry) => hits.has(entry.label)).length;
  });
  console.log(
    `HNSW recall@10 against exact search (${sample.length} queries): ${(found / (sample.length * 10)).toFixed(3)} (target ≥ 0.95)`,
  );
  for (const store of Object.values(stores)) await store.close();
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
