import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TagBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';

const tagKeys = ['color', 'created_at', 'database_name', 'description', 'id', 'name'];
const tokenKeys = ['total_cost_usd', 'total_input_tokens', 'total_output_tokens', 'total_tokens'];

type Tag = TagBody;

interface LlmQueue {
  queue: string;
  queued: number;
  running: number;
  workers: number;
  max_depth: number;
  depth_percent: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_tokens: number;
  total_cost_usd: number;
}

interface LlmStats {
  queues: LlmQueue[];
  total_queued: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_tokens: number;
  total_cost_usd: number;
  estimated_completion_time_seconds: number | null;
  estimated_completion_time_human: string | null;
  estimated_completion_times_human: { llm: string | null; operations: string | null };
  semaphore_stats: Record<string, number | null>;
  since: string;
  by_model: { operation: string; calls: number; input_tokens: number; output_tokens: number }[];
}

/** Source tags and the /llm queue monitor in the shapes scripts written for the older system read. */
describe('source tags and the llm monitor in the shapes older clients read', () => {
  let server: TestServer;
  let cookie: string;
  let sourceId: string;
  let database: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const llmStats = async () => {
    const result = await call('GET', '/llm/stats');
    expect(result.status, result.text).toBe(200);
    return (result.body as { data: LlmStats }).data;
  };
  const sleepOnLlmLane = async (ms: number) => {
    const submitted = await call('POST', '/queue/tasks', { queue: 'llm', operation: 'system.sleep', data: { ms } });
    expect(submitted.status, submitted.text).toBe(201);
    return (submitted.body as { task_id: string }).task_id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const accepted = await uploadSources(server, cookie, '/sources', [
      { name: 'tags.txt', content: 'Marie Curie studied radioactivity in Paris with Pierre Curie.' },
    ]);
    expect(accepted.status, accepted.text).toBe(202);
    sourceId = (accepted.body as { id: string }).id;
    await waitForSource(server, cookie, sourceId, ['awaiting_confirmation', 'error'], 60_000);
    database = ((await call('GET', '/databases/current')).body as { current: string }).current;
  }, 60_000);
  afterAll(() => server?.stop());

  describe('tags', () => {
    let tag: Tag;

    it('POST /sources/tags answers a Tag, and the existing tag for a name in another case', async () => {
      const created = await call('POST', '/sources/tags', {
        name: 'physics',
        color: '#336699',
        description: 'papers on matter',
      });
      expect(created.status, created.text).toBe(201);
      tag = created.body as Tag;
      expect(Object.keys(tag).sort()).toEqual(tagKeys);
      expect(tag).toMatchObject({
        database_name: database,
        name: 'physics',
        color: '#336699',
        description: 'papers on matter',
      });
      expect(Number.isNaN(Date.parse(tag.created_at))).toBe(false);
      const again = await call('POST', '/sources/tags', { name: 'PHYSICS', color: '#000000' });
      expect(again.status, again.text).toBe(201);
      expect(again.body).toEqual(tag);
      const bare = await call('POST', '/sources/tags', { name: 'chemistry' });
      expect(bare.body).toMatchObject({ name: 'chemistry', color: null, description: null });
    });

    it('GET /sources/tags is a bare array of Tags by name, each with its source count', async () => {
      const listed = await call('GET', '/sources/tags');
      expect(listed.status, listed.text).toBe(200);
      const tags = listed.body as (Tag & { source_count: number })[];
      expect(tags.map((entry) => entry.name)).toEqual(['chemistry', 'physics']);
      expect(tags[1]).toEqual({ ...tag, source_count: 0 });
    });

    it('PATCH /sources/tags/{id} changes the description and keeps the rest', async () => {
      const patched = await call('PATCH', `/sources/tags/${tag.id}`, { description: 'matter and energy' });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toEqual({ ...tag, description: 'matter and energy' });
      const cleared = await call('PATCH', `/sources/tags/${tag.id}`, { description: null });
      expect((cleared.body as Tag).description).toBeNull();
      tag = cleared.body as Tag;
      expect((await call('GET', `/sources/tags/${tag.id}`)).body).toEqual({ ...tag, source_count: 0 });
    });

    it('POST /sources/{id}/tags/{tag_id} is 204, and 404 SOURCE_OR_TAG_NOT_FOUND for an unknown either', async () => {
      const added = await call('POST', `/sources/${sourceId}/tags/${tag.id}`);
      expect(added.status, added.text).toBe(204);
      expect(added.text).toBe('');
      expect((await call('POST', `/sources/${sourceId}/tags/${tag.id}`)).status).toBe(204);
      for (const apiPath of [`/sources/${sourceId}/tags/tag_missing`, `/sources/src_missing/tags/${tag.id}`]) {
        const missing = await call('POST', apiPath);
        expect(missing.status, apiPath).toBe(404);
        expect(missing.body, apiPath).toMatchObject({ error: 'SOURCE_OR_TAG_NOT_FOUND' });
      }
    });

    it('GET /sources/{id}/tags is a bare array of Tags; source summaries keep {id, name, color}', async () => {
      const listed = await call('GET', `/sources/${sourceId}/tags`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toEqual([tag]);
      const sources = (await call('GET', '/sources')).body as { data: { id: string; tags: unknown[] }[] };
      expect(sources.data.find((source) => source.id === sourceId)?.tags).toEqual([
        { id: tag.id, name: tag.name, color: tag.color },
      ]);
      expect((await call('GET', '/sources/src_missing/tags')).status).toBe(404);
    });

    it('DELETE /sources/{id}/tags/{tag_id} is 204, then 404 NOT_FOUND for the assignment now gone', async () => {
      const removed = await call('DELETE', `/sources/${sourceId}/tags/${tag.id}`);
      expect(removed.status, removed.text).toBe(204);
      expect((await call('GET', `/sources/${sourceId}/tags`)).body).toEqual([]);
      const again = await call('DELETE', `/sources/${sourceId}/tags/${tag.id}`);
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ error: 'NOT_FOUND' });
    });

    it('DELETE /sources/tags/{id} is 204, then 404', async () => {
      expect((await call('POST', `/sources/${sourceId}/tags/${tag.id}`)).status).toBe(204);
      const deleted = await call('DELETE', `/sources/tags/${tag.id}`);
      expect(deleted.status, deleted.text).toBe(204);
      expect((await call('GET', `/sources/${sourceId}/tags`)).body).toEqual([]);
      expect((await call('DELETE', `/sources/tags/${tag.id}`)).status).toBe(404);
      expect((await call('GET', `/sources/tags/${tag.id}`)).status).toBe(404);
    });
  });

  describe('/llm', () => {
    it('GET /llm/stats lists the llm lane as a zero stub when idle, with the monitor totals', async () => {
      await until(async () => ((await llmStats()).queues[0].queued === 0 ? true : undefined), {
        timeoutMs: 30_000,
        intervalMs: 100,
        what: 'an idle llm lane',
      });
      const stats = await llmStats();
      expect(Object.keys(stats).sort()).toEqual(
        [
          'queues',
          'total_queued',
          ...tokenKeys,
          'estimated_completion_time_seconds',
          'estimated_completion_time_human',
          'estimated_completion_times_human',
          'semaphore_stats',
          'since',
          'by_model',
        ].sort(),
      );
      expect(stats.queues).toHaveLength(1);
      const [lane] = stats.queues;
      expect(Object.keys(lane).sort()).toEqual(
        [
          'queue',
          'queued',
          'running',
          'completed_recent',
          'failed_recent',
          'workers',
          'max_depth',
          'depth_percent',
          ...tokenKeys,
        ].sort(),
      );
      expect(lane).toMatchObject({ queue: 'llm', queued: 0, depth_percent: 0, max_depth: 10_000 });
      expect(stats.total_queued).toBe(0);
      expect(Object.keys(stats.estimated_completion_times_human).sort()).toEqual(['llm', 'operations']);
      expect(Object.keys(stats.semaphore_stats).sort()).toEqual(
        [
          'max_concurrent',
          'reserved_high_priority',
          'active_count',
          'active_high_priority',
          'active_low_priority',
          'waiting_high_priority',
          'waiting_low_priority',
          'total_high_priority',
          'total_low_priority',
          'avg_wait_time_high',
          'avg_wait_time_low',
        ].sort(),
      );
      expect(stats.semaphore_stats).toMatchObject({ max_concurrent: 1, reserved_high_priority: 0 });
    });

    it('counts the tokens of model calls, the same in the lane and the totals', async () => {
      await server.platform.providers.llm.complete({
        operation: 'title',
        messages: [{ role: 'user', content: 'a title for the notes on radioactivity' }],
      });
      const stats = await llmStats();
      const rows = stats.by_model;
      expect(rows.some((row) => row.operation === 'title')).toBe(true);
      const input = rows.reduce((sum, row) => sum + row.input_tokens, 0);
      const output = rows.reduce((sum, row) => sum + row.output_tokens, 0);
      expect(stats).toMatchObject({
        total_input_tokens: input,
        total_output_tokens: output,
        total_tokens: input + output,
        total_cost_usd: 0,
      });
      for (const key of tokenKeys)
        expect(stats.queues[0][key as keyof LlmQueue], key).toBe(stats[key as 'total_tokens']);
    });

    it("GET /system/dashboard's llm.data is the object GET /llm/stats answers", async () => {
      const stats = await llmStats();
      const dashboard = (await call('GET', '/system/dashboard')).body as { llm: { data: LlmStats } };
      expect(Math.abs(Date.parse(dashboard.llm.data.since) - Date.parse(stats.since))).toBeLessThan(5_000);
      // Read a moment apart, the lane's activity and what it estimates may move; the rest is the same object.
      const settled = (value: LlmStats) => ({
        ...value,
        since: null,
        queues: value.queues.map((queue) => Object.keys(queue).sort()),
        total_queued: null,
        estimated_completion_time_seconds: null,
        estimated_completion_time_human: null,
        estimated_completion_times_human: null,
        semaphore_stats: Object.keys(value.semaphore_stats).sort(),
      });
      expect(settled(dashboard.llm.data)).toEqual(settled(stats));
    });

    it('DELETE /llm/stats restarts the totals (204) and keeps what sources and chats spent', async () => {
      const before = (await call('GET', '/llm/status')).body as { last_24h: { calls: number } };
      expect(before.last_24h.calls).toBeGreaterThan(0);
      const cleared = await call('DELETE', '/llm/stats?older_than_hours=0');
      expect(cleared.status, cleared.text).toBe(204);
      const stats = await llmStats();
      expect(stats).toMatchObject({ total_tokens: 0, total_input_tokens: 0, by_model: [] });
      expect(Date.now() - Date.parse(stats.since)).toBeLessThan(60_000);
      expect(((await call('GET', '/llm/status')).body as typeof before).last_24h.calls).toBe(before.last_24h.calls);
      expect((await call('DELETE', '/llm/stats?older_than_hours=8761')).status).toBe(422);
      expect((await call('DELETE', '/llm/stats?older_than_hours=-1')).status).toBe(422);
    });

    it('GET /llm/tasks and /llm/tasks/{id} wrap Tasks in data; DELETE cancels one (204), 400 when it cannot', async () => {
      const taskId = await sleepOnLlmLane(60_000);
      const page = await call('GET', '/llm/tasks');
      expect(page.status, page.text).toBe(200);
      const listed = (page.body as { data: Record<string, unknown>[] }).data.find((task) => task.task_id === taskId);
      expect(listed).toMatchObject({ queue: 'llm', operation: 'system.sleep', payload_version: expect.any(Number) });
      const one = await call('GET', `/llm/tasks/${taskId}`);
      expect(one.status, one.text).toBe(200);
      expect((one.body as { data: Record<string, unknown> }).data).toMatchObject({
        task_id: taskId,
        queue: 'llm',
        attempts: expect.any(Number),
        error: null,
        error_type: null,
      });
      const stats = await llmStats();
      expect(stats.queues[0].queued + stats.queues[0].running).toBe(1);
      expect(stats.semaphore_stats.active_count).toBe(stats.queues[0].running);

      const cancelled = await call('DELETE', `/llm/tasks/${taskId}`);
      expect(cancelled.status, cancelled.text).toBe(204);
      expect(((await call('GET', `/llm/tasks/${taskId}`)).body as { data: { status: string } }).data.status).toBe(
        'cancelled',
      );
      const again = await call('DELETE', `/llm/tasks/${taskId}`);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect((await call('DELETE', '/llm/tasks/task_missing')).body).toMatchObject({ error: 'VALIDATION_ERROR' });
      const operations = await call('POST', '/queue/tasks', {
        queue: 'operations',
        operation: 'system.noop',
        data: {},
      });
      const operationsId = (operations.body as { task_id: string }).task_id;
      expect((await call('DELETE', `/llm/tasks/${operationsId}`)).status).toBe(400);
      expect((await call('GET', `/llm/tasks/${operationsId}`)).status).toBe(404);
    });

    it('estimates the time left from the pace of finished llm tasks', async () => {
      const quick = await sleepOnLlmLane(200);
      await until(
        async () =>
          ((await call('GET', `/llm/tasks/${quick}`)).body as { data: { status: string } }).data.status === 'completed'
            ? true
            : undefined,
        { timeoutMs: 30_000, intervalMs: 100, what: 'a finished llm task' },
      );
      await sleepOnLlmLane(60_000);
      await sleepOnLlmLane(60_000);
      const stats = await llmStats();
      expect(stats.total_queued + stats.queues[0].running).toBe(2);
      expect(stats.estimated_completion_time_seconds).toEqual(expect.any(Number));
      expect(stats.estimated_completion_time_human).toMatch(/^\d+s$|^\d+m \d+s$|^\d+h \d+m$/);
      expect(stats.estimated_completion_times_human.llm).toBe(stats.estimated_completion_time_human);
      expect(stats.estimated_completion_times_human.operations).toBe('0s');
    });

    it('DELETE /llm/tasks cancels every queued and running llm task', async () => {
      const cancelled = await call('DELETE', '/llm/tasks');
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body).toEqual({ data: { cancelled: 2, message: 'Cancelled 2 llm tasks' } });
      const stats = await llmStats();
      expect(stats.queues[0]).toMatchObject({ queued: 0, running: 0 });
      expect(stats).toMatchObject({ estimated_completion_time_seconds: 0, estimated_completion_time_human: '0s' });
    });

    it('DELETE /llm/semaphore answers that no caller waited for a slot', async () => {
      const cleared = await call('DELETE', '/llm/semaphore');
      expect(cleared.status, cleared.text).toBe(200);
      expect(cleared.body).toEqual({ data: { high_priority_cleared: 0, low_priority_cleared: 0, total_cleared: 0 } });
    });
  });
});
