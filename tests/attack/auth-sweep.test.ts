import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedOperations, fillPath, type DocumentedOperation } from '../support/openapi-operations.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Every protected operation of the served OpenAPI document, each sent with every kind of bad credential
 * an attacker tries: none, junk, a key with the right prefix, a revoked key, a cookie from before a
 * logout, a tampered cookie, a forged identity header, Basic auth with the right password, a key in the
 * query string. Every one must be 401, and nothing the operator stored may change.
 */

const username = 'operator';
const password = 'correct horse battery';

describe('auth sweep over every protected operation', () => {
  let server: TestServer;
  let cookie: string;
  let operations: DocumentedOperation[];
  const badCredentials: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    server = await startTestServer();
    const firstCookie = await setUpAccount(server, username, password);
    const revoked = (await server.call('POST', '/auth/keys', { cookie: firstCookie, body: { name: 'revoked' } }))
      .body as { id: string; key: string };
    expect((await server.call('DELETE', `/auth/keys/${revoked.id}`, { cookie: firstCookie })).status).toBe(204);
    const live = (await server.call('POST', '/auth/keys', { cookie: firstCookie, body: { name: 'live' } })).body as {
      key: string;
    };
    expect((await server.call('POST', '/auth/logout', { cookie: firstCookie })).status).toBeLessThan(300);
    const login = await server.call('POST', '/auth/login', { body: { username, password } });
    cookie = login.cookie!;
    const [name, value] = cookie.split('=');
    const flipped = value.slice(0, -1) + (value.at(-1) === 'A' ? 'B' : 'A');
    const lastChar = live.key.at(-1) === 'A' ? 'B' : 'A';
    Object.assign(badCredentials, {
      none: {},
      'junk bearer': { authorization: 'Bearer junk' },
      'key with the right prefix': { authorization: `Bearer ${live.key.slice(0, -1)}${lastChar}` },
      'revoked key': { authorization: `Bearer ${revoked.key}` },
      'cookie from before a logout': { cookie: firstCookie },
      'tampered cookie': { cookie: `${name}=${flipped}` },
      'forged identity header': { 'x-auth-user': username, 'x-real-ip': '127.0.0.1' },
      'basic auth with the password': {
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      },
    });
    const queryKey = `api_key=${encodeURIComponent(live.key)}`;
    badCredentials['key in the query string'] = { query: queryKey };
    operations = documentedOperations((await server.call('GET', '/openapi.json', { cookie })).body);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers 401 to every bad credential on every protected operation and changes nothing', async () => {
    const before = await server.call('GET', '/system/dashboard', { cookie });
    expect(before.status).toBe(200);
    const protectedOperations = operations.filter((operation) => !operation.public);
    expect(protectedOperations.length).toBeGreaterThan(150);
    const failures: string[] = [];
    let trials = 0;
    for (const operation of protectedOperations) {
      const apiPath = fillPath(operation, (param) => `attack_${param}`);
      for (const [label, credential] of Object.entries(badCredentials)) {
        const { query, ...headers } = credential;
        const response = await fetch(`${server.base}${apiPath}${query ? `?${query}` : ''}`, {
          method: operation.method,
          headers: { ...headers, ...(operation.hasJsonBody ? { 'content-type': 'application/json' } : {}) },
          body: operation.method === 'GET' ? undefined : operation.hasJsonBody ? '{}' : undefined,
          signal: AbortSignal.timeout(10_000),
        });
        trials += 1;
        if (response.headers.get('content-type')?.startsWith('text/event-stream')) await response.body?.cancel();
        else await response.arrayBuffer();
        if (response.status !== 401)
          failures.push(`${operation.method} ${operation.path} (${label}) → ${response.status}`);
      }
    }
    console.log(`attack auth-sweep: ${trials} trials, ${failures.length} let through`);
    expect(failures).toEqual([]);
    expect(trials).toBeGreaterThan(1_200);

    const after = await server.call('GET', '/system/dashboard', { cookie });
    expect((after.body as { counts: unknown }).counts).toEqual((before.body as { counts: unknown }).counts);
    expect((await server.call('GET', '/auth/status', { cookie })).body).toMatchObject({ authenticated: true });
  }, 240_000);
});
