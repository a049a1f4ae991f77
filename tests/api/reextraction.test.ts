import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { BulkExtractionProgressBody } from '@rhizome/contracts/api/extraction';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';

const curie =
  'Marie Curie was a physicist who was born in Warsaw. Marie Curie married Pierre Curie in Paris in 1895. Marie Curie worked at the University of Paris.';
const becquerel =
  'Henri Becquerel was a physicist who discovered radioactivity. Henri Becquerel worked in Paris. Henri Becquerel shared the Nobel Prize with Marie Curie and Pierre Curie.';
const now = '2026-01-01T00:00:00.000Z';

describe('re-extraction of committed sources', () => {
  let server: TestServer;
  let cookie: string;
  let first: string;
  let second: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const db = async () => (await server.platform.databases.current()).db;
  const upload = async (
    name: string,
    content: string,
    fields: Record<string, string> = { auto_confirm: 'true', domain: 'biographical' },
  ) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], fields);
    expect(accepted.status, accepted.text).toBe(202);
    return (accepted.body as SourceResponseBody).id;
  };
  const committed = async (id: string) =>
    expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
  /** A contribution an earlier extractor left: an extracted node cited by one source only. */
  const plant = async (sourceId: string, label: string) => {
    const id = `node_planted_${label.toLowerCase()}`;
    await (
      await db()
    )('graph_nodes').insert({
      id,
      template_id: 'system_template_item',
      label,
      name_key: label.toLowerCase(),
      properties: '{}',
      extracted: true,
      created_at: now,
      updated_at: now,
    });
    await (await db())('node_sources').insert({ node_id: id, source_id: sourceId });
    return id;
  };
  const citations = async (sourceId: string) =>
    (await (
      await db()
    )('source_citations')
      .where({ source_id: sourceId })
      .orderBy('id')
      .select('id', 'entity_uri')) as { id: string }[];

  /** Polls a bulk extraction until `count` of its sources completed. */
  const followed = (taskId: string, count: number) =>
    until(
      async () => {
        const polled = await call('GET', `/sources/extraction/${taskId}`);
        expect(polled.status, polled.text).toBe(200);
        const progress = polled.body as BulkExtractionProgressBody;
        return progress.completed === count ? progress : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 50, what: `${count} completed sources of bulk extraction ${taskId}` },
    );

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    first = await upload('curie.txt', curie);
    second = await upload('becquerel.txt', becquerel);
    await committed(first);
    await committed(second);
  }, 90_000);
  afterAll(() => server.stop());

  it('re-extracts a committed source with force, replacing exactly what that source contributed', async () => {
    const refused = await call('POST', `/sources/${first}/extraction`, {});
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toContain('force');

    const stale = await plant(first, 'Early');
    const kept = await plant(second, 'Legacy');
    const secondCitations = await citations(second);
    const firstCitations = await citations(first);
    const before = (await call('GET', `/sources/${first}`)).body as SourceResponseBody;

    const started = await call('POST', `/sources/${first}/extraction`, { force: true });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ source_id: first, status: 'queued' });
    expect((started.body as { job_id: string }).job_id).not.toBe(before.extraction_job_id);
    await committed(first);

    const nodes = await (await db())('graph_nodes').whereIn('id', [stale, kept]).pluck('id');
    expect(nodes).toEqual([kept]);
    expect(await citations(second)).toEqual(secondCitations);
    expect(await citations(first)).toEqual(firstCitations);
    const marie = await (await db())('graph_nodes').whereRaw('lower(label) = ?', ['marie curie']).pluck('id');
    expect(marie).toHaveLength(1);
    const citedBy = await (await db())('node_sources').where({ node_id: marie[0] }).pluck('source_id');
    expect(new Set(citedBy)).toEqual(new Set([first, second]));
  });

  it('re-extracts many sources as one queued task whose progress can be followed', async () => {
    const queued = await call('POST', '/sources/extraction', { source_ids: [first, second] });
    expect(queued.status, queued.text).toBe(202);
    const { task_id: taskId, total } = queued.body as { task_id: string; total: number };
    expect(total).toBe(2);
    expect(await followed(taskId, 2)).toMatchObject({
      task_id: taskId,
      task_status: 'completed',
      total: 2,
      completed: 2,
      failed: 0,
      not_started: 0,
      progress_percent: 100,
      skipped: [],
    });
    await committed(first);
    await committed(second);

    const everything = await call('POST', '/sources/extraction', { all: true, analysis_depth: 'quick' });
    expect(everything.status, everything.text).toBe(202);
    expect(everything.body).toMatchObject({ status: 'queued', total: 2 });
    expect(await followed((everything.body as { task_id: string }).task_id, 2)).toMatchObject({
      completed: 2,
      progress_percent: 100,
    });
    const depths = await (await db())('sources').whereIn('id', [first, second]).pluck('analysis_depth');
    expect(depths).toEqual(['quick', 'quick']);
  });

  it('refuses a bad bulk request with a clear 4xx and queues nothing', async () => {
    const jobs = async () =>
      Number(((await (await db())('extraction_jobs').count({ n: '*' }).first()) as { n: number }).n);
    const parked = await upload('parked.txt', `${curie} Parked.`, {});
    await waitForSource(server, cookie, parked, ['awaiting_confirmation']);
    await committed(first);
    await committed(second);
    const before = await jobs();

    expect((await call('POST', '/sources/extraction', {})).status).toBe(422);
    expect((await call('POST', '/sources/extraction', { source_ids: [first], all: true })).status).toBe(422);
    expect((await call('POST', '/sources/extraction', { source_ids: [] })).status).toBe(422);
    const missing = await call('POST', '/sources/extraction', { source_ids: [first, 'src_missing'] });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'NOT_FOUND', details: { missing: ['src_missing'] } });
    const wrongState = await call('POST', '/sources/extraction', { source_ids: [first, parked] });
    expect(wrongState.status).toBe(400);
    expect(wrongState.body).toMatchObject({
      details: { sources: [{ source_id: parked, status: 'awaiting_confirmation' }] },
    });
    expect((await call('GET', '/sources/extraction/task_missing')).status).toBe(404);
    expect(await jobs()).toBe(before);
  });
});
