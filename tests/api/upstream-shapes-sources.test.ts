import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

/** A source's citations and single tags in the shapes scripts written for the older system read. */
describe('source citations and tags in the shapes older clients read', () => {
  let server: TestServer;
  let cookie: string;
  let sourceId: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const text =
      'Ada Lovelace worked with Charles Babbage in London. Charles Babbage designed the Analytical Engine. ' +
      'Ada Lovelace wrote the first program for the Analytical Engine.';
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'engine.txt', content: text }], {
      auto_confirm: 'true',
    });
    expect(accepted.status, accepted.text).toBe(202);
    sourceId = (accepted.body as { id: string }).id;
    expect((await waitForSource(server, cookie, sourceId, ['committed', 'error'], 120_000)).status).toBe('committed');
  }, 180_000);
  afterAll(() => server?.stop());

  it('GET /sources/{id}/citations pages the citations with typed fields', async () => {
    const first = await call('GET', `/sources/${sourceId}/citations?page_size=1`);
    expect(first.status, first.text).toBe(200);
    const body = first.body as { citations: Record<string, unknown>[]; total: number; page: number; page_size: number };
    expect(body).toMatchObject({ page: 1, page_size: 1 });
    expect(body.total).toBeGreaterThan(0);
    expect(body.citations).toHaveLength(1);
    const [citation] = body.citations;
    expect(Object.keys(citation).sort()).toEqual(
      [
        'chunk_id',
        'confidence',
        'context_snippet',
        'created_at',
        'entity_label',
        'entity_type',
        'entity_uri',
        'extraction_method',
        'id',
        'source_id',
      ].sort(),
    );
    expect(citation).toMatchObject({ source_id: sourceId, confidence: expect.any(Number) });
    for (const key of ['id', 'entity_uri', 'entity_label', 'entity_type', 'extraction_method', 'created_at'])
      expect(typeof citation[key], key).toBe('string');
    const all = (await call('GET', `/sources/${sourceId}/citations?page_size=100`)).body as typeof body;
    expect(all.citations).toHaveLength(Math.min(all.total, 100));
    expect(all.citations[0].id).toBe(citation.id);
    if (all.total > 1) {
      const second = (await call('GET', `/sources/${sourceId}/citations?page=2&page_size=1`)).body as typeof body;
      expect(second.citations[0].id).toBe(all.citations[1].id);
    }
  });

  it('GET /sources/{id}/citations is 404 for an unknown source and 422 for a bad page', async () => {
    expect((await call('GET', '/sources/src_missing/citations')).status).toBe(404);
    expect((await call('GET', `/sources/${sourceId}/citations?page=0`)).status).toBe(422);
  });

  it('GET /sources/tags/{tag_id} answers one tag, 404 for an unknown one', async () => {
    const created = await call('POST', '/sources/tags', { name: 'engines', color: '#336699' });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body as { id: string };
    expect((await call('POST', `/sources/${sourceId}/tags/${id}`)).status).toBe(204);
    const tag = await call('GET', `/sources/tags/${id}`);
    expect(tag.status, tag.text).toBe(200);
    expect(tag.body).toMatchObject({ id, name: 'engines', color: '#336699', source_count: 1 });
    expect((await call('GET', '/sources/tags/tag_missing')).status).toBe(404);
  });

  it('GET /sources/{id}/extraction/tasks carries tasks, total, page and page_size next to the data page', async () => {
    const result = await call('GET', `/sources/${sourceId}/extraction/tasks?page_size=1`);
    expect(result.status, result.text).toBe(200);
    const body = result.body as {
      data: unknown[];
      pagination: { total: number };
      tasks: { status: unknown }[];
      total: unknown;
      page: unknown;
      page_size: unknown;
    };
    expect(body).toMatchObject({ page: 1, page_size: 1, total: body.pagination.total });
    expect(body.total).toBeGreaterThan(0);
    expect(body.tasks).toEqual(body.data);
    expect(body.tasks).toHaveLength(1);
    expect(typeof body.tasks[0].status).toBe('string');
  });
});
