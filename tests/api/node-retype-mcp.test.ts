import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, toolResult } from '../support/mcp-client.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

describe('a retyped node through MCP', () => {
  let server: TestServer;
  let cookie: string;
  let client: Client;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const node = async (label: string) => {
    const made = await call('POST', '/nodes', { template_id: 'system_template_person', label });
    expect(made.status, made.text).toBe(201);
    return (made.body as { id: string }).id;
  };
  const edge = async (from: string, to: string) => {
    const made = await call('POST', '/edges', {
      template_id: 'system_template_link',
      source_node_id: from,
      target_node_id: to,
      label: 'knows',
    });
    expect(made.status, made.text).toBe(201);
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const key = ((await call('POST', '/auth/keys', { name: 'agent' })).body as { key: string }).key;
    client = await connectHttp(server, key);
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('answers shortest_path through the node by the id it had before its type changed', async () => {
    const [ada, middle, babbage] = [await node('Ada'), await node('Analytical Society'), await node('Babbage')];
    await edge(ada, middle);
    await edge(middle, babbage);
    const retyped = await call('PATCH', `/nodes/${middle}`, { template_id: 'system_template_organization' });
    expect(retyped.status, retyped.text).toBe(200);
    expect(retyped.body).toMatchObject({ id: middle, template_id: 'system_template_organization' });

    const path = await toolResult<{ found: boolean; hops: number; path: { to: string; to_label: string }[] }>(
      client,
      'shortest_path',
      { from_node_id: ada, to_node_id: middle },
    );
    expect(path).toMatchObject({ found: true, hops: 1, path: [{ to: middle, to_label: 'Analytical Society' }] });
    const through = await toolResult<{ found: boolean; hops: number }>(client, 'shortest_path', {
      from_node_id: ada,
      to_node_id: babbage,
    });
    expect(through).toMatchObject({ found: true, hops: 2 });
  });
});
