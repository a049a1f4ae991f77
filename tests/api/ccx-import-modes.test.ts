import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { countsOf } from '../../packages/core/test/ccx/graph-image.ts';
import { ccx2Package } from '../support/ccx-build.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { waitForTask } from '../support/wait.ts';

const knowledge = {
  nodes: [
    { id: 'n1', label: 'Ada Lovelace', template_id: 'system_template_person', properties: {} },
    { id: 'n2', label: 'Analytical Engine', template_id: 'system_template_item', properties: {} },
  ],
  edges: [
    { id: 'e1', template_id: 'system_template_link', source_node_id: 'n1', target_node_id: 'n2', label: 'designed' },
  ],
};
const lovelace = ccx2Package({ 'knowledge.jsonld': JSON.stringify(knowledge) }, 'test/lovelace');

interface Queued {
  task_id: string;
  message: string;
}

describe('CCX import: merge or replace', () => {
  let server: TestServer;
  let cookie: string;
  let sourceId: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const counts = async () => countsOf((await server.platform.databases.current()).db);
  const taskTotal = async () =>
    ((await call('GET', '/queue/tasks?page_size=1')).body as { pagination: { total: number } }).pagination.total;
  const upload = (bytes: Buffer, { query = '', form = {} }: { query?: string; form?: Record<string, string> } = {}) =>
    uploadSources(server, cookie, `/exports/import${query}`, [{ name: 'package.ccx', content: bytes }], form);
  const imported = async (accepted: Awaited<ReturnType<typeof upload>>) => {
    expect(accepted.status, accepted.text).toBe(202);
    const task = await waitForTask(call, (accepted.body as Queued).task_id, { timeoutMs: 60_000 });
    expect(task.status, task.error ?? '').toBe('completed');
    return task.result as Record<string, unknown>;
  };
  const sourceStatus = async () => (await call('GET', `/sources/${sourceId}`)).status;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  // Each test starts from a database holding one source and the Lovelace graph.
  beforeEach(async () => {
    await imported(await upload(lovelace, { form: { merge: 'false' } }));
    const accepted = await uploadSources(server, cookie, '/sources', [
      { name: 'babbage.txt', content: 'Charles Babbage designed the Difference Engine in London.' },
    ]);
    expect(accepted.status, accepted.text).toBe(202);
    sourceId = (accepted.body as SourceResponseBody).id;
    await waitForSource(server, cookie, sourceId, ['indexed', 'awaiting_confirmation', 'committed']);
  }, 60_000);

  it('merges when the query says merge=true and the form says nothing', async () => {
    const before = await counts();
    const accepted = await upload(lovelace, { query: '?merge=true' });
    expect((accepted.body as Queued).message).toMatch(/merging/);
    expect(await imported(accepted)).toMatchObject({ merge: true, nodes_updated: 2, safety_backup: null });
    expect(await sourceStatus()).toBe(200);
    expect(await counts()).toEqual(before);
  });

  it('merges when the form says merge=true', async () => {
    expect(await imported(await upload(lovelace, { form: { merge: 'true' } }))).toMatchObject({ merge: true });
    expect(await sourceStatus()).toBe(200);
  });

  it('refuses values of merge that disagree, or are no boolean, with 422 and changes nothing', async () => {
    const before = await counts();
    const tasks = await taskTotal();
    for (const [query, form] of [
      ['?merge=false', { merge: 'true' }],
      ['?merge=true', { merge: 'false' }],
      ['?merge=abc', {}],
      ['', { merge: 'abc' }],
    ] as const) {
      const refused = await upload(lovelace, { query, form });
      expect(refused.status, `${query} ${JSON.stringify(form)}: ${refused.text}`).toBe(422);
      expect(refused.body).toMatchObject({ error: 'VALIDATION_FAILED', message: expect.any(String) });
      expect(JSON.stringify(refused.body)).toContain('merge');
    }
    expect(await taskTotal()).toBe(tasks);
    expect(await counts()).toEqual(before);
    expect(await sourceStatus()).toBe(200);
  });

  it('replaces on an explicit merge=false, keeping a safety backup that undoes it', async () => {
    const accepted = await upload(lovelace, { query: '?merge=false', form: { merge: 'false' } });
    const { message } = accepted.body as Queued;
    expect(message).toMatch(/replacing/);
    const result = await imported(accepted);
    expect(result).toMatchObject({ merge: false, nodes_imported: 2 });
    const safety = String(result.safety_backup);
    expect(safety).toMatch(/^pre-import_\d{8}_\d{6}(_\d+)?\.db$/);
    expect(await sourceStatus()).toBe(404);

    const backups = (await call('GET', '/backup')).body as { data: { filename: string; kind: string }[] };
    expect(backups.data).toContainEqual(expect.objectContaining({ filename: safety, kind: 'safety' }));
    const restored = await call('POST', `/backup/${safety}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(await sourceStatus()).toBe(200);
    await waitForTask(call, (restored.body as { vector_task_id: string }).vector_task_id);
  });

  it('without merge anywhere replaces, as documented, says so and keeps a safety backup', async () => {
    const accepted = await upload(lovelace);
    expect((accepted.body as Queued).message).toMatch(/replacing .*merge was not given/);
    const result = await imported(accepted);
    expect(result).toMatchObject({ merge: false });
    expect(String(result.safety_backup)).toMatch(/^pre-import_/);
    expect(await sourceStatus()).toBe(404);
  });

  it.each([
    ['any other object', { graph: [] }],
    ['an empty object', {}],
    ['nodes but no edges', { nodes: knowledge.nodes }],
    ['nodes that are no list', { nodes: { n1: knowledge.nodes[0] }, edges: [] }],
    ['a node without an id', { nodes: [{ label: 'Nameless' }], edges: [] }],
    ['a node whose properties are no object', { nodes: [{ id: 'n1', properties: 'x' }], edges: [] }],
    ['an edge without its target', { nodes: knowledge.nodes, edges: [{ id: 'e1', source_node_id: 'n1' }] }],
    ['a label that is no text', { nodes: [{ id: 'n1', label: 42 }], edges: [] }],
  ])('refuses a knowledge.jsonld with %s (400) before anything is replaced', async (_case, document) => {
    const before = await counts();
    const tasks = await taskTotal();
    const refused = await upload(ccx2Package({ 'knowledge.jsonld': JSON.stringify(document) }), {
      form: { merge: 'false' },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'file' } });
    expect((refused.body as { message: string }).message).toMatch(/Invalid CCX package: '?knowledge\.jsonld/);
    expect(await taskTotal()).toBe(tasks);
    expect(await counts()).toEqual(before);
    expect(before.graph_nodes).toBeGreaterThan(0);
    expect(await sourceStatus()).toBe(200);
  });
});
