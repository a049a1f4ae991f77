import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, shippedMigrations } from '@rhizome/core/storage';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { runRhizome } from '../support/cli.ts';
import { callTool, connectHttp, toolNames, toolResult } from '../support/mcp-client.ts';

const bin = path.resolve(import.meta.dirname, '../../packages/cli/bin/rhizome.mjs');
const text = 'Marie Curie was born in Warsaw in 1867. Marie Curie married Pierre Curie in Paris in 1895.';

function stdioClient(dataDir: string, args: string[] = []): { client: Client; transport: StdioClientTransport } {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    RHIZOME_DATA_DIR: dataDir,
    RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
  };
  delete env.RHIZOME_QUEUE_URL;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  return { client: new Client({ name: 'rhizome-tests', version: '1.0.0' }), transport };
}

describe('rhizome mcp over stdio', () => {
  let server: TestServer;
  let key: string;
  let dataDir: string;
  let sourceId: string;

  beforeAll(async () => {
    server = await startTestServer();
    dataDir = server.dataDir;
    const cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'agent' } })).body as { key: string }).key;
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'curie.txt', content: text }], {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    sourceId = (accepted.body as SourceResponseBody).id;
    expect((await waitForSource(server, cookie, sourceId, ['committed', 'error'], 60_000)).status).toBe('committed');
  }, 90_000);
  let stopped = false;
  afterAll(async () => {
    if (!stopped) await server.stop();
  });

  it('relays to a running server with --url and --api-key', async () => {
    const { client, transport } = stdioClient(dataDir, ['--url', server.url, '--api-key', key]);
    await client.connect(transport);
    try {
      const http = await connectHttp(server, key);
      expect(await toolNames(client)).toEqual(await toolNames(http));
      await http.close();
      const answer = await toolResult<{ passages: { source_id: string }[] }>(client, 'graph_search', {
        query: 'Who did Marie Curie marry?',
      });
      expect(answer.passages[0].source_id).toBe(sourceId);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses --url without an API key, or with a refused one, with its message and exit code', async () => {
    const noKey = await runRhizome(['mcp', '--url', server.url], dataDir, { RHIZOME_API_KEY: '' });
    expect(noKey.code).toBe(4);
    expect(noKey.output).toContain('rhizome: --url needs an API key: pass --api-key, set RHIZOME_API_KEY');
    expect(noKey.output).not.toMatch(/\bat .+\.ts:\d+/);
    const refused = await runRhizome(['mcp', '--url', server.url, '--api-key', 'cc_live_not_a_key'], dataDir);
    expect(refused.code).toBe(4);
    expect(refused.output).toMatch(/^rhizome: .*rhizome login/m);
    const usage = await runRhizome(['mcp', '--url', server.url, '--api-key', key, '--database', 'other'], dataDir);
    expect(usage).toMatchObject({
      code: 2,
      output: expect.stringContaining('--database applies to the data directory'),
    });
  }, 60_000);

  it('is listed in the command line help with its options', async () => {
    expect((await runRhizome(['--help'], dataDir)).output).toMatch(/^\s+mcp\b.*Model Context Protocol/m);
    const help = await runRhizome(['mcp', '--help'], dataDir);
    expect(help.code).toBe(0);
    expect(help.output).toContain('--database <name>');
  }, 30_000);

  it('answers the agent with an error, not silence, once the server it relays to is gone', async () => {
    const { client, transport } = stdioClient(dataDir, ['--url', server.url, '--api-key', key]);
    await client.connect(transport);
    try {
      await server.stop();
      stopped = true;
      await expect(
        client.callTool({ name: 'list_sources', arguments: {} }, undefined, { timeout: 10_000 }),
      ).rejects.toThrow(/did not take the request/);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('serves the data directory itself once the server is stopped', async () => {
    if (!stopped) await server.stop();
    stopped = true;
    const { client, transport } = stdioClient(dataDir);
    await client.connect(transport);
    try {
      expect(await toolNames(client)).toContain('graph_search');
      expect(await toolNames(client)).not.toContain('create_node');
      const sources = await toolResult<{ sources: { source_id: string; status: string }[] }>(
        client,
        'list_sources',
        {},
      );
      expect(sources.sources).toEqual([expect.objectContaining({ source_id: sourceId, status: 'committed' })]);
      expect(await callTool(client, 'create_node', { template_id: 'x', label: 'y' })).toMatchObject({
        isError: true,
        body: { status: 403 },
      });
      const resources = await client.listResources();
      expect(resources.resources.map((resource) => resource.uri)).toEqual([`rhizome://sources/${sourceId}`]);
      const read = await client.readResource({ uri: `rhizome://sources/${sourceId}` });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
        source: { source_id: sourceId },
      });
      const prompt = await client.getPrompt({ name: 'extract_source', arguments: { source_id: sourceId } });
      expect((prompt.messages[0].content as { text: string }).text).toContain('get_extraction_tasks');
    } finally {
      await client.close();
    }
    const writable = stdioClient(dataDir, ['--mode', 'write']);
    await writable.client.connect(writable.transport);
    try {
      expect(await toolNames(writable.client)).toContain('create_node');
    } finally {
      await writable.client.close();
    }
  }, 90_000);
});

describe('rhizome mcp on a data directory with a pending migration', () => {
  it('offers only upgrade_status and apply_upgrade, refuses every other tool clearly, and offers all after apply_upgrade', async () => {
    const dataDir = tempDataDir();
    await (await startTestServer({ dataDir })).stop();
    // The database as the previous release left it: the newest migration undone and unrecorded.
    const newest = shippedMigrations.at(-1)!;
    const db = openSqlite(path.join(dataDir, 'databases', 'default', 'app.db'));
    await newest.down(db);
    await db('knex_migrations').where({ name: newest.name }).del();
    await db.destroy();

    const { client, transport } = stdioClient(dataDir);
    await client.connect(transport);
    try {
      expect(await toolNames(client)).toEqual(['apply_upgrade', 'upgrade_status']);
      expect(await toolResult(client, 'upgrade_status')).toMatchObject({
        database: 'default',
        ready: false,
        pending: [newest.name],
      });
      const refused = await callTool(client, 'list_sources', {});
      expect(refused).toMatchObject({
        isError: true,
        body: { status: 409, error: 'UPGRADE_REQUIRED', details: { pending: [newest.name] } },
      });
      expect((refused.body as { message: string }).message).toContain('apply_upgrade');

      const listChanged = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      expect(await toolResult(client, 'apply_upgrade')).toMatchObject({ database: 'default', applied: [newest.name] });
      await listChanged;
      const offered = await toolNames(client);
      expect(offered).toContain('graph_search');
      expect(offered).not.toContain('apply_upgrade');
      expect(await toolResult(client, 'list_sources', {})).toMatchObject({ sources: [] });
      expect(await callTool(client, 'upgrade_status')).toMatchObject({ isError: true, body: { status: 409 } });
    } finally {
      await client.close();
    }
  }, 90_000);
});
