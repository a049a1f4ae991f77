import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { captureScreen, captureWide, openBrowser, signInAt, testTimeout, type Session } from './support/browser.ts';

const password = 'correct horse battery';
const note =
  'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway. Miriam Holloway was born in Plymouth.';

/**
 * Where the built-in extractor built the graph, the source page and the graph screen offer agent extraction
 * over MCP with a setup that works as copied; dismissed once, the offer stays away.
 */
describe('web interface: the agent extraction offer', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;
  let cookie: string;
  let sourceId: string;
  const offer = () => page.getByRole('region', { name: 'A richer graph with an agent' });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server, 'operator', password);
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'lighthouse.txt', content: note }], {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    expect(accepted.status, accepted.text).toBe(202);
    sourceId = (accepted.body as SourceResponseBody).id;
    expect((await waitForSource(server, cookie, sourceId, ['committed', 'error'], 90_000)).status).toBe('committed');
    session = await openBrowser(server.url);
    page = session.page;
    await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await signInAt(page, `/sources/${sourceId}`, password);
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('gives a setup whose endpoint answers MCP, on the source page and the graph, until dismissed', async () => {
    await offer().waitFor();
    await expect(offer().innerText()).resolves.toContain(
      'The builtin extractor finds names by patterns. For a richer graph, let an agent extract over MCP:',
    );

    await offer().getByRole('button', { name: 'Copy the MCP endpoint' }).click();
    const endpoint = await page.evaluate(() => navigator.clipboard.readText());
    expect(endpoint).toBe(`${server.url}/api/v1/mcp`);
    // The copied address is this server's MCP endpoint: an initialize there opens a session.
    const opened = await fetch(endpoint, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      }),
    });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('mcp-session-id')).toBeTruthy();
    await opened.body?.cancel();

    await offer().getByRole('button', { name: 'Copy the MCP client configuration' }).click();
    const config = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(config.mcpServers.rhizome).toEqual({
      command: 'rhizome',
      args: ['mcp', '--url', server.url, '--api-key', 'cc_live_…', '--mode', 'write'],
    });
    expect(
      await offer()
        .getByRole('link', { name: /model server/ })
        .getAttribute('href'),
    ).toBe('/settings?tab=providers');
    // On a phone the offer is below the details: the captures show it.
    const showOffer = () => offer().scrollIntoViewIfNeeded();
    await captureScreen(page, 'agent-offer-source', showOffer);
    await captureWide(page, 'agent-offer-source');

    await page.goto('/graph');
    await offer().waitFor();
    await captureScreen(page, 'agent-offer-graph', showOffer);
    await captureWide(page, 'agent-offer-graph');

    await offer().getByRole('button', { name: 'Dismiss the agent extraction offer' }).click();
    await offer().waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('graph-search').waitFor();
    await page.goto(`/sources/${sourceId}`);
    await page.getByRole('tab', { name: 'Overview' }).waitFor();
    await page.locator('th', { hasText: /^Extractor$/ }).waitFor();
    expect(await offer().count()).toBe(0);
  });
});
