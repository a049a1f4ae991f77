import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources } from '../support/sources.ts';
import { until } from '../support/wait.ts';

interface BulkJob {
  job_id: string;
  task_id: string;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  failures: { index: number; id: string; error: string }[];
}

/** POST /sources/bulk-jobs: a bulk action as a queue task, followed by id, given ids or a list filter. */
describe('source bulk jobs', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const source = async (id: string) => (await call('GET', `/sources/${id}`)).body as SourceResponseBody;
  const start = async (body: unknown) => {
    const answer = await call('POST', '/sources/bulk-jobs', body);
    expect(answer.status, answer.text).toBe(202);
    return answer.body as BulkJob;
  };
  const settled = (jobId: string) =>
    until(
      async () => {
        const answer = await call('GET', `/sources/bulk-jobs/${jobId}`);
        expect(answer.status, answer.text).toBe(200);
        const job = answer.body as BulkJob;
        return ['completed', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: `job ${jobId} to settle` },
    );

  const ids: string[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    for (const word of ['one', 'two', 'three', 'four', 'five']) {
      const accepted = await uploadSources(server, cookie, '/sources', [
        { name: `job-${word}.txt`, content: `The ferry timetable ${word} lists the crossings of the southern sound.` },
      ]);
      expect(accepted.status, accepted.text).toBe(202);
      ids.push((accepted.body as SourceResponseBody).id);
    }
  });
  afterAll(() => server.stop());

  it('works listed sources through as a task, a missing one failing alone with the reason', async () => {
    const started = await start({ action: 'disable', source_ids: [ids[0], 'no-such-source', ids[1]] });
    expect(started).toMatchObject({ total: 3, task_id: expect.any(String) });
    const job = await settled(started.job_id);
    expect(job).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 2, failed: 1 });
    expect(job.failures).toEqual([{ index: 1, id: 'no-such-source', error: expect.stringMatching(/no-such-source/) }]);
    expect((await source(ids[0])).enabled).toBe(false);
    expect((await source(ids[2])).enabled).toBe(true);
    const task = await call('GET', `/queue/tasks/${job.task_id}`);
    expect(task.body).toMatchObject({ operation: 'sources.bulk', status: 'completed' });
  });

  it('resolves a filter on the server to every source it matches, and deletes them', async () => {
    const tag = (await call('POST', '/sources/tags', { name: 'Sound' })).body as { id: string };
    for (const id of [ids[2], ids[3]]) expect((await call('POST', `/sources/${id}/tags/${tag.id}`)).status).toBe(204);
    const job = await settled((await start({ action: 'delete', filter: { tag_id: tag.id } })).job_id);
    expect(job).toMatchObject({ status: 'completed', total: 2, succeeded: 2, failed: 0, failures: [] });
    const left = (await call('GET', '/sources')).body as { data: SourceResponseBody[] };
    expect(left.data.map((row) => row.id).sort()).toEqual([ids[0], ids[1], ids[4]].sort());
  });

  it('refuses both or neither of ids and filter, an empty match, an unknown tag and an unknown job', async () => {
    const both = await call('POST', '/sources/bulk-jobs', {
      action: 'delete',
      source_ids: [ids[0]],
      filter: { status: 'error' },
    });
    expect(both.status).toBe(422);
    expect(validationIssuesOf(both).map((issue) => issue.loc)).toEqual([['body']]);
    expect((await call('POST', '/sources/bulk-jobs', { action: 'delete' })).status).toBe(422);
    const none = await call('POST', '/sources/bulk-jobs', { action: 'delete', filter: { search: 'no such words' } });
    expect(none.status).toBe(422);
    expect(validationIssuesOf(none).map((issue) => issue.loc)).toEqual([['body', 'filter']]);
    const unknownTag = await call('POST', '/sources/bulk-jobs', {
      action: 'tag',
      tag_id: 'no-such-tag',
      source_ids: [ids[0]],
    });
    expect(unknownTag.status).toBe(404);
    expect((await call('POST', '/sources/bulk-jobs', { action: 'shred', source_ids: [ids[0]] })).status).toBe(422);
    expect((await call('GET', '/sources/bulk-jobs/bulk_missing')).status).toBe(404);
  });
});
