import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

/** Operator endpoints of the older system that Rhizome serves elsewhere, and the new paths in the OpenAPI document. */
describe('operator endpoints served elsewhere', () => {
  let server: TestServer;
  let cookie: string;
  const moved: [string, string, string][] = [
    ['POST', '/sources/cleanup/orphan_tasks', 'POST /queue/reconcile'],
    ['POST', '/settings/seed/templates', 'POST /templates/batch'],
  ];

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server?.stop());

  it('answers 404 in the error envelope, naming the Rhizome endpoint that does the job', async () => {
    for (const [method, path, instead] of moved) {
      const body = method === 'GET' ? undefined : { confirmation: 'CONFIRM' };
      const result = await server.call(method, path, { cookie, body });
      expect(result.status, `${method} ${path}`).toBe(404);
      const answer = result.body as { error: string; message: string };
      expect(answer.error, path).toBe('NOT_FOUND');
      expect(answer.message, path).toContain(instead);
    }
  });

  it('documents the moved endpoints and the new read endpoints in the OpenAPI document', async () => {
    const { paths } = (await server.call('GET', '/openapi.json', { cookie })).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const [method, path] of moved)
      expect(Object.keys(paths[path]?.[method.toLowerCase()]?.responses ?? {}), path).toContain('404');
    expect(Object.keys(paths['/sources/{source_id}/citations'])).toContain('get');
    expect(Object.keys(paths['/sources/tags/{tag_id}'])).toContain('get');
    expect(Object.keys(paths['/backup/{filename}/download'])).toEqual(['get']);
  });
});
