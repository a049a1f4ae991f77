import type { GraphEdge as Edge } from '@rhizome/core/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageOf, validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

const person = 'system_template_person';
const link = 'system_template_link';

describe('GET /edges by relationship type', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const created: Record<string, string[]> = {};

  async function node(label: string): Promise<string> {
    const result = await call('POST', '/nodes', { template_id: person, label });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const [ada, ben, cy] = [await node('Ada'), await node('Ben'), await node('Cy')];
    for (const [from, to, label] of [
      [ada, ben, 'works_for'],
      [ben, cy, 'knows'],
      [cy, ada, 'works_for'],
      [ada, cy, 'Works_For'],
    ]) {
      const result = await call('POST', '/edges', {
        template_id: link,
        source_node_id: from,
        target_node_id: to,
        label,
      });
      expect(result.status, result.text).toBe(201);
      (created[label] ??= []).push((result.body as Edge).id);
    }
  });

  afterAll(() => server.stop());

  const labelsOf = async (query: string) => {
    const result = await call('GET', `/edges?${query}`);
    expect(result.status, result.text).toBe(200);
    const page = result.body as PageOf<Edge>;
    return { ids: page.data.map((edge) => edge.id), total: page.pagination.total };
  };

  it('keeps only the edges whose label is exactly the one asked for, with the total counted the same way', async () => {
    expect(await labelsOf('label=works_for')).toEqual({ ids: created.works_for, total: 2 });
    expect(await labelsOf('label=knows')).toEqual({ ids: created.knows, total: 1 });
    expect(await labelsOf('label=Works_For&minimal=true')).toEqual({ ids: created.Works_For, total: 1 });
    expect(await labelsOf('label=born_in')).toEqual({ ids: [], total: 0 });
    expect((await labelsOf('label=works_for&page_size=1&page=2')).ids).toEqual([created.works_for[1]]);
  });

  it('combines with the other filters', async () => {
    const first = (await call('GET', `/edges/${created.works_for[0]}`)).body as Edge;
    expect(await labelsOf(`label=works_for&source_node_id=${first.source_node_id}`)).toEqual({
      ids: [first.id],
      total: 1,
    });
  });

  it('refuses an empty label with a 422 naming the parameter', async () => {
    const result = await call('GET', '/edges?label=');
    expect(result.status).toBe(422);
    expect(validationIssuesOf(result)[0].loc).toEqual(['query', 'label']);
  });
});
