import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { GraphEdge as Edge } from '@rhizome/core/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageOf, validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const lighthouse = [
  'Grace Darling lived at the Longstone Lighthouse with William Darling.',
  'In 1838 Grace Darling rowed to the Forfarshire wreck with William Darling.',
].join(' ');

interface Citation {
  id: string;
  source: { id: string; title: string };
  chunk: { id: string; content: string } | null;
  context_snippet: string | null;
  extraction_method: string;
}

/** A relationship's evidence and the relationship types in use, over a source the builtin pipeline committed. */
describe('GET /edges/{edge_id}/citations and GET /edges/labels', () => {
  let server: TestServer;
  let cookie: string;
  let sourceId: string;
  let edges: Edge[];
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'darling.txt', content: lighthouse }], {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    expect(accepted.status, accepted.text).toBe(202);
    sourceId = (accepted.body as SourceResponseBody).id;
    const source = await waitForSource(server, cookie, sourceId, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    edges = ((await call('GET', '/edges?page_size=100')).body as PageOf<Edge>).data;
    expect(edges.length).toBeGreaterThan(0);
  });

  afterAll(() => server.stop());

  it("answers an extracted edge's citations: the sentence, its passage and its source", async () => {
    const result = await call('GET', `/edges/${edges[0].id}/citations`);
    expect(result.status, result.text).toBe(200);
    const page = result.body as PageOf<Citation>;
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.pagination).toMatchObject({ page: 1, total: page.data.length, has_next: false });
    const [first] = page.data;
    expect(first).toMatchObject({ source: { id: sourceId, title: 'darling.txt' }, extraction_method: 'builtin' });
    expect(first.context_snippet).toBeTruthy();
    expect(lighthouse).toContain(first.context_snippet!.split(' … ')[0]);
    expect(first.chunk?.content).toContain(first.context_snippet!.split(' … ')[0]);
  });

  it('answers an edge made by hand with no citations, and a missing edge with a 404', async () => {
    const [from, to] = [edges[0].source_node_id, edges[0].target_node_id];
    const made = await call('POST', '/edges', {
      template_id: 'system_template_link',
      source_node_id: to,
      target_node_id: from,
      label: 'admired',
    });
    expect(made.status, made.text).toBe(201);
    const uncited = await call('GET', `/edges/${(made.body as Edge).id}/citations`);
    expect(uncited.status).toBe(200);
    expect((uncited.body as PageOf<Citation>).data).toEqual([]);

    const missing = await call('GET', '/edges/edge_000000000000000000000000/citations');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('pages citations at most 100 at a time and refuses a bad page size', async () => {
    const capped = await call('GET', `/edges/${edges[0].id}/citations?page_size=500`);
    expect((capped.body as PageOf<Citation>).pagination.page_size).toBe(100);
    const bad = await call('GET', `/edges/${edges[0].id}/citations?page_size=0`);
    expect(bad.status).toBe(422);
    expect(validationIssuesOf(bad)[0].loc).toEqual(['query', 'page_size']);
  });

  it('lists every relationship type in use with its count, most used first', async () => {
    const result = await call('GET', '/edges/labels');
    expect(result.status, result.text).toBe(200);
    const counts = new Map<string, number>();
    for (const edge of ((await call('GET', '/edges?page_size=1000')).body as PageOf<Edge>).data)
      counts.set(edge.label, (counts.get(edge.label) ?? 0) + 1);
    const expected = [...counts]
      .map(([label, count]) => ({ label, count }))
      .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : 1));
    expect((result.body as { data: unknown[] }).data).toEqual(expected);
    expect(expected.some((entry) => entry.label === 'admired')).toBe(true);
  });

  it('documents both endpoints in the OpenAPI document', async () => {
    const paths = ((await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> })
      .paths;
    expect(Object.keys(paths['/edges/labels'])).toEqual(['get']);
    expect(Object.keys(paths['/edges/{edge_id}/citations'])).toEqual(['get']);
  });
});
