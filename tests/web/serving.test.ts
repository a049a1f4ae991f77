import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountWebInterface, webDistDir } from '@rhizome/cortex-api/web/interface';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The built interface served by cortex-api at `/`, next to an untouched `/api`. */
describe('serving the web interface', () => {
  let server: TestServer;
  const get = (urlPath: string, accept = 'text/html') => fetch(`${server.url}${urlPath}`, { headers: { accept } });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('serves index.html at / and at every route of the interface, revalidated on each load', async () => {
    const indexHtml = fs.readFileSync(path.join(webDistDir, 'index.html'), 'utf8');
    for (const route of ['/', '/sources', '/sources/src_123?chunk=c1', '/chat/chat_9', '/settings/keys']) {
      const response = await get(route);
      expect([route, response.status]).toEqual([route, 200]);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(indexHtml);
    }
  });

  it('caches the content-hashed assets for a year, immutably, and answers 404 for a missing one', async () => {
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(fs.readFileSync(path.join(webDistDir, 'index.html'), 'utf8'))![1];
    const asset = await get(script, '*/*');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await get('/assets/index-missing.js', '*/*');
    expect(missing.status).toBe(404);
  });

  it('leaves /api alone: unknown API paths stay JSON 404s (or 401s) in the error envelope', async () => {
    const unknown = await get('/api/v1/no-such-endpoint');
    expect(unknown.headers.get('content-type')).toMatch(/json/);
    expect([401, 404]).toContain(unknown.status);
    expect(await unknown.json()).toHaveProperty('error');
    const status = await get('/api/v1/auth/status', 'application/json');
    expect(status.status).toBe(200);
  });

  it('says how to build the interface when there is no build', async () => {
    const app = express();
    mountWebInterface(app, '9.9.9', fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-no-web-')));
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/sources`, {
        headers: { accept: 'text/html' },
      });
      expect(response.status).toBe(503);
      expect(await response.text()).toMatch(/not been built yet.*pnpm build:web/s);
    } finally {
      listening.close();
    }
  });
});
