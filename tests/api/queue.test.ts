import { PermanentTaskError } from '@rhizome/queue';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Blocker } from '../support/blocking-operation.ts';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import { isoPattern } from '../support/api-assertions.ts';
import { sleep, until, waitForTask } from '../support/wait.ts';

interface Task {
  task_id: string;
  queue: string;
  operation: string;
  status: string;
  priority: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  attempts: number;
  created_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  error?: string | null;
  error_type?: string | null;
}

interface TaskList {
  data: Task[];
  pagination: {
    total: number;
    page: number;
    page_size: number;
    total_pages: number;
    has_next: boolean;
    has_prev: boolean;
  };
  total_in_queue: number;
  queues: string[] | null;
}

const proxy401 = '{"error":"authentication_required"}';

function expectError(result: CallResult, status: number, error: string): void {
  expect({ status: result.status, error: (result.body as { error?: string } | null)?.error }).toEqual({
    status,
    error,
  });
}

function notFoundBody(resourceType: string, identifier: string) {
  return {
    error: 'NOT_FOUND',
    message: `${resourceType} '${identifier}' not found`,
    details: { resource_type: resourceType, identifier },
  };
}

describe('queue endpoints (embedded default)', () => {
  let server: TestServer;
  let cookie: string;
  const blocking = new Blocker();
  /** Labels of `test.record` tasks in the order the worker ran them. */
  const ran: string[] = [];
  const flakyFailed = new Set<string>();
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  async function submit(body: Record<string, unknown>): Promise<string> {
    const result = await call('POST', '/queue/tasks', body);
    expect(result.status, result.text).toBe(201);
    return (result.body as { task_id: string }).task_id;
  }

  async function task(taskId: string): Promise<Task> {
    const result = await call('GET', `/queue/tasks/${taskId}`);
    expect(result.status, result.text).toBe(200);
    return result.body as Task;
  }

  /** Polls until the task reaches `status` (fails after 5 s, or at once on another terminal state). */
  async function waitFor(taskId: string, status: string): Promise<Task> {
    await waitForTask(call, taskId, { statuses: [status], timeoutMs: 5000 });
    return task(taskId);
  }

  const block = (queue: string, key: string, extra: Record<string, unknown> = {}) =>
    submit({ queue, operation: 'test.block', data: { key }, ...extra });
  const record = (queue: string, label: string, extra: Record<string, unknown> = {}) =>
    submit({ queue, operation: 'test.record', data: { label }, ...extra });
  const noop = () => submit({ queue: 'operations', operation: 'system.noop', data: {} });
  const failing = () => submit({ queue: 'operations', operation: 'test.fail', data: { why: 'test' } });

  async function taskCount(): Promise<number> {
    return ((await call('GET', '/queue/tasks')).body as TaskList).pagination.total;
  }

  async function setOperationsConcurrency(value: number): Promise<void> {
    const result = await call('PATCH', '/settings', { workers: { operations_max_concurrent: value } });
    expect(result.status, result.text).toBe(200);
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const { operations } = server.platform;
    operations.define('test.block', { queue: 'operations' }, blocking.handler);
    operations.define('test.record', { queue: 'operations' }, async ({ task: current }) => {
      ran.push(String(current.data.label));
      return { label: current.data.label };
    });
    operations.define('test.fail', { queue: 'operations' }, async () => {
      throw new PermanentTaskError('The input of test.fail is never valid', 'ValidationError');
    });
    operations.define('test.flaky', { queue: 'operations' }, async ({ task: current }) => {
      const key = String(current.data.key);
      if (!flakyFailed.has(key)) {
        flakyFailed.add(key);
        throw new PermanentTaskError('first attempt fails', 'FlakyError');
      }
      return { second: key };
    });
  });

  /** Cancels every active task and waits until the worker has stopped their handlers. */
  async function quiesce(): Promise<void> {
    await call('DELETE', '/queue/tasks');
    expect(await blocking.settled()).toBe(0);
  }

  /**
   * Clears the task history once cancelled handlers have noticed their cancellation: a handler whose
   * task record is removed first never sees the cancel flag and keeps its lane slot until it ends
   * (system.sleep polls every 50 ms).
   */
  async function clearHistorySafely(): Promise<void> {
    await quiesce();
    await sleep(100);
    expect((await call('DELETE', '/queue/tasks/history')).status).toBe(200);
  }

  // Nothing of one test may hold a lane for the next one.
  afterEach(quiesce);

  afterAll(() => server.stop());

  describe('POST /queue/tasks', () => {
    it('queues a task that the worker runs to completed, with its result', async () => {
      const result = await call('POST', '/queue/tasks', { queue: 'operations', operation: 'system.noop', data: {} });
      expect(result.status).toBe(201);
      expect(Object.keys(result.body as object)).toEqual(['task_id']);
      const taskId = (result.body as { task_id: string }).task_id;
      expect(taskId).toEqual(expect.any(String));
      const done = await waitFor(taskId, 'completed');
      expect(done).toEqual({
        task_id: taskId,
        queue: 'operations',
        operation: 'system.noop',
        status: 'completed',
        priority: 50,
        data: {},
        metadata: {},
        attempts: 1,
        created_at: expect.stringMatching(isoPattern),
        started_at: expect.stringMatching(isoPattern),
        completed_at: expect.stringMatching(isoPattern),
        error: null,
        error_type: null,
      });
      expect(Date.parse(done.created_at!)).toBeLessThanOrEqual(Date.parse(done.started_at!));
      expect(Date.parse(done.started_at!)).toBeLessThanOrEqual(Date.parse(done.completed_at!));
      const stored = await call('GET', `/queue/tasks/${taskId}/result`);
      expect(stored.status).toBe(200);
      expect(stored.body).toEqual({ result: { ok: true } });
    });

    it('keeps the given priority, metadata and data', async () => {
      const taskId = await submit({
        queue: 'operations',
        operation: 'system.noop',
        data: { n: 1, nested: { a: [1, 2] } },
        priority: 77,
        metadata: { batch: 'keep' },
      });
      const done = await waitFor(taskId, 'completed');
      expect(done).toMatchObject({ priority: 77, metadata: { batch: 'keep' }, data: { n: 1, nested: { a: [1, 2] } } });
    });

    it.each([
      ['missing queue', { operation: 'system.noop', data: {} }, ['body', 'queue'], 'missing'],
      ['missing operation', { queue: 'operations', data: {} }, ['body', 'operation'], 'missing'],
      ['missing data', { queue: 'operations', operation: 'system.noop' }, ['body', 'data'], 'missing'],
      ['queue other', { queue: 'other', operation: 'system.noop', data: {} }, ['body', 'queue'], undefined],
      [
        'priority -1',
        { queue: 'operations', operation: 'system.noop', data: {}, priority: -1 },
        ['body', 'priority'],
        'minimum',
      ],
      [
        'priority 101',
        { queue: 'operations', operation: 'system.noop', data: {}, priority: 101 },
        ['body', 'priority'],
        'maximum',
      ],
      ['data a string', { queue: 'operations', operation: 'system.noop', data: 'x' }, ['body', 'data'], 'type'],
      ['data an array', { queue: 'operations', operation: 'system.noop', data: [1] }, ['body', 'data'], 'type'],
    ])('refuses %s with 422 and enqueues nothing', async (_label, body, loc, type) => {
      const before = await taskCount();
      const result = await call('POST', '/queue/tasks', body);
      expect(result.status).toBe(422);
      const errors = result.body as { error: string; details: { errors: { loc: unknown[]; type: string }[] } };
      expect(errors.error).toBe('VALIDATION_FAILED');
      expect(errors.details.errors.length).toBeGreaterThan(0);
      for (const issue of errors.details.errors) expect(issue.loc).toEqual(loc);
      if (type) expect(errors.details.errors.map((issue) => issue.type)).toContain(type);
      expect(await taskCount()).toBe(before);
    });
  });

  describe('GET /queue/tasks', () => {
    it('pages newest first, filters by queue and counts queued plus running', async () => {
      await clearHistorySafely();
      const a = await block('llm', 'list');
      await waitFor(a, 'running');
      const b = await record('llm', 'list-b');
      const c = await record('llm', 'list-c');
      const d = await noop();
      await waitFor(d, 'completed');
      const e = await noop();
      await waitFor(e, 'completed');
      expect((await task(b)).status).toBe('queued');

      const first = (await call('GET', '/queue/tasks?page_size=2')).body as TaskList;
      expect(first.data.map((item) => item.task_id)).toEqual([e, d]);
      expect(first.pagination).toEqual({
        total: 5,
        page: 1,
        page_size: 2,
        total_pages: 3,
        has_next: true,
        has_prev: false,
      });
      expect(first.total_in_queue).toBe(3);
      expect(first.queues).toBeNull();
      const second = (await call('GET', '/queue/tasks?page=2&page_size=2')).body as TaskList;
      expect(second.data.map((item) => item.task_id)).toEqual([c, b]);
      expect(second.pagination).toMatchObject({ page: 2, has_next: true, has_prev: true });
      const third = (await call('GET', '/queue/tasks?page=3&page_size=2')).body as TaskList;
      expect(third.data.map((item) => item.task_id)).toEqual([a]);
      expect(third.pagination).toMatchObject({ page: 3, has_next: false, has_prev: true });
      const beyond = (await call('GET', '/queue/tasks?page=4&page_size=2')).body as TaskList;
      expect(beyond.data).toEqual([]);

      const all = (await call('GET', '/queue/tasks')).body as TaskList;
      expect(all.pagination).toEqual({
        total: 5,
        page: 1,
        page_size: 50,
        total_pages: 1,
        has_next: false,
        has_prev: false,
      });
      expect(all.data.map((item) => [item.task_id, item.status])).toEqual([
        [e, 'completed'],
        [d, 'completed'],
        [c, 'queued'],
        [b, 'queued'],
        [a, 'running'],
      ]);
      for (const item of all.data) {
        expect(item).not.toHaveProperty('error');
        expect(item).not.toHaveProperty('error_type');
      }

      const llm = await call('GET', '/queue/tasks?queues=llm');
      expect(llm.status).toBe(200);
      expect((llm.body as TaskList).data.map((item) => item.task_id)).toEqual([c, b, a]);
      expect(llm.body).toMatchObject({ pagination: { total: 3 }, total_in_queue: 3, queues: ['llm'] });
      const operations = (await call('GET', '/queue/tasks?queues=operations')).body as TaskList;
      expect(operations).toMatchObject({ pagination: { total: 2 }, total_in_queue: 0, queues: ['operations'] });
      const both = (await call('GET', '/queue/tasks?queues=llm,operations')).body as TaskList;
      expect(both.data.map((item) => item.task_id)).toEqual([e, d, c, b, a]);
      expect(both).toMatchObject({ pagination: { total: 5 }, total_in_queue: 3, queues: ['llm', 'operations'] });

      const bogus = await call('GET', '/queue/tasks?queues=bogus');
      expect(bogus.status).toBe(422);
      expect(bogus.body).toMatchObject({
        error: 'VALIDATION_FAILED',
        details: { errors: [{ loc: ['query', 'queues'] }] },
      });
      const mixed = await call('GET', '/queue/tasks?queues=llm,bogus');
      expect(mixed.status).toBe(422);

      const clamped = (await call('GET', '/queue/tasks?page_size=5000')).body as TaskList;
      expect(clamped.pagination).toMatchObject({ page_size: 1000, total: 5, total_pages: 1 });
      expect(clamped.data).toHaveLength(5);
      for (const query of ['page=0', 'page_size=0', 'page=x'])
        expect((await call('GET', `/queue/tasks?${query}`)).status).toBe(422);

      blocking.release('list');
      await waitFor(a, 'completed');
      await waitFor(c, 'completed');
      expect(((await call('GET', '/queue/tasks')).body as TaskList).total_in_queue).toBe(0);
    });
  });

  describe('GET /queue/tasks/{id} and its result', () => {
    it('shows error and error_type of a failed task', async () => {
      const taskId = await failing();
      const failed = await waitFor(taskId, 'failed');
      expect(failed).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'The input of test.fail is never valid',
        error_type: 'ValidationError',
        completed_at: expect.stringMatching(isoPattern),
      });
      const listed = ((await call('GET', '/queue/tasks')).body as TaskList).data.find(
        (item) => item.task_id === taskId,
      )!;
      expect(listed.status).toBe('failed');
      expect(listed).not.toHaveProperty('error');
      expect(listed).not.toHaveProperty('error_type');
      const result = await call('GET', `/queue/tasks/${taskId}/result`);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(notFoundBody('task_result', taskId));
    });

    it('answers 404 with the envelope for unknown ids', async () => {
      const unknown = await call('GET', '/queue/tasks/no-such-task');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFoundBody('task', 'no-such-task'));
      const result = await call('GET', '/queue/tasks/no-such-task/result');
      expect(result.status).toBe(404);
      expect(result.body).toEqual(notFoundBody('task_result', 'no-such-task'));
    });

    it('has no result while the task is still running or queued', async () => {
      const running = await block('llm', 'result');
      await waitFor(running, 'running');
      const queued = await record('llm', 'result-queued');
      for (const taskId of [running, queued]) {
        const result = await call('GET', `/queue/tasks/${taskId}/result`);
        expect(result.status).toBe(404);
        expect(result.body).toEqual(notFoundBody('task_result', taskId));
      }
      blocking.release('result');
      await waitFor(running, 'completed');
      expect((await call('GET', `/queue/tasks/${running}/result`)).body).toEqual({ result: { released: 'result' } });
      await waitFor(queued, 'completed');
    });
  });

  describe('DELETE /queue/tasks/{id}', () => {
    it('cancels a queued task, which then never runs', async () => {
      const blocker = await block('llm', 'cancel-queued');
      await waitFor(blocker, 'running');
      const queued = await record('llm', 'cancelled-before-start');
      const result = await call('DELETE', `/queue/tasks/${queued}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ status: 'cancelled' });
      blocking.release('cancel-queued');
      await waitFor(blocker, 'completed');
      // The lane has moved past the cancelled task once a later one ran.
      await waitFor(await record('llm', 'after-cancelled'), 'completed');
      expect(ran).toContain('after-cancelled');
      expect(ran).not.toContain('cancelled-before-start');
      expect(await task(queued)).toMatchObject({
        status: 'cancelled',
        started_at: null,
        attempts: 0,
        completed_at: expect.stringMatching(isoPattern),
      });
      expect((await call('DELETE', `/queue/tasks/${queued}`)).status).toBe(400);
    });

    it('cancels a running task and the worker stops it', async () => {
      await setOperationsConcurrency(1);
      try {
        const sleeper = await submit({ queue: 'operations', operation: 'system.sleep', data: { ms: 10_000 } });
        await waitFor(sleeper, 'running');
        const result = await call('DELETE', `/queue/tasks/${sleeper}`);
        expect(result.status).toBe(200);
        expect(result.body).toEqual({ status: 'cancelled' });
        expect((await task(sleeper)).status).toBe('cancelled');
        // With one operations slot, the next task only runs once the worker has stopped the sleeper.
        const started = Date.now();
        await waitFor(await noop(), 'completed');
        expect(Date.now() - started).toBeLessThan(3000);
        const after = await task(sleeper);
        expect(after).toMatchObject({
          status: 'cancelled',
          error: null,
          completed_at: expect.stringMatching(isoPattern),
        });
        expect((await call('GET', `/queue/tasks/${sleeper}/result`)).status).toBe(404);
      } finally {
        await setOperationsConcurrency(8);
      }
    });

    it('refuses completed and failed tasks with 400 and unknown ones with 404', async () => {
      const completed = await noop();
      await waitFor(completed, 'completed');
      const done = await call('DELETE', `/queue/tasks/${completed}`);
      expect(done.status).toBe(400);
      expect(done.body).toEqual({
        error: 'VALIDATION_ERROR',
        message: `Task '${completed}' is already completed`,
        details: null,
      });
      expect((await task(completed)).status).toBe('completed');
      const failed = await failing();
      await waitFor(failed, 'failed');
      const refused = await call('DELETE', `/queue/tasks/${failed}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'VALIDATION_ERROR',
        message: `Task '${failed}' is already failed`,
        details: null,
      });
      expect((await task(failed)).status).toBe('failed');
      const unknown = await call('DELETE', '/queue/tasks/no-such-task');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFoundBody('task', 'no-such-task'));
    });
  });

  describe('POST /queue/tasks/{id}/retry', () => {
    it('queues a failed task again as a new task; the original stays failed', async () => {
      const original = await submit({
        queue: 'operations',
        operation: 'test.flaky',
        data: { key: 'retry' },
        priority: 61,
        metadata: { m: 1 },
      });
      await waitFor(original, 'failed');
      const result = await call('POST', `/queue/tasks/${original}/retry`);
      expect(result.status).toBe(200);
      const body = result.body as { new_task_id: string; original_task_id: string };
      expect(body).toEqual({ new_task_id: expect.any(String), original_task_id: original });
      expect(body.new_task_id).not.toBe(original);
      const copy = await waitFor(body.new_task_id, 'completed');
      expect(copy).toMatchObject({
        queue: 'operations',
        operation: 'test.flaky',
        data: { key: 'retry' },
        priority: 61,
        metadata: { m: 1 },
        attempts: 1,
      });
      expect((await call('GET', `/queue/tasks/${body.new_task_id}/result`)).body).toEqual({
        result: { second: 'retry' },
      });
      expect(await task(original)).toMatchObject({
        status: 'failed',
        error: 'first attempt fails',
        error_type: 'FlakyError',
      });
    });

    it('refuses tasks that are not failed with 400 and unknown ones with 404', async () => {
      const completed = await noop();
      await waitFor(completed, 'completed');
      const before = await taskCount();
      const refused = await call('POST', `/queue/tasks/${completed}/retry`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringContaining(completed) });
      const blocker = await block('llm', 'retry-queued');
      await waitFor(blocker, 'running');
      expectError(await call('POST', `/queue/tasks/${blocker}/retry`), 400, 'VALIDATION_ERROR');
      blocking.release('retry-queued');
      await waitFor(blocker, 'completed');
      const unknown = await call('POST', '/queue/tasks/no-such-task/retry');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFoundBody('task', 'no-such-task'));
      expect(await taskCount()).toBe(before + 1);
    });
  });

  describe('cancelling many', () => {
    it('DELETE /queue/tasks cancels the active tasks of one queue or of all', async () => {
      const llmBlocker = await block('llm', 'never-all');
      await waitFor(llmBlocker, 'running');
      const llmQueued = [await record('llm', 'all-1'), await record('llm', 'all-2')];
      const sleepers = [
        await submit({ queue: 'operations', operation: 'system.sleep', data: { ms: 10_000 } }),
        await submit({ queue: 'operations', operation: 'system.sleep', data: { ms: 10_000 } }),
      ];
      for (const sleeper of sleepers) await waitFor(sleeper, 'running');
      const finished = await noop();
      await waitFor(finished, 'completed');

      const llm = await call('DELETE', '/queue/tasks?queue=llm');
      expect(llm.status).toBe(200);
      expect(llm.body).toEqual({ cancelled: 3, queue: 'llm' });
      for (const taskId of [llmBlocker, ...llmQueued]) expect((await task(taskId)).status).toBe('cancelled');
      for (const sleeper of sleepers) expect((await task(sleeper)).status).toBe('running');
      expectError(await call('DELETE', '/queue/tasks?queue=bogus'), 422, 'VALIDATION_FAILED');

      const all = await call('DELETE', '/queue/tasks');
      expect(all.status).toBe(200);
      expect(all.body).toEqual({ cancelled: 2, queue: null });
      for (const sleeper of sleepers) expect((await task(sleeper)).status).toBe('cancelled');
      expect((await task(finished)).status).toBe('completed');
      expect(await call('DELETE', '/queue/tasks')).toMatchObject({ status: 200, body: { cancelled: 0, queue: null } });
    });

    it('POST /queue/tasks/cancel in batch mode reports what it could not cancel', async () => {
      const blocker = await block('llm', 'batch');
      await waitFor(blocker, 'running');
      const queued = await record('llm', 'batch-queued');
      const finished = await noop();
      await waitFor(finished, 'completed');
      const result = await call('POST', '/queue/tasks/cancel', { task_ids: [queued, finished, 'no-such-task'] });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        cancelled_count: 1,
        requested_count: 3,
        failed: [
          { task_id: finished, reason: 'already finished' },
          { task_id: 'no-such-task', reason: 'not found' },
        ],
      });
      expect((await task(queued)).status).toBe('cancelled');
      expect((await task(finished)).status).toBe('completed');
      expect((await task(blocker)).status).toBe('running');
      expect((await call('POST', '/queue/tasks/cancel', { task_ids: [] })).body).toEqual({
        cancelled_count: 0,
        requested_count: 0,
        failed: [],
      });
    });

    it('POST /queue/tasks/cancel in metadata mode cancels only matching tasks', async () => {
      const blocker = await block('llm', 'metadata', { metadata: { batch: 'blocker' } });
      await waitFor(blocker, 'running');
      const x1 = await record('llm', 'meta-x1', { metadata: { batch: 'x', n: 1 } });
      const x2 = await record('llm', 'meta-x2', { metadata: { batch: 'x', n: 2 } });
      const y = await record('llm', 'meta-y', { metadata: { batch: 'y' } });
      const bare = await record('llm', 'meta-none');
      const xOperations = await submit({
        queue: 'operations',
        operation: 'system.sleep',
        data: { ms: 10_000 },
        metadata: { batch: 'x' },
      });
      await waitFor(xOperations, 'running');

      const llmOnly = await call('POST', '/queue/tasks/cancel', { metadata: { batch: 'x' }, queue: 'llm' });
      expect(llmOnly.status).toBe(200);
      expect(llmOnly.body).toEqual({ cancelled: 2 });
      expect((await task(x1)).status).toBe('cancelled');
      expect((await task(x2)).status).toBe('cancelled');
      for (const taskId of [y, bare]) expect((await task(taskId)).status).toBe('queued');
      expect((await task(xOperations)).status).toBe('running');

      const anyQueue = await call('POST', '/queue/tasks/cancel', { metadata: { batch: 'x' } });
      expect(anyQueue.body).toEqual({ cancelled: 1 });
      expect((await task(xOperations)).status).toBe('cancelled');
      expect((await call('POST', '/queue/tasks/cancel', { metadata: { batch: 'none-such' } })).body).toEqual({
        cancelled: 0,
      });
      for (const taskId of [y, bare]) expect((await task(taskId)).status).toBe('queued');
      expect((await task(blocker)).status).toBe('running');
    });

    it('POST /queue/tasks/cancel refuses both modes at once and neither with 400', async () => {
      const queued = await block('llm', 'both-modes');
      const both = await call('POST', '/queue/tasks/cancel', { task_ids: [queued], metadata: { batch: 'x' } });
      expect(both.status).toBe(400);
      expect(both.body).toMatchObject({ error: 'VALIDATION_ERROR', details: null });
      const neither = await call('POST', '/queue/tasks/cancel', {});
      expect(neither.status).toBe(400);
      expect(neither.body).toMatchObject({ error: 'VALIDATION_ERROR', details: null });
      expect((await call('POST', '/queue/tasks/cancel', { queue: 'llm' })).status).toBe(400);
      expect(['queued', 'running']).toContain((await task(queued)).status);
    });
  });

  describe('DELETE /queue/tasks/history', () => {
    it('removes only finished tasks, by queue and age', async () => {
      await clearHistorySafely();
      const completed = await noop();
      await waitFor(completed, 'completed');
      const failed = await failing();
      await waitFor(failed, 'failed');
      const blocker = await block('llm', 'history');
      await waitFor(blocker, 'running');
      const queued = await record('llm', 'history-queued');
      const cancelled = await record('llm', 'history-cancelled');
      expect((await call('DELETE', `/queue/tasks/${cancelled}`)).status).toBe(200);

      const tooOld = await call('DELETE', '/queue/tasks/history?older_than_hours=8761');
      expect(tooOld.status).toBe(422);
      expect(tooOld.body).toMatchObject({
        error: 'VALIDATION_FAILED',
        details: { errors: [{ loc: ['query', 'older_than_hours'] }] },
      });
      expect((await call('DELETE', '/queue/tasks/history?older_than_hours=-1')).status).toBe(422);
      expect((await call('DELETE', '/queue/tasks/history?queue=bogus')).status).toBe(422);
      expect(await taskCount()).toBe(5);

      // Everything finished just now: nothing is an hour old.
      const recent = await call('DELETE', '/queue/tasks/history?older_than_hours=1');
      expect(recent.status).toBe(200);
      expect(recent.body).toEqual({ cleared: 0, queue: null });
      expect(await call('DELETE', '/queue/tasks/history?older_than_hours=8760')).toMatchObject({
        status: 200,
        body: { cleared: 0 },
      });

      const llm = await call('DELETE', '/queue/tasks/history?queue=llm');
      expect(llm.status).toBe(200);
      expect(llm.body).toEqual({ cleared: 1, queue: 'llm' });
      expect((await call('GET', `/queue/tasks/${cancelled}`)).status).toBe(404);
      expect((await task(completed)).status).toBe('completed');

      const all = await call('DELETE', '/queue/tasks/history?older_than_hours=0');
      expect(all.status).toBe(200);
      expect(all.body).toEqual({ cleared: 2, queue: null });
      expect((await call('GET', `/queue/tasks/${completed}`)).status).toBe(404);
      expect((await call('GET', `/queue/tasks/${failed}`)).status).toBe(404);
      expect((await task(blocker)).status).toBe('running');
      expect((await task(queued)).status).toBe('queued');
      const remaining = (await call('GET', '/queue/tasks')).body as TaskList;
      expect(remaining.data.map((item) => item.task_id)).toEqual([queued, blocker]);
      expect(remaining.total_in_queue).toBe(2);
    });
  });

  describe('stats, health and reconcile', () => {
    it('GET /queue/stats shows both lanes with the in-process worker', async () => {
      const stats = await until(
        async () => {
          const current = (await call('GET', '/queue/stats')).body as { queues: { workers: number }[] };
          return current.queues.every((lane) => lane.workers === 1) ? current : undefined;
        },
        { timeoutMs: 3000, intervalMs: 20, what: 'a worker on each lane' },
      );
      expect(stats).toEqual({
        queues: [
          { queue: 'operations', queued: 0, running: 0, completed_recent: 0, failed_recent: 0, workers: 1 },
          { queue: 'llm', queued: 0, running: 0, completed_recent: 0, failed_recent: 0, workers: 1 },
        ],
        note: expect.any(String),
      });
    });

    it('counts queued and running per lane', async () => {
      const blocker = await block('llm', 'stats');
      await waitFor(blocker, 'running');
      await record('llm', 'stats-1');
      await record('llm', 'stats-2');
      const result = await call('GET', '/queue/stats/llm');
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        queue: 'llm',
        queued: 2,
        running: 1,
        completed_recent: 0,
        failed_recent: 0,
        workers: 1,
      });
      const operations = await call('GET', '/queue/stats/operations');
      expect(operations.body).toEqual({
        queue: 'operations',
        queued: 0,
        running: 0,
        completed_recent: 0,
        failed_recent: 0,
        workers: 1,
      });
      const all = (await call('GET', '/queue/stats')).body as { queues: unknown[] };
      expect(all.queues).toContainEqual(result.body);
      const unknown = await call('GET', '/queue/stats/nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFoundBody('queue', 'nope'));
    });

    it('GET /queue/health says the embedded queue answers', async () => {
      const result = await call('GET', '/queue/health');
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        status: 'healthy',
        enabled: true,
        connected: true,
        system: 'embedded',
        note: expect.any(String),
      });
    });

    it('POST /queue/reconcile finds nothing to recover on a healthy system', async () => {
      const blocker = await block('llm', 'reconcile');
      await waitFor(blocker, 'running');
      const zero = { recovered_orphans: 0, recovered_crashed: 0, failed_unrecoverable: 0 };
      for (const body of [{}, { queue: 'llm' }, { queue: 'operations' }, { queue: null }]) {
        const result = await call('POST', '/queue/reconcile', body);
        expect(result.status).toBe(200);
        expect(result.body).toEqual(zero);
      }
      const bad = await call('POST', '/queue/reconcile', { queue: 'x' });
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({
        error: 'VALIDATION_FAILED',
        details: { errors: expect.arrayContaining([expect.objectContaining({ loc: ['body', 'queue'] })]) },
      });
      expect((await task(blocker)).status).toBe('running');
    });
  });

  describe('priority', () => {
    it('runs a priority-90 task queued behind lower ones first once the lane frees', async () => {
      await setOperationsConcurrency(1);
      try {
        const blocker = await block('operations', 'priority');
        await waitFor(blocker, 'running');
        const labels: [string, number][] = [
          ['p10', 10],
          ['p50a', 50],
          ['p20', 20],
          ['p90', 90],
          ['p50b', 50],
          ['p0', 0],
        ];
        const ids: string[] = [];
        for (const [label, priority] of labels) ids.push(await record('operations', label, { priority }));
        for (const taskId of ids) expect((await task(taskId)).status).toBe('queued');
        const start = ran.length;
        blocking.release('priority');
        for (const taskId of ids) await waitFor(taskId, 'completed');
        expect(ran.slice(start)).toEqual(['p90', 'p50a', 'p50b', 'p20', 'p10', 'p0']);
      } finally {
        await setOperationsConcurrency(8);
      }
      expect(server.platform.settings.get().workers.operations_max_concurrent).toBe(8);
    });
  });

  describe('authentication', () => {
    it.each([
      ['POST', '/queue/tasks', { queue: 'operations', operation: 'system.noop', data: {} }],
      ['GET', '/queue/tasks', undefined],
      ['GET', '/queue/tasks/some-id', undefined],
      ['GET', '/queue/tasks/some-id/result', undefined],
      ['DELETE', '/queue/tasks/some-id', undefined],
      ['POST', '/queue/tasks/some-id/retry', undefined],
      ['DELETE', '/queue/tasks', undefined],
      ['POST', '/queue/tasks/cancel', { task_ids: [] }],
      ['DELETE', '/queue/tasks/history', undefined],
      ['GET', '/queue/stats', undefined],
      ['GET', '/queue/stats/llm', undefined],
      ['GET', '/queue/health', undefined],
      ['POST', '/queue/reconcile', {}],
    ])('refuses %s %s without credentials with the proxy 401', async (method, apiPath, body) => {
      const before = await taskCount();
      const result = await server.call(method, apiPath, { body });
      expect(result.status).toBe(401);
      expect(result.text).toBe(proxy401);
      expect(await taskCount()).toBe(before);
    });
  });
});
