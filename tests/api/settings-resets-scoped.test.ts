import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { FakeOllama } from '../support/fakes/ollama.ts';
import type { TestServer } from '../support/server.ts';
import { uploadSources } from '../support/sources.ts';
import { waitForTask } from '../support/wait.ts';
import { committedTwoGroupSource } from './chunk-history-fixture.ts';

type Table =
  | 'sources'
  | 'document_chunks'
  | 'chunk_vectors'
  | 'graph_nodes'
  | 'graph_edges'
  | 'graph_templates'
  | 'source_citations'
  | 'relationship_citations'
  | 'extraction_jobs'
  | 'extraction_groups'
  | 'extraction_attempts'
  | 'fts_chunks'
  | 'chats'
  | 'workflows'
  | 'custom_domains';

/**
 * The resets of the processing state, the knowledge and everything, on a database built through the
 * pipeline (a source extracted by the real-HTTP fake model server and committed): what each removes and
 * what it keeps, and the refusal while a source is being processed.
 */
describe('scoped resets of the processing state, the knowledge and everything', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  let sourceId: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const rows = async (table: Table, where: Record<string, unknown> = {}) => {
    const { db } = await server.platform.databases.current();
    return Number(((await db(table).where(where).count({ n: '*' }).first()) as { n: number | string }).n);
  };
  const counts = async (tables: Table[]) =>
    Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await rows(table)] as const)));
  const hits = async (mode: string) => {
    const found = await call('GET', `/search?q=Marie+Curie+Warsaw&search_type=${mode}`);
    expect(found.status, found.text).toBe(200);
    return (found.body as { data: unknown[] }).data;
  };
  const sourceFiles = () => path.join(server.platform.paths.databaseDir('default'), 'sources', sourceId);
  const knowledge: Table[] = [
    'sources',
    'document_chunks',
    'chunk_vectors',
    'graph_nodes',
    'graph_edges',
    'source_citations',
    'relationship_citations',
    'fts_chunks',
  ];

  beforeAll(async () => {
    ({ server, cookie, ollama, sourceId } = await committedTwoGroupSource());
    expect((await call('POST', '/chats', { title: 'Physicists' })).status).toBe(201);
    const workflow = await call('POST', '/workflows', {
      name: 'Nightly digest',
      steps: [
        { id: 'noop', name: 'noop', tool_type: 'system_tool', tool_id: 'data.merge', configuration: { items: [{}] } },
      ],
    });
    expect(workflow.status, workflow.text).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await ollama?.close();
  });

  it('resets the processing state and keeps every committed row', async () => {
    const kept = await counts([...knowledge, 'graph_templates', 'chats', 'workflows']);
    expect(kept.graph_nodes).toBeGreaterThan(0);
    expect(kept.source_citations).toBeGreaterThan(0);
    expect(kept.chunk_vectors).toBe(kept.document_chunks);
    expect(await rows('extraction_attempts')).toBe(2);
    expect(await rows('extraction_jobs')).toBe(1);

    const reset = await call('POST', '/settings/reset/source_processing');
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toEqual({
      success: true,
      data: {
        status: 'completed',
        extraction_jobs_deleted: 1,
        staged_groups_deleted: 2,
        extraction_attempts_deleted: 2,
        recovery_events_deleted: 0,
        sources_reset: 0,
      },
    });
    expect(await counts(['extraction_jobs', 'extraction_groups', 'extraction_attempts'])).toEqual({
      extraction_jobs: 0,
      extraction_groups: 0,
      extraction_attempts: 0,
    });
    expect(await counts([...knowledge, 'graph_templates', 'chats', 'workflows'])).toEqual(kept);
    const source = (await call('GET', `/sources/${sourceId}`)).body as SourceResponseBody;
    expect(source.status).toBe('committed');
    const history = await call('GET', `/sources/${sourceId}/chunks/0/attempts`);
    expect(history.status, history.text).toBe(200);
    expect((history.body as { data: unknown[] }).data).toEqual([]);
  });

  it('refuses the knowledge reset with 409 while a source waits to be processed, wiping nothing', async () => {
    expect((await call('POST', '/system/processing/pause', { reason: 'reset test' })).status).toBe(200);
    const accepted = await uploadSources(server, cookie, '/sources', [
      { name: 'waiting.txt', content: 'Lise Meitner was born in Vienna in 1878 and studied physics there.' },
    ]);
    expect(accepted.status, accepted.text).toBe(202);
    const waiting = (accepted.body as SourceResponseBody).id;
    const before = await counts(knowledge);

    for (const [scope, body] of [
      ['knowledge', undefined],
      ['source_processing', undefined],
      ['all', { confirmation: 'CONFIRM' }],
    ] as const) {
      const refused = await call('POST', `/settings/reset/${scope}`, body);
      expect(refused.status, `${scope}: ${refused.text}`).toBe(409);
      expect(refused.body).toMatchObject({ error: 'CONFLICT', details: { code: 'SOURCES_PROCESSING' } });
      expect((refused.body as { details: { source_ids: string[] } }).details.source_ids).toEqual([waiting]);
    }
    expect(await counts(knowledge)).toEqual(before);

    expect((await call('DELETE', `/sources/${waiting}`)).status).toBe(204);
    expect((await call('POST', '/system/processing/resume')).status).toBe(200);
  });

  it('wipes the knowledge in a queued task and keeps templates, chats, workflows and settings', async () => {
    expect(fs.existsSync(sourceFiles())).toBe(true);
    const kept = await counts(['graph_templates', 'chats', 'workflows']);
    const extractedTemplates = await rows('graph_templates', { is_system: false });
    expect(extractedTemplates).toBeGreaterThan(0);
    const before = await counts(knowledge);
    for (const mode of ['keyword', 'semantic']) expect((await hits(mode)).length, mode).toBeGreaterThan(0);

    const queued = await call('POST', '/settings/reset/knowledge');
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toEqual({
      task_id: expect.any(String),
      status: 'queued',
      operation_type: 'knowledge_reset',
      message: expect.stringContaining("'default'"),
    });
    const task = await waitForTask(call, (queued.body as { task_id: string }).task_id, { statuses: ['completed'] });
    expect(task.result).toEqual({
      sources_deleted: 1,
      chunks_deleted: before.document_chunks,
      nodes_deleted: before.graph_nodes,
      edges_deleted: before.graph_edges,
      citations_deleted: before.source_citations + before.relationship_citations,
      extraction_jobs_deleted: 0,
      staged_groups_deleted: 0,
      extraction_attempts_deleted: 0,
      recovery_events_deleted: 0,
    });

    expect(await counts(knowledge)).toEqual(Object.fromEntries(knowledge.map((table) => [table, 0])));
    expect(fs.existsSync(sourceFiles())).toBe(false);
    for (const mode of ['keyword', 'semantic']) expect(await hits(mode), mode).toEqual([]);

    expect(await counts(['graph_templates', 'chats', 'workflows'])).toEqual(kept);
    expect(await rows('graph_templates', { is_system: false })).toBe(extractedTemplates);
    const settings = (await call('GET', '/settings')).body as { llm: { chat_provider: string } };
    expect(settings.llm.chat_provider).toBe('localllm');
  });

  it('resets everything only with the confirmation word, keeping the settings', async () => {
    const missing = await call('POST', '/settings/reset/all');
    expect(missing.status, missing.text).toBe(422);
    const wrong = await call('POST', '/settings/reset/all', { confirmation: 'confirm' });
    expect(wrong.status, wrong.text).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect(await rows('chats')).toBe(1);

    const queued = await call('POST', '/settings/reset/all', { confirmation: 'CONFIRM' });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toMatchObject({ status: 'queued', operation_type: 'full_reset' });
    const task = await waitForTask(call, (queued.body as { task_id: string }).task_id, { statuses: ['completed'] });
    expect(task.result).toMatchObject({
      sources_deleted: 0,
      templates_deleted: expect.any(Number),
      custom_domains_deleted: 0,
      chats_deleted: 1,
      workflows_deleted: 2,
      workflows_created: 1,
    });
    expect((task.result as { templates_deleted: number }).templates_deleted).toBeGreaterThan(0);

    expect(await counts(['chats', 'custom_domains'])).toEqual({ chats: 0, custom_domains: 0 });
    expect(await rows('graph_templates', { is_system: false })).toBe(0);
    expect(await rows('graph_templates', { is_system: true })).toBeGreaterThan(0);
    const workflows = (await call('GET', '/workflows')).body as { data: { name: string; is_system: boolean }[] };
    expect(workflows.data.map((workflow) => [workflow.name, workflow.is_system])).toEqual([
      ['Generate Embeddings', true],
    ]);
    const settings = (await call('GET', '/settings')).body as { llm: { chat_provider: string } };
    expect(settings.llm.chat_provider).toBe('localllm');
  });
});
