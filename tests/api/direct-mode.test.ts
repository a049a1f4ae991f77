import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthServices, createCortexApi } from '@rhizome/cortex-api';
import { createPlatform, type Platform } from '@rhizome/core/platform';
import { InProcessPubSub } from '@rhizome/queue';
import { call, tempDataDir, type CallOptions, type CallResult } from '../support/server.ts';

// The stack's API server reached without the proxy (docs/api-conventions.md#authentication and the
// AUTH_REQUIRED row of "Errors"): X-Auth-User is trusted only together with the edge secret.

describe('cortex-api in direct mode', () => {
  const dataDir = tempDataDir();
  let platform: Platform;
  let server: http.Server;
  let base: string;
  let edgeToken: string;
  let cookie: string;
  let apiKey: string;
  const account = { username: 'operator', password: 'correct horse battery' };

  const request = (method: string, apiPath: string, options?: CallOptions) => call(base, method, apiPath, options);
  const me = (options: CallOptions) => request('GET', '/auth/me', options);
  const fromProxy = (headers: Record<string, string> = {}) => ({ 'x-auth-edge-token': edgeToken, ...headers });

  function expectAuthRequired(result: CallResult): void {
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: 'AUTH_REQUIRED', message: expect.any(String), details: null });
  }

  beforeAll(async () => {
    platform = await createPlatform({
      service: 'cortex',
      migrationPolicy: 'apply',
      env: {
        ...process.env,
        RHIZOME_DATA_DIR: dataDir,
        RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
        RHIZOME_QUEUE_URL: '',
      },
      pubsub: new InProcessPubSub(),
    });
    const { app } = createCortexApi({ platform, ...(await createAuthServices(platform)), authMode: 'direct' });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    edgeToken = fs.readFileSync(path.join(dataDir, 'secrets', 'edge_auth_token'), 'utf8').trim();
    expect(edgeToken.length).toBeGreaterThanOrEqual(32);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('with an account', () => {
    beforeAll(async () => {
      const setup = await request('POST', '/auth/setup', { body: account });
      expect(setup.status).toBe(201);
      cookie = setup.cookie!;
      const key = await request('POST', '/auth/keys', { cookie, body: { name: 'direct' } });
      expect(key.status).toBe(201);
      apiKey = (key.body as { key: string }).key;
    });

    it('answers a request without credentials with 401 AUTH_REQUIRED', async () => {
      for (const [method, apiPath] of [
        ['GET', '/auth/me'],
        ['GET', '/settings'],
        ['GET', '/databases'],
        ['GET', '/auth/keys'],
        ['GET', '/whatever'],
      ]) {
        expectAuthRequired(await request(method, apiPath));
      }
    });

    it('keeps the public endpoints public', async () => {
      const status = await request('GET', '/auth/status');
      expect(status.status).toBe(200);
      expect(status.body).toEqual({ setup_needed: false, authenticated: false, username: null });
    });

    it('ignores a forged X-Auth-User without the edge token', async () => {
      expectAuthRequired(await me({ headers: { 'x-auth-user': 'admin' } }));
      expectAuthRequired(await me({ headers: { 'x-auth-user': account.username, 'x-real-ip': '10.9.9.9' } }));
    });

    it('ignores X-Auth-User with a wrong edge token', async () => {
      const wrongSameLength = edgeToken.slice(0, -1) + (edgeToken.endsWith('A') ? 'B' : 'A');
      for (const token of [wrongSameLength, `${edgeToken}x`, edgeToken.slice(0, 8), 'x']) {
        expectAuthRequired(await me({ headers: { 'x-auth-edge-token': token, 'x-auth-user': 'admin' } }));
      }
    });

    it('trusts X-Auth-User with the right edge token', async () => {
      const result = await me({ headers: fromProxy({ 'x-auth-user': 'admin' }) });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ username: 'admin' });
      // The edge token alone is not an identity.
      expectAuthRequired(await me({ headers: fromProxy() }));
    });

    it('verifies a session cookie or an API key itself', async () => {
      expect(await me({ cookie })).toMatchObject({ status: 200, body: { username: account.username } });
      expect(await me({ key: apiKey })).toMatchObject({ status: 200, body: { username: account.username } });
      expectAuthRequired(await me({ cookie: `${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}` }));
      expectAuthRequired(await me({ key: `cc_live_${'A'.repeat(32)}` }));
    });

    it('honours X-Real-IP for the login rate limit only with the edge token', async () => {
      // A wrong password answers 401, and the limiter counts every such attempt.
      const login = (headers: Record<string, string>) =>
        request('POST', '/auth/login', { body: { ...account, password: 'not the password' }, headers });

      // Without the token every attempt counts for the socket address, whatever X-Real-IP says.
      for (let n = 1; n <= 5; n++) expect((await login({ 'x-real-ip': `10.1.0.${n}` })).status).toBe(401);
      expect((await login({ 'x-real-ip': '10.1.0.99' })).status).toBe(429);

      // With the token the forwarded address is the client: 10.0.0.1 has its own budget...
      for (let n = 1; n <= 5; n++) expect((await login(fromProxy({ 'x-real-ip': '10.0.0.1' }))).status).toBe(401);
      const limited = await login(fromProxy({ 'x-real-ip': '10.0.0.1' }));
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      // ...and 10.0.0.2 is not affected by it.
      expect((await login(fromProxy({ 'x-real-ip': '10.0.0.2' }))).status).toBe(401);
    });
  });
});
