import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerRuntime } from '@rhizome/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatModule } from '../../src/chat/index.ts';
import { sourceCitations } from '../../src/extraction/read-model/source-citations.ts';
import { createPlatform, registerTaskHandlers, type Platform } from '../../src/platform/index.ts';
import { cachedScore, corpusGrade } from '../../src/quality/read-model/scores.ts';
import { sourcesModule } from '../../src/sources/module.ts';
import { dialectOf, type Db, type Dialect } from '../../src/storage/index.ts';
import { runtimeSettings } from '../../src/tasks/index.ts';
import { dialects } from '../../../../tests/support/dialects.ts';
import { startPostgres } from '../../../../tests/support/postgres.ts';
import { until } from '../../../../tests/support/wait.ts';

const text = [
  'Marie Curie was a physicist and chemist who worked in Paris.',
  'Marie Curie married Pierre Curie in 1895.',
  'Pierre Curie was a French physicist.',
  'Marie Curie won the Nobel Prize in Physics in 1903 with Pierre Curie and Henri Becquerel.',
  'Marie Curie was born in Warsaw. She founded the Radium Institute in Paris.',
].join('\n\n');

/**
 * The process the embedded default runs, with its worker in this process; on PostgreSQL every database,
 * the queue and the system tables are in a throw-away server, as RHIZOME_DATABASE_URL puts them.
 */
async function pipelineOn(dialect: Dialect, dataDir: string) {
  const server = dialect === 'postgres' ? await startPostgres() : undefined;
  const platform = await createPlatform({
    service: 'test',
    migrationPolicy: 'apply',
    env: {
      ...process.env,
      RHIZOME_DATA_DIR: dataDir,
      RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
      RHIZOME_QUEUE_URL: '',
      ...(server ? { RHIZOME_DATABASE_URL: server.url } : {}),
    },
  });
  registerTaskHandlers(platform);
  const worker = new WorkerRuntime({
    store: platform.tasks,
    registry: platform.operations,
    settings: () => runtimeSettings(platform.settings.get()),
    pauseFilter: () => platform.pauseFilter.current(),
    logger: platform.logger,
  });
  worker.start();
  return {
    platform,
    async close() {
      await worker.stop();
      await platform.close();
      await server?.stop();
    },
  };
}

/** A text source uploaded, indexed, extracted by the builtin extractor and committed; then chatted about. */
describe.each(dialects)('the pipeline on %s', (dialect) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rhizome-pipeline-${dialect}-`));
  let pipeline: Awaited<ReturnType<typeof pipelineOn>>;
  let platform: Platform;
  let db: Db;
  let sourceId: string;

  beforeAll(async () => {
    pipeline = await pipelineOn(dialect, dataDir);
    platform = pipeline.platform;
    const database = await platform.databases.current();
    db = database.db;
    const upload = path.join(dataDir, 'upload.txt');
    fs.writeFileSync(upload, text);
    const sources = sourcesModule.service!(platform, database);
    const { source } = await sources.createFromFile(
      {
        path: upload,
        filename: 'curie.txt',
        size: Buffer.byteLength(text),
        sha256: createHash('sha256').update(text).digest('hex'),
        mediaType: 'text/plain',
        format: 'txt',
      },
      { domain: 'biographical' },
    );
    sourceId = source.id;
    await until(
      async () => {
        const row = await sources.find(sourceId);
        if (row?.status === 'error') throw new Error(`the source failed: ${row.error_stage}: ${row.error_message}`);
        return row?.status === 'committed';
      },
      { timeoutMs: 120_000, intervalMs: 100, what: 'the source committed' },
    );
  }, 240_000);
  afterAll(async () => {
    await pipeline?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('commits the entities and relationships the builtin extractor found, with their citations', async () => {
    expect(dialectOf(db)).toBe(dialect);
    const nodes = (await db('graph_nodes as n')
      .join('node_sources as ns', 'ns.node_id', 'n.id')
      .where('ns.source_id', sourceId)
      .orderBy('n.label')
      .select('n.id', 'n.label', 'n.extracted')) as { id: string; label: string; extracted: number }[];
    const labels = nodes.map((node) => node.label);
    expect(labels).toEqual(expect.arrayContaining(['Marie Curie', 'Pierre Curie']));
    expect(nodes.every((node) => node.extracted === 1)).toBe(true);

    const edges = (await db('graph_edges as e')
      .join('edge_sources as es', 'es.edge_id', 'e.id')
      .where('es.source_id', sourceId)
      .select('e.source_node_id', 'e.target_node_id', 'e.label')) as {
      source_node_id: string;
      target_node_id: string;
    }[];
    expect(edges.length).toBeGreaterThan(0);
    const ids = new Set(nodes.map((node) => node.id));
    for (const edge of edges) {
      expect(ids.has(edge.source_node_id) || ids.has(edge.target_node_id)).toBe(true);
    }

    const marie = nodes.find((node) => node.label === 'Marie Curie')!;
    const citations = await sourceCitations(db, sourceId, { offset: 0, limit: 100 });
    expect(citations.total).toBe(citations.items.length);
    expect(citations.items.some((citation) => citation.entity_uri === marie.id)).toBe(true);
    for (const citation of citations.items) {
      expect(citation).toMatchObject({ source_id: sourceId, extraction_method: 'builtin' });
      expect(citation.context_snippet && text.includes(citation.context_snippet.slice(0, 20))).toBe(true);
    }
  });

  it('scores the committed source before showing it committed', async () => {
    const score = await cachedScore(db, sourceId);
    expect(score).toMatchObject({ source_id: sourceId, source_title: 'curie.txt', domain: 'biographical' });
    expect(score!.entity_count).toBeGreaterThanOrEqual(2);
    expect(score!.total_score).toBeGreaterThan(0);
    expect(await corpusGrade(db)).toMatchObject({ scored_sources: 1 });
  });

  it("keeps a chat's turns and reads them back in order", async () => {
    const chats = chatModule.service!(platform, await platform.databases.current());
    const chat = await chats.create({ title: 'About the Curies', source_ids: [sourceId] });
    await chats.send(chat.id, { content: 'Whom did Marie Curie marry?' });
    await until(async () => (await chats.get(chat.id)).status !== 'processing', {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'the answer',
    });
    expect((await chats.get(chat.id)).status).toBe('completed');
    const messages = await chats.messages(chat.id);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[0].content).toBe('Whom did Marie Curie marry?');
    expect(messages[1].content.length).toBeGreaterThan(0);
    const listed = await chats.list({ q: 'CURIES' }, { offset: 0, limit: 10 });
    expect(listed).toMatchObject({ total: 1, rows: [{ id: chat.id, message_count: 2 }] });
    expect(await chats.list({ q: '%' }, { offset: 0, limit: 10 })).toMatchObject({ total: 0 });
  });

  it('deletes the source with its chunks and what only it contributed to the graph', async () => {
    await sourcesModule.service!(platform, await platform.databases.current()).delete(sourceId);
    const left = async (table: string) => Number((await db(table).count({ n: '*' }).first())?.n);
    expect(await left('sources')).toBe(0);
    expect(await left('document_chunks')).toBe(0);
    expect(await left('source_citations')).toBe(0);
    expect(await left('relationship_citations')).toBe(0);
    expect(await left('graph_nodes')).toBe(0);
    expect(await left('graph_edges')).toBe(0);
    expect(await left('source_quality_scores')).toBe(0);
  });
});
