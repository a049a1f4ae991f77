import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { PageOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const curie = 'Marie Curie was born in Warsaw in 1867. Marie Curie married Pierre Curie in Paris in 1895.';
const darwin =
  'Charles Darwin was born in Shrewsbury in 1809. Charles Darwin sailed on HMS Beagle with Robert FitzRoy.';
const turing = 'Alan Turing was born in London in 1912. Alan Turing worked at Bletchley Park with Joan Clarke.';

/** Every endpoint taking `source_ids`, and the ids of what one of its answers holds. */
const endpoints: Record<string, { path: (ids: string) => string; ids: (body: unknown) => string[] }> = {
  '/search': {
    path: (ids) => `/search?q=born&limit=100&${ids}`,
    ids: (body) =>
      (body as { data: { node: { id: string } | null; chunk: { chunk_id: string } | null }[] }).data.map(
        (result) => result.node?.id ?? result.chunk?.chunk_id ?? '',
      ),
  },
  '/nodes': {
    path: (ids) => `/nodes?page_size=1000&${ids}`,
    ids: (body) => (body as PageOf<{ id: string }>).data.map((node) => node.id),
  },
  '/edges': {
    path: (ids) => `/edges?page_size=1000&${ids}`,
    ids: (body) => (body as PageOf<{ id: string }>).data.map((edge) => edge.id),
  },
  '/graph/canvas': {
    path: (ids) => `/graph/canvas?${ids}`,
    ids: (body) => (body as { nodes: { id: string }[] }).nodes.map((node) => node.id),
  },
};

describe('source_ids: comma-separated and repeated alike on every endpoint that takes it', () => {
  let server: TestServer;
  let cookie: string;
  const ids: string[] = [];
  const answer = async (endpoint: string, query: string) => {
    const { status, body } = await server.call('GET', endpoints[endpoint].path(query), { cookie });
    expect(status).toBe(200);
    return endpoints[endpoint].ids(body).sort();
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    for (const [name, content] of [
      ['curie.txt', curie],
      ['darwin.txt', darwin],
      ['turing.txt', turing],
    ]) {
      const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
        auto_confirm: 'true',
        domain: 'biographical',
      });
      const { id } = accepted.body as SourceResponseBody;
      expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
      ids.push(id);
    }
    // The canvas scopes by the source a node was created from (graph_nodes.source_id), which extraction
    // leaves empty: give each node the first source citing it, so the canvas has something to scope.
    const { db } = await server.platform.databases.current();
    await db.raw(
      'UPDATE graph_nodes SET source_id = (SELECT min(ns.source_id) FROM node_sources ns WHERE ns.node_id = graph_nodes.id)',
    );
  }, 180_000);
  afterAll(() => server.stop());

  it.each(Object.keys(endpoints))('%s', async (endpoint) => {
    const [first, second] = ids;
    const one = await answer(endpoint, `source_ids=${first}`);
    const two = await answer(endpoint, `source_ids=${second}`);
    const everything = await answer(endpoint, '');
    const both = [...new Set([...one, ...two])].sort();
    expect(one.length && two.length).toBeGreaterThan(0);
    expect(everything.length).toBeGreaterThan(both.length);

    expect(await answer(endpoint, `source_ids=${first},${second}`)).toEqual(both);
    expect(await answer(endpoint, `source_ids=${first}&source_ids=${second}`)).toEqual(both);
    expect(await answer(endpoint, `source_ids=${first},${second}&source_ids=${first}`)).toEqual(both);
    expect(await answer(endpoint, `source_ids=${encodeURIComponent(` ${first} , ${second} `)}`)).toEqual(both);
  });
});
