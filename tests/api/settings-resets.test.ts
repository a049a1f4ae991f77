import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { waitForTask } from '../support/wait.ts';

/** The scoped resets and the orphan clean-up of Settings, through a real server and its SQLite file. */
describe('scoped resets and orphan clean-up', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, { cookie, body });
  const total = async (path: string) =>
    ((await call('GET', `${path}?page_size=1`)).body as { pagination: { total: number } }).pagination.total;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('deletes every chat of the database and says how many', async () => {
    for (const title of ['Tides', 'Lamps']) expect((await call('POST', '/chats', { title })).status).toBe(201);
    expect(await total('/chats')).toBe(2);
    const reset = await call('POST', '/settings/reset/chats');
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toEqual({ success: true, data: { status: 'completed', chats_deleted: 2 } });
    expect(await total('/chats')).toBe(0);
    expect((await call('POST', '/settings/reset/chats')).body).toMatchObject({ data: { chats_deleted: 0 } });
  });

  it('deletes the workflows, triggers and executions and seeds the system workflow again', async () => {
    const created = await call('POST', '/workflows', {
      name: 'Nightly digest',
      steps: [
        { id: 'noop', name: 'noop', tool_type: 'system_tool', tool_id: 'data.merge', configuration: { items: [{}] } },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const names = async () =>
      ((await call('GET', '/workflows?page_size=100')).body as { data: { name: string; is_system: boolean }[] }).data
        .map((workflow) => `${workflow.is_system ? 'system' : 'user'}:${workflow.name}`)
        .sort();
    expect(await names()).toEqual(['system:Generate Embeddings', 'user:Nightly digest']);
    const reset = await call('POST', '/settings/reset/workflows');
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({
      success: true,
      data: {
        status: 'completed',
        workflows_deleted: 2,
        triggers_deleted: 1,
        workflows_created: 1,
        triggers_created: 1,
      },
    });
    expect(await names()).toEqual(['system:Generate Embeddings']);
  });

  it('queues the removal of dangling edges, and the queue reset clears the finished task', async () => {
    const { db } = await server.platform.databases.current();
    const template = async (type: string) =>
      ((await db('graph_templates').where({ template_type: type }).first('id')) as { id: string }).id;
    const now = new Date().toISOString();
    const stamps = { properties: '{}', created_at: now, updated_at: now };
    await db('graph_nodes').insert({ id: 'keeper', template_id: await template('node'), label: 'Keeper', ...stamps });
    await db.raw('PRAGMA foreign_keys = OFF');
    try {
      await db('graph_edges').insert({
        id: 'dangling',
        template_id: await template('edge'),
        source_node_id: 'keeper',
        target_node_id: 'node_gone',
        label: 'tends',
        ...stamps,
      });
    } finally {
      await db.raw('PRAGMA foreign_keys = ON');
    }
    const queued = await call('POST', '/settings/cleanup/orphans');
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toEqual({
      task_id: expect.any(String),
      status: 'queued',
      operation_type: 'graph_cleanup',
      message: expect.any(String),
    });
    const task = await waitForTask(call, (queued.body as { task_id: string }).task_id, { statuses: ['completed'] });
    expect(task.result).toEqual({ nodes_removed: 0, edges_removed: 1 });
    expect(await db('graph_edges').where({ id: 'dangling' }).first()).toBeUndefined();
    expect(await db('graph_nodes').where({ id: 'keeper' }).first()).toBeDefined();

    expect(await total('/queue/tasks')).toBeGreaterThan(0);
    const reset = await call('POST', '/settings/reset/queue');
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({
      success: true,
      data: { status: 'completed', tasks_cancelled: expect.any(Number) },
    });
    expect((reset.body as { data: { tasks_deleted: number } }).data.tasks_deleted).toBeGreaterThan(0);
    expect(await total('/queue/tasks')).toBe(0);
  });
});
