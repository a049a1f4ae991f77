import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { mcpServerExtractionHeader } from '@rhizome/contracts/api/mcp';
import { callTool, connectHttp, toolResult } from '../support/mcp-client.ts';

describe('MCP: documents added, waited for and confirmed with the original arguments', () => {
  let server: TestServer;
  let cookie: string;
  let client: Client;
  let parkedId: string;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'agent' } })).body as { key: string }).key;
    const parked = await uploadSources(server, cookie, '/sources', [
      { name: 'curie.txt', content: 'Marie Curie was born in Warsaw in 1867. She married Pierre Curie in 1895.' },
    ]);
    parkedId = (parked.body as SourceResponseBody).id;
    await waitForSource(server, cookie, parkedId, ['awaiting_confirmation']);
    client = await connectHttp(server, key);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('lists the parked document with what was detected and, in read mode, how to confirm it', async () => {
    const status = await toolResult<{ documents: Record<string, unknown>[] }>(client, 'get_document_status');
    expect(status.documents).toEqual([
      expect.objectContaining({
        id: parkedId,
        file_id: parkedId,
        status: 'awaiting_confirmation',
        confirmation_required: true,
        detected_domain: expect.any(String),
        confirm_hint: expect.stringContaining('confirm_extraction'),
      }),
    ]);
  });

  it('confirms it in write mode with confirm_extraction, and says so when it is no longer parked', async () => {
    expect((await server.call('PATCH', '/settings', { cookie, body: { mcp: { mode: 'write' } } })).status).toBe(200);
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === 'confirm_source_domain')?.description).toMatch(
      /^Deprecated: use confirm_extraction\./,
    );
    expect(
      await toolResult(client, 'confirm_extraction', {
        file_id: parkedId,
        domain: 'generic',
        filtering_mode: 'lenient',
      }),
    ).toMatchObject({ success: true, source_id: parkedId, domain: 'generic', status: 'indexed' });
    const source = (await server.call('GET', `/sources/${parkedId}`, { cookie })).body as SourceResponseBody;
    expect(source.filtering_mode).toBe('lenient');
    expect(await toolResult(client, 'confirm_extraction', { file_id: parkedId })).toMatchObject({
      success: false,
      error_code: 'NOT_AWAITING_CONFIRMATION',
    });
    expect(await callTool(client, 'confirm_extraction', { file_id: 'src_missing' })).toMatchObject({
      isError: true,
      body: { status: 404 },
    });
  });

  it('adds a document for the agent to extract by default, waiting until it is indexed', async () => {
    const added = await toolResult<{ success: boolean; file_id: string; status: string; nodes_created: number }>(
      client,
      'add_document',
      { content: 'Ada Lovelace wrote the first algorithm for the Analytical Engine.', title: 'Lovelace' },
    );
    expect(added).toMatchObject({ success: true, status: 'indexed', nodes_created: 0 });
    expect(
      await toolResult(client, 'wait_for_document', { file_id: added.file_id, until: 'indexed', timeout: 5 }),
    ).toMatchObject({ success: true, file_id: added.file_id, status: 'indexed', timed_out: false });
    const queued = await toolResult<{ file_id: string; status: string }>(client, 'add_document', {
      content: 'Grace Hopper wrote the first compiler.',
      title: 'Hopper',
      wait: false,
    });
    expect(queued.file_id).toMatch(/^src_/);
    expect(await callTool(client, 'add_document', { content: 'x', file_path: 'a.txt' })).toMatchObject({
      isError: true,
      body: { status: 400 },
    });
  });

  it('has the server extract what a --server-extraction session adds, parked for confirmation by default', async () => {
    const session = await connectHttp(server, key, { [mcpServerExtractionHeader]: 'true' });
    try {
      const added = await toolResult<{ file_id: string; status: string }>(session, 'add_document', {
        content: 'Alan Turing was born in London in 1912.',
        title: 'Turing',
      });
      expect(added.status).toBe('awaiting_confirmation');
      const confirmed = await toolResult<{ file_id: string; status: string; nodes_created: number }>(
        session,
        'add_document',
        { content: 'Tim Berners-Lee invented the World Wide Web at CERN.', title: 'Web', auto_confirm: true },
      );
      expect(confirmed).toMatchObject({ status: 'committed' });
      expect(confirmed.nodes_created).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  }, 60_000);
});
