import { PermanentTaskError } from '@rhizome/queue';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Blocker } from '../support/blocking-operation.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { isoPattern } from '../support/api-assertions.ts';
import { until, waitForTask } from '../support/wait.ts';

interface SystemEvent {
  id: number;
  timestamp: string | null;
  type: string | null;
  action: string | null;
  source: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
  database_name: string | null;
}

interface Status {
  paused: boolean;
  paused_at: string | null;
  reason: string | null;
}

const proxy401 = '{"error":"authentication_required"}';
const running: Status = { paused: false, paused_at: null, reason: null };

describe('system processing pause and event log', () => {
  let server: TestServer;
  let cookie: string;
  const blocking = new Blocker();
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  async function status(): Promise<Status> {
    const result = await call('GET', '/system/processing/status');
    expect(result.status).toBe(200);
    return result.body as Status;
  }

  async function events(query = ''): Promise<SystemEvent[]> {
    const result = await call('GET', `/system/processing/events${query}`);
    expect(result.status, result.text).toBe(200);
    return result.body as SystemEvent[];
  }

  async function submit(body: Record<string, unknown>): Promise<string> {
    const result = await call('POST', '/queue/tasks', body);
    expect(result.status, result.text).toBe(201);
    return (result.body as { task_id: string }).task_id;
  }

  async function taskStatus(taskId: string): Promise<{ status: string; started_at: string | null }> {
    const result = await call('GET', `/queue/tasks/${taskId}`);
    expect(result.status, result.text).toBe(200);
    return result.body as { status: string; started_at: string | null };
  }

  async function waitFor(taskId: string, wanted: string): Promise<void> {
    await waitForTask(call, taskId, { statuses: [wanted], timeoutMs: 5000 });
  }

  async function pause(body: unknown) {
    return call('POST', '/system/processing/pause', body);
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    server.platform.operations.define('test.pausable', { queue: 'operations', pausable: true }, async (context) =>
      context.task.data.key === undefined ? { ok: 'pausable' } : blocking.handler(context),
    );
    server.platform.operations.define('test.fail', { queue: 'operations' }, async () => {
      throw new PermanentTaskError('test.fail never succeeds', 'ValidationError');
    });
  });

  afterEach(async () => {
    if ((await status()).paused) expect((await call('POST', '/system/processing/resume')).status).toBe(200);
    await call('DELETE', '/queue/tasks');
    await blocking.settled();
  });

  afterAll(() => server.stop());

  it('reports running before any pause, with an empty event log', async () => {
    expect(await status()).toEqual(running);
    expect(await events()).toEqual([]);
  });

  it('pauses with a reason and resumes', async () => {
    const before = Date.now();
    const paused = await pause({ reason: 'maintenance window' });
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({ paused: true });
    const current = await status();
    expect(current).toEqual({
      paused: true,
      paused_at: expect.stringMatching(isoPattern),
      reason: 'maintenance window',
    });
    expect(Date.parse(current.paused_at!)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(current.paused_at!)).toBeLessThanOrEqual(Date.now() + 5);

    const resumed = await call('POST', '/system/processing/resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body).toEqual({ paused: false });
    expect(await status()).toEqual(running);
  });

  it('refuses a reason over 500 characters and changes nothing', async () => {
    const logged = (await events()).length;
    const tooLong = await pause({ reason: 'r'.repeat(501) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({
      error: 'VALIDATION_FAILED',
      details: {
        errors: expect.arrayContaining([{ loc: ['body', 'reason'], msg: expect.any(String), type: 'maxLength' }]),
      },
    });
    expect(await status()).toEqual(running);
    expect(await events()).toHaveLength(logged);
    expect((await pause({ reason: 42 })).status).toBe(422);
    expect(await status()).toEqual(running);

    // While paused, a refused pause keeps the earlier reason and time.
    expect((await pause({ reason: 'x'.repeat(500) })).status).toBe(200);
    const paused = await status();
    expect(paused).toEqual({ paused: true, paused_at: expect.stringMatching(isoPattern), reason: 'x'.repeat(500) });
    expect((await pause({ reason: 'y'.repeat(501) })).status).toBe(422);
    expect(await status()).toEqual(paused);
    expect(await events()).toHaveLength(logged + 1);
  });

  it.each([
    ['a null reason', { reason: null }],
    ['no reason', {}],
  ])('pauses with %s', async (_label, body) => {
    const result = await pause(body);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ paused: true });
    expect(await status()).toEqual({ paused: true, paused_at: expect.stringMatching(isoPattern), reason: null });
    expect((await events('?limit=1'))[0]).toMatchObject({ type: 'pause', reason: null });
  });

  it('holds pausable tasks while paused, lets others and in-flight ones finish, and runs them on resume', async () => {
    const inFlight = await submit({ queue: 'operations', operation: 'test.pausable', data: { key: 'in-flight' } });
    await waitFor(inFlight, 'running');
    expect((await pause({ reason: 'hold extraction' })).body).toEqual({ paused: true });

    const held = await submit({ queue: 'operations', operation: 'test.pausable', data: {} });
    const other = await submit({ queue: 'operations', operation: 'system.noop', data: {} });
    // The lane claimed past the older held task to run the non-pausable one.
    await waitFor(other, 'completed');
    expect(await taskStatus(held)).toMatchObject({ status: 'queued', started_at: null });

    blocking.release('in-flight');
    await waitFor(inFlight, 'completed');
    expect((await call('GET', `/queue/tasks/${inFlight}/result`)).body).toEqual({ result: { released: 'in-flight' } });
    await waitFor(await submit({ queue: 'operations', operation: 'system.noop', data: {} }), 'completed');
    expect((await taskStatus(held)).status).toBe('queued');
    expect((await status()).paused).toBe(true);

    const resumed = await call('POST', '/system/processing/resume');
    expect(resumed.body).toEqual({ paused: false });
    await waitFor(held, 'completed');
    expect((await call('GET', `/queue/tasks/${held}/result`)).body).toEqual({ result: { ok: 'pausable' } });
  });

  it('lists pause and resume events newest first, filtered and limited', async () => {
    expect((await call('DELETE', '/system/processing/events')).status).toBe(200);
    await pause({ reason: 'first' });
    await call('POST', '/system/processing/resume');
    await pause({ reason: 'second' });

    const listed = await events();
    const event = (reason: string | null, type: string, action: string) => ({
      id: expect.any(Number),
      timestamp: expect.stringMatching(isoPattern),
      type,
      action,
      source: 'user',
      reason,
      details: null,
      database_name: null,
    });
    expect(listed).toEqual([
      event('second', 'pause', 'system_pause'),
      event(null, 'resume', 'system_resume'),
      event('first', 'pause', 'system_pause'),
    ]);
    const ids = listed.map((entry) => entry.id);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(new Set(ids).size).toBe(3);

    const pauses = await events('?event_type=pause');
    expect(pauses.map((entry) => entry.reason)).toEqual(['second', 'first']);
    expect(await events('?event_type=resume')).toEqual([listed[1]]);
    expect(await events('?event_type=recovery')).toEqual([]);
    expect(await events('?limit=1')).toEqual([listed[0]]);
    expect(await events('?event_type=pause&limit=1')).toEqual([listed[0]]);

    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['event_type=bogus', 'event_type'],
    ]) {
      const bad = await call('GET', `/system/processing/events?${query}`);
      expect(bad.status, query).toBe(422);
      expect(bad.body).toMatchObject({
        error: 'VALIDATION_FAILED',
        details: { errors: expect.arrayContaining([expect.objectContaining({ loc: ['query', field] })]) },
      });
    }
  });

  it('records a task_failed event naming the failed task', async () => {
    const taskId = await submit({ queue: 'operations', operation: 'test.fail', data: {} });
    await waitFor(taskId, 'failed');
    const failures = await until(
      async () => {
        const logged = await events('?event_type=task_failed');
        return logged.length ? logged : undefined;
      },
      { timeoutMs: 3000, intervalMs: 15, what: 'a task_failed event' },
    );
    expect(failures).toEqual([
      {
        id: expect.any(Number),
        timestamp: expect.stringMatching(isoPattern),
        type: 'task_failed',
        action: 'test.fail',
        source: 'worker',
        reason: 'test.fail never succeeds',
        details: { task_id: taskId, queue: 'operations', error_type: 'ValidationError', attempts: 1 },
        database_name: null,
      },
    ]);
    expect((await events())[0]).toEqual(failures[0]);
  });

  it('clears the event log', async () => {
    const logged = (await events('?limit=1000')).length;
    expect(logged).toBeGreaterThan(0);
    const cleared = await call('DELETE', '/system/processing/events');
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ deleted: logged });
    expect(await events()).toEqual([]);
    expect((await call('DELETE', '/system/processing/events')).body).toEqual({ deleted: 0 });
    // Clearing the log does not change the pause state.
    expect(await status()).toEqual(running);
  });

  it.each([
    ['GET', '/system/processing/status', undefined],
    ['POST', '/system/processing/pause', { reason: 'anonymous' }],
    ['POST', '/system/processing/resume', undefined],
    ['GET', '/system/processing/events', undefined],
    ['DELETE', '/system/processing/events', undefined],
  ])('refuses %s %s without credentials with the proxy 401', async (method, apiPath, body) => {
    await pause({ reason: 'before anonymous call' });
    const before = await status();
    const logged = await events('?limit=1000');
    const result = await server.call(method, apiPath, { body });
    expect(result.status).toBe(401);
    expect(result.text).toBe(proxy401);
    expect(await status()).toEqual(before);
    expect(await events('?limit=1000')).toEqual(logged);
  });
});
