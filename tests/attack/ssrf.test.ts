import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automationClient, toolStep } from '../support/automation.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Server-side request forgery through every way a user makes Rhizome fetch a URL: URL import, the
 * http.request tool, the local model server check and the model providers' base URLs. Cloud-metadata
 * addresses are refused in every spelling and even when private addresses are allowed; private and
 * loopback addresses are refused by default; a redirect never carries a request to a refused address.
 * A bait server on 127.0.0.1 counts what reaches it.
 */

const metadataUrls = [
  'http://169.254.169.254/latest/meta-data/',
  'http://0xa9fea9fe/latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://0251.0376.0251.0376/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://100.100.100.200/latest/meta-data/',
  'http://[fe80::1]/',
];

interface Bait {
  url: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function startBait(): Promise<Bait> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? '/');
    const url = new URL(request.url ?? '/', 'http://bait');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) return response.writeHead(302, { location: to }).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>bait</title><p>bait page</p></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('server-side request forgery', () => {
  let server: TestServer;
  let cookie: string;
  let bait: Bait;
  let client: ReturnType<typeof automationClient>;
  const failures: string[] = [];
  let trials = 0;

  beforeAll(async () => {
    bait = await startBait();
    server = await startTestServer();
    cookie = await setUpAccount(server);
    client = automationClient(server, cookie);
  });

  afterAll(async () => {
    console.log(`attack ssrf: ${trials} trials, ${failures.length} failures`);
    await server?.stop();
    await bait?.close();
  });

  const setPrivate = async (allowed: boolean) =>
    client.ok(await client.call('PATCH', '/settings', { web: { allow_private_addresses: allowed } }));

  async function importRefused(url: string): Promise<void> {
    trials += 1;
    const result = await server.call('POST', '/sources/url', { cookie, body: { url } });
    if (result.status !== 400) failures.push(`URL import of ${url} → ${result.status} ${result.text.slice(0, 120)}`);
  }

  async function toolRefused(url: string): Promise<void> {
    trials += 1;
    const { id } = await client.createWorkflow({
      name: `fetch ${trials}`,
      steps: [toolStep('only', 'http.request', { url })],
    });
    const step = (await client.runToEnd(id)).steps[0];
    if (!/^refused/.test(step.error ?? '')) failures.push(`http.request of ${url} → ${step.status} ${step.error}`);
  }

  async function verifyRefused(url: string): Promise<void> {
    trials += 1;
    const result = await server.call('POST', '/settings/localllm/verify', { cookie, body: { url, timeout: 2 } });
    if (result.status !== 200 || (result.body as { success?: boolean }).success !== false)
      failures.push(`verify of ${url} → ${result.status} ${result.text.slice(0, 120)}`);
  }

  async function baseUrlRefused(url: string): Promise<void> {
    trials += 1;
    const result = await server.call('PATCH', '/settings', { cookie, body: { llm: { openai_base_url: url } } });
    if (result.status !== 422) failures.push(`openai_base_url ${url} → ${result.status} ${result.text.slice(0, 120)}`);
  }

  it('refuses loopback and private addresses in every spelling by default, before connecting', async () => {
    const privateUrls = [
      `${bait.url}/`,
      `http://localhost:${bait.port}/`,
      `http://[::1]:${bait.port}/`,
      `http://127.1:${bait.port}/`,
      `http://2130706433:${bait.port}/`,
      `http://0x7f000001:${bait.port}/`,
      `http://0.0.0.0:${bait.port}/`,
      `http://[::ffff:127.0.0.1]:${bait.port}/`,
      'http://10.0.0.1/',
      'http://192.168.0.1/',
      'http://172.16.0.1/',
    ];
    for (const url of [...privateUrls, ...metadataUrls]) {
      await importRefused(url);
      await toolRefused(url);
    }
    expect(failures).toEqual([]);
    expect(bait.hits).toEqual([]);
  }, 180_000);

  it('refuses metadata addresses even when private addresses are allowed, also behind a redirect', async () => {
    await setPrivate(true);
    try {
      for (const url of metadataUrls) {
        await importRefused(url);
        await toolRefused(url);
        await verifyRefused(url);
        await baseUrlRefused(url);
        await importRefused(`${bait.url}/redirect?to=${encodeURIComponent(url)}`);
        await verifyRefused(`${bait.url}/redirect?to=${encodeURIComponent(url)}`);
      }
      expect(failures).toEqual([]);
      // Only the redirecting page itself was reached; no hop went on from it.
      expect(bait.hits.every((hit) => hit.startsWith('/redirect') || hit.startsWith('/api/'))).toBe(true);
    } finally {
      await setPrivate(false);
    }
  }, 240_000);
});
