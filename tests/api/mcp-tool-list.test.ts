import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { mcpModeHeader } from '@rhizome/contracts/api/mcp';
import { callTool, connectHttp, toolNames } from '../support/mcp-client.ts';
import { until } from '../support/wait.ts';

const bin = path.resolve(import.meta.dirname, '../../packages/cli/bin/rhizome.mjs');

/** `rhizome mcp --url … --api-key …` as an agent starts it: the SDK's stdio client over the relay. */
async function connectRelay(server: TestServer, key: string, options: string[] = []): Promise<Client> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    RHIZOME_DATA_DIR: server.dataDir,
    RHIZOME_CONFIG_DIR: path.join(server.dataDir, 'config'),
  };
  const client = new Client({ name: 'rhizome-tests', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--url', server.url, '--api-key', key, ...options],
      env,
      stderr: 'pipe',
    }),
  );
  return client;
}

/** Counts the `notifications/tools/list_changed` a client received. */
function countListChanges(client: Client): { count: number } {
  const seen = { count: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    seen.count += 1;
  });
  return seen;
}

describe('MCP tool list changes', () => {
  let server: TestServer;
  let cookie: string;
  let key: string;
  const setMode = async (mode: 'read' | 'write') => {
    const patched = await server.call('PATCH', '/settings', { cookie, body: { mcp: { mode } } });
    expect(patched.status, patched.text).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'agent' } })).body as { key: string }).key;
  }, 60_000);
  afterAll(async () => {
    await server.stop();
  });

  for (const [transport, connect] of [
    ['Streamable HTTP', () => connectHttp(server, key)],
    ['stdio (relaying to the server)', () => connectRelay(server, key)],
  ] as const) {
    it(`announces over ${transport} that the tools changed when mcp.mode switches, and only then`, async () => {
      await setMode('write');
      const client = await connect();
      try {
        const changes = countListChanges(client);
        expect(await toolNames(client)).toHaveLength(43);

        await setMode('read');
        await until(() => changes.count === 1, { what: 'the first list_changed' });
        expect(await toolNames(client)).toHaveLength(30);

        // A change elsewhere in the settings leaves the tools as they are: nothing is announced.
        const other = await server.call('PATCH', '/settings', { cookie, body: { mcp: { abandon_after_hours: 48 } } });
        expect(other.status, other.text).toBe(200);
        await setMode('write');
        await until(() => changes.count === 2, { what: 'the second list_changed' });
        expect(await toolNames(client)).toHaveLength(43);
        expect(changes.count).toBe(2);
      } finally {
        await client.close();
      }
    }, 60_000);
  }

  it('announces a switch made before the session opened its event stream, once the stream opens', async () => {
    await setMode('write');
    const headers = {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const post = (body: unknown, session?: string) =>
      fetch(`${server.base}/mcp`, {
        method: 'POST',
        headers: {
          ...headers,
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
        },
        body: JSON.stringify(body),
      });
    const opened = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow agent', version: '1' } },
    });
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

    // The switch happens while the session has no event stream yet: the transport cannot deliver it then.
    await setMode('read');
    const stream = new AbortController();
    const events = await fetch(`${server.base}/mcp`, {
      headers: {
        ...headers,
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-06-18',
      },
      signal: stream.signal,
    });
    expect(events.status).toBe(200);
    const reader = events.body!.getReader();
    let received = '';
    try {
      await until(
        async () => {
          const { value } = await reader.read();
          received += new TextDecoder().decode(value);
          return received.includes('notifications/tools/list_changed') ? true : undefined;
        },
        { what: 'the missed list_changed on the event stream' },
      );
    } finally {
      stream.abort();
    }
  }, 60_000);

  it('opens a session in the mode it asks for, whatever mcp.mode says, and refuses a mode that is none', async () => {
    await setMode('read');
    for (const connect of [
      () => connectHttp(server, key, { [mcpModeHeader]: 'write' }),
      () => connectRelay(server, key, ['--mode', 'write']),
    ]) {
      const client = await connect();
      try {
        expect(await toolNames(client)).toContain('create_node');
      } finally {
        await client.close();
      }
    }
    await setMode('write');
    const readOnly = await connectHttp(server, key, { [mcpModeHeader]: 'read' });
    try {
      expect(await toolNames(readOnly)).not.toContain('create_node');
      const refused = await callTool(readOnly, 'create_node', { template_id: 'system_template_item', label: 'X' });
      expect(refused).toMatchObject({ isError: true, body: { status: 403 } });
    } finally {
      await readOnly.close();
    }
    const initialize = await fetch(`${server.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        [mcpModeHeader]: 'admin',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      }),
    });
    expect(initialize.status).toBe(422);
    expect(((await initialize.json()) as { message: string }).message).toContain(mcpModeHeader);
  }, 60_000);

  it('requires only the arguments without a default: graph_search needs a query, its limit is optional', async () => {
    const client = await connectHttp(server, key);
    try {
      const { tools } = await client.listTools();
      const schemaOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema;
      expect(schemaOf('graph_search').required).toEqual(['query']);
      expect(schemaOf('graph_search').properties).toMatchObject({ limit: { default: 10 } });
      expect(schemaOf('search_nodes').required).toEqual(['query']);
      for (const tool of tools) {
        const properties = (tool.inputSchema.properties ?? {}) as Record<string, { default?: unknown }>;
        const required = tool.inputSchema.required ?? [];
        expect(
          required.filter((name) => properties[name]?.default !== undefined),
          tool.name,
        ).toEqual([]);
      }
    } finally {
      await client.close();
    }
  }, 30_000);
});
