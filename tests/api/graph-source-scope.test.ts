import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { PageOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const curie = 'Marie Curie was born in Warsaw in 1867. Marie Curie married Pierre Curie in Paris in 1895.';
const darwin =
  'Charles Darwin was born in Shrewsbury in 1809. Charles Darwin sailed on HMS Beagle with Robert FitzRoy.';

describe('GET /nodes and GET /edges scoped by source_ids', () => {
  let server: TestServer;
  let cookie: string;
  const list = async <T>(apiPath: string) => ((await server.call('GET', apiPath, { cookie })).body as PageOf<T>).data;
  const extracted = async (name: string, content: string) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    const { id } = accepted.body as SourceResponseBody;
    expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
    return id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('returns the nodes and edges an extracted source contributed, and only those, and counts them in /sources/stats', async () => {
    const curieId = await extracted('curie.txt', curie);
    const darwinId = await extracted('darwin.txt', darwin);
    const { db } = await server.platform.databases.current();
    for (const [sourceId, person] of [
      [curieId, 'Marie Curie'],
      [darwinId, 'Charles Darwin'],
    ]) {
      const owned = (
        (await db('node_sources').where({ source_id: sourceId }).select('node_id')) as { node_id: string }[]
      )
        .map((row) => row.node_id)
        .sort();
      const nodes = await list<{ id: string; label: string }>(`/nodes?source_ids=${sourceId}&page_size=1000`);
      expect(owned.length).toBeGreaterThan(0);
      expect(nodes.map((node) => node.id).sort()).toEqual(owned);
      expect(nodes.map((node) => node.label)).toContain(person);

      const ownedEdges = (
        (await db('edge_sources').where({ source_id: sourceId }).select('edge_id')) as { edge_id: string }[]
      )
        .map((row) => row.edge_id)
        .sort();
      const edges = await list<{ id: string }>(`/edges?source_ids=${sourceId}&page_size=1000`);
      expect(ownedEdges.length).toBeGreaterThan(0);
      expect(edges.map((edge) => edge.id).sort()).toEqual(ownedEdges);
    }

    const stats = (await server.call('GET', '/sources/stats', { cookie })).body as {
      total_entities: number;
      total_relationships: number;
    };
    const distinct = async (table: string, column: string) =>
      Number(((await db(table).countDistinct({ n: column }).first()) as { n: number }).n);
    expect(stats.total_entities).toBe(await distinct('node_sources', 'node_id'));
    expect(stats.total_relationships).toBe(await distinct('edge_sources', 'edge_id'));
    expect(stats.total_entities).toBeGreaterThan(0);
  });
});
