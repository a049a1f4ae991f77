import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { sleep, untilHolds } from '../support/wait.ts';

describe('per-source pause', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const status = async (taskId: string) =>
    ((await call('GET', `/queue/tasks/${taskId}`)).body as { status: string }).status;
  const submit = async (sourceId: string) =>
    (
      (
        await call('POST', '/queue/tasks', {
          queue: 'operations',
          operation: 'test.index',
          data: { source_id: sourceId },
        })
      ).body as { task_id: string }
    ).task_id;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    server.platform.operations.define(
      'test.index',
      { queue: 'operations', sourceIdField: 'source_id' },
      async ({ task }) => ({ indexed: task.data.source_id }),
    );
    const at = new Date().toISOString();
    const { db } = await server.platform.databases.current();
    await db('sources').insert({ id: 'src_a', title: 'a', status: 'indexed', created_at: at, updated_at: at });
  });
  afterAll(() => server.stop());

  it('answers 404 for a source that does not exist', async () => {
    for (const action of ['pause', 'resume']) {
      const result = await call('POST', `/sources/src_missing/${action}`, {});
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({
        error: 'NOT_FOUND',
        details: { resource_type: 'source', identifier: 'src_missing' },
      });
    }
  });

  it('holds back the tasks of a paused source until it is resumed, while others run', async () => {
    expect((await call('POST', '/sources/src_a/pause', { reason: 'checking the file' })).body).toEqual({
      source_id: 'src_a',
      paused: true,
    });
    const held = await submit('src_a');
    const other = await submit('src_b');
    await untilHolds(
      () => status(other),
      (now) => now === 'completed',
      { what: 'the task of the other source to complete' },
    );
    await sleep(300);
    expect(await status(held)).toBe('queued');

    expect((await call('POST', '/sources/src_a/resume')).body).toEqual({ source_id: 'src_a', paused: false });
    await untilHolds(
      () => status(held),
      (now) => now === 'completed',
      { what: 'the held task to complete' },
    );
    const events = (await call('GET', '/system/processing/events?event_type=pause&limit=1')).body as {
      action: string;
      reason: string;
      database_name: string;
    }[];
    expect(events[0]).toMatchObject({ action: 'source_pause', reason: 'checking the file', database_name: 'default' });
  });

  it('pauses and resumes in bulk, counting only changes', async () => {
    expect((await call('POST', '/sources/pause', { source_ids: ['s1', 's2', 's2'] })).body).toEqual({ count: 2 });
    expect((await call('POST', '/sources/pause', { source_ids: ['s2', 's3'], reason: null })).body).toEqual({
      count: 1,
    });
    expect((await call('POST', '/sources/resume', { source_ids: ['s1', 's2', 's3', 'never'] })).body).toEqual({
      count: 3,
    });
  });

  it.each([
    ['/sources/pause', { source_ids: [] }, ['body', 'source_ids']],
    ['/sources/pause', { source_ids: Array.from({ length: 501 }, (_, n) => `s${n}`) }, ['body', 'source_ids']],
    ['/sources/pause', { source_ids: ['s1'], reason: 'x'.repeat(501) }, ['body', 'reason']],
    ['/sources/resume', {}, ['body', 'source_ids']],
    ['/sources/src_a/pause', { reason: 'x'.repeat(501) }, ['body', 'reason']],
  ])('refuses %s with %j: 422, nothing paused', async (route, body, loc) => {
    const result = await call('POST', route, body);
    expect(result.status).toBe(422);
    expect(
      (result.body as { details: { errors: { loc: unknown[] }[] } }).details.errors.map((error) => error.loc),
    ).toContainEqual(loc);
    expect(await server.platform.processing.pausedSourceIds()).toEqual(new Set());
  });
});
