import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

interface Node {
  id: string;
  tags: { id: string; name: string; color: string | null }[];
}

/** Entity tags over HTTP: create, list, put on one or many nodes, filter the node list, take off, delete. */
describe('entity tags', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const nodes: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const template = (await call('GET', '/templates?template_type=node')).body as { data: { id: string }[] };
    for (const label of ['Ada', 'Bob', 'Carl']) {
      const created = await call('POST', '/nodes', { template_id: template.data[0].id, label });
      expect(created.status, created.text).toBe(201);
      nodes.push((created.body as Node).id);
    }
  });
  afterAll(() => server.stop());

  it('creates a tag once whatever its case and puts it on nodes, one by one or many at once', async () => {
    const created = await call('POST', '/nodes/tags', { name: 'Reviewed', color: '#228833' });
    expect(created.status, created.text).toBe(201);
    const tag = created.body as { id: string; name: string };
    expect(((await call('POST', '/nodes/tags', { name: 'REVIEWED' })).body as { id: string }).id).toBe(tag.id);

    expect((await call('POST', `/nodes/${nodes[0]}/tags/${tag.id}`)).status).toBe(204);
    const many = await call('POST', `/nodes/tags/${tag.id}/nodes`, { node_ids: [nodes[1], 'node_missing'] });
    expect(many.body).toMatchObject({
      succeeded: 1,
      failed: 1,
      results: [
        { index: 0, id: nodes[1], success: true },
        { index: 1, id: 'node_missing', success: false },
      ],
    });
    const listed = (await call('GET', `/nodes?tag_id=${tag.id}`)).body as { data: Node[] };
    expect(listed.data.map((node) => node.id).sort()).toEqual([nodes[0], nodes[1]].sort());
    expect(listed.data[0].tags).toEqual([{ id: tag.id, name: 'Reviewed', color: '#228833' }]);
    expect(((await call('GET', `/nodes/${nodes[2]}`)).body as Node).tags).toEqual([]);
    expect((await call('GET', '/nodes/tags')).body).toMatchObject([{ id: tag.id, node_count: 2 }]);

    expect((await call('DELETE', `/nodes/${nodes[0]}/tags/${tag.id}`)).status).toBe(204);
    expect((await call('DELETE', `/nodes/${nodes[0]}/tags/${tag.id}`)).status).toBe(404);
    expect(((await call('GET', `/nodes/${nodes[0]}`)).body as Node).tags).toEqual([]);
  });

  it('refuses bad input with 4xx and deletes a tag with its assignments', async () => {
    expect((await call('POST', '/nodes/tags', { name: '' })).status).toBe(422);
    expect((await call('POST', '/nodes/tags', { name: 'x', color: 'red' })).status).toBe(422);
    expect((await call('POST', `/nodes/${nodes[0]}/tags/ntag_missing`)).status).toBe(404);
    expect((await call('POST', '/nodes/tags/ntag_missing/nodes', { node_ids: [nodes[0]] })).status).toBe(404);
    expect((await call('POST', '/nodes/tags/ntag_missing/nodes', { node_ids: [] })).status).toBe(422);
    const other = (await call('POST', '/nodes/tags', { name: 'Other' })).body as { id: string };
    expect((await call('PATCH', `/nodes/tags/${other.id}`, { name: 'reviewed' })).status).toBe(409);
    expect((await call('PATCH', `/nodes/tags/${other.id}`, { name: 'Later' })).body).toMatchObject({ name: 'Later' });
    await call('POST', `/nodes/${nodes[2]}/tags/${other.id}`);
    expect((await call('DELETE', `/nodes/tags/${other.id}`)).status).toBe(204);
    expect(((await call('GET', `/nodes/${nodes[2]}`)).body as Node).tags).toEqual([]);
    expect((await call('DELETE', `/nodes/tags/${other.id}`)).status).toBe(404);
  });
});
