import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionValue, type SessionClaims } from '@rhizome/auth/session-cookie';
import { startTestServer, type CallOptions, type CallResult, type TestServer } from '../support/server.ts';
import { sleep } from '../support/wait.ts';

// The account, API keys, setup, sessions, the auth endpoints, authentication and errors
// (docs/api-conventions.md#authentication, #errors), exercised against the embedded default.

const proxy401 = '{"error":"authentication_required"}';
const thirtyDays = 2_592_000;
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const apiKeyPattern = /^cc_live_[A-Za-z0-9_-]{32}$/;

function expectProxy401(result: CallResult): void {
  expect(result.status).toBe(401);
  expect(result.text).toBe(proxy401);
}

function expectError(result: CallResult, status: number, error: string, details: unknown = null): void {
  expect({ status: result.status, body: result.body }).toEqual({
    status,
    body: { error, message: expect.any(String), details },
  });
}

function expectValidationFailed(result: CallResult, locs: (string | number)[][]): void {
  expect(result.status).toBe(422);
  const body = result.body as {
    error: string;
    details: { errors: { loc: (string | number)[]; msg: string; type: string }[] };
  };
  expect(body.error).toBe('VALIDATION_FAILED');
  expect(body.details.errors.map((issue) => issue.loc)).toEqual(locs);
  for (const issue of body.details.errors)
    expect(issue).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
}

/** `Set-Cookie` split into the `name=value` pair and the attributes. */
function parseSetCookie(result: CallResult): { name: string; value: string; attributes: string[] } {
  const header = result.headers.get('set-cookie');
  if (!header) throw new Error(`no Set-Cookie on a ${result.status} response`);
  const [pair, ...attributes] = header.split('; ');
  const eq = pair.indexOf('=');
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
}

function expectSessionCookie(result: CallResult, options: { secure: boolean }): void {
  const cookie = parseSetCookie(result);
  expect(cookie.name).toBe('cc_session');
  expect(cookie.value).not.toBe('');
  expect(cookie.attributes).toEqual(
    expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${thirtyDays}`]),
  );
  expect(cookie.attributes.includes('Secure')).toBe(options.secure);
  const expires = cookie.attributes.find((attribute) => attribute.startsWith('Expires='));
  expect(Math.abs(Date.parse(expires!.slice('Expires='.length)) - (Date.now() + thirtyDays * 1000))).toBeLessThan(
    5_000,
  );
}

function expectClearedCookie(result: CallResult): void {
  const cookie = parseSetCookie(result);
  expect(cookie).toMatchObject({ name: 'cc_session', value: '' });
  expect(cookie.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=0']));
}

describe('auth in the embedded default', () => {
  let server: TestServer;
  const username = 'operator';
  let password = 'pw-8char'; // exactly the 8-character minimum
  /** Every session cookie handed out so far, for the "every earlier cookie invalid" checks. */
  const issued: string[] = [];

  const call = (method: string, apiPath: string, options?: CallOptions) => server.call(method, apiPath, options);
  const status = (options?: CallOptions) => call('GET', '/auth/status', options);
  const me = (options: CallOptions) => call('GET', '/auth/me', options);
  const login = async (name: string, pass: string) => {
    const result = await call('POST', '/auth/login', { body: { username: name, password: pass } });
    if (result.cookie) issued.push(result.cookie);
    return result;
  };
  const credentialsFile = () => path.join(server.dataDir, 'credentials.json');
  const storedCredentials = () =>
    JSON.parse(fs.readFileSync(credentialsFile(), 'utf8')) as { account: { username: string }; session_epoch: number };
  /** A cookie signed like the server does; claims default to the current account and epoch, valid for an hour. */
  const craftCookie = (
    claims: Partial<SessionClaims> = {},
    secret = fs.readFileSync(path.join(server.dataDir, 'secrets', 'session_secret'), 'utf8').trim(),
  ) => {
    const stored = storedCredentials();
    const full = {
      username: stored.account.username,
      epoch: stored.session_epoch,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      ...claims,
    };
    return `cc_session=${createSessionValue(full, secret)}`;
  };
  const expectAllRefused = async (cookies: string[]) => {
    for (const cookie of cookies) expectProxy401(await me({ cookie }));
  };

  beforeAll(async () => {
    // The login and setup rate limits (5 and 3 per minute per address, counted before validation) would cut
    // this long sequence short; they have their own server with the default limits below.
    server = await startTestServer({
      env: {
        RHIZOME_SETTINGS__LOCAL_AUTH__LOGIN_MAX_ATTEMPTS: '1000',
        RHIZOME_SETTINGS__LOCAL_AUTH__SETUP_MAX_ATTEMPTS: '1000',
      },
    });
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  describe('account setup', () => {
    it('reports setup needed before setup', async () => {
      const result = await status();
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ setup_needed: true, authenticated: false, username: null });
    });

    it('refuses login before setup with 409 whatever the body, and stays in setup needed', async () => {
      expectError(await login(username, password), 409, 'HTTP_409');
      expectError(await call('POST', '/auth/login', { body: { username: 1 } }), 409, 'HTTP_409');
      expect((await status()).body).toEqual({ setup_needed: true, authenticated: false, username: null });
    });

    it.each([
      ['username of 2 chars', { username: 'ab', password: 'long enough' }, [['body', 'username']]],
      ['username of 65 chars', { username: 'u'.repeat(65), password: 'long enough' }, [['body', 'username']]],
      ['password of 7 chars', { username: 'operator', password: 'x'.repeat(7) }, [['body', 'password']]],
      ['password of 129 chars', { username: 'operator', password: 'x'.repeat(129) }, [['body', 'password']]],
      ['missing username', { password: 'long enough' }, [['body', 'username']]],
      ['missing password', { username: 'operator' }, [['body', 'password']]],
      [
        'empty object',
        {},
        [
          ['body', 'username'],
          ['body', 'password'],
        ],
      ],
      ['username as a number', { username: 12345, password: 'long enough' }, [['body', 'username']]],
      ['password as null', { username: 'operator', password: null }, [['body', 'password']]],
      ['an array body', [], [['body']]],
    ])('rejects setup with %s: 422 and nothing changes', async (_label, body, locs) => {
      const result = await call('POST', '/auth/setup', { body });
      expectValidationFailed(result, locs);
      expect(result.headers.get('set-cookie')).toBeNull();
      expect(fs.existsSync(credentialsFile())).toBe(false);
      expect((await status()).body).toEqual({ setup_needed: true, authenticated: false, username: null });
    });

    it('rejects setup with no or malformed JSON: 422', async () => {
      expectValidationFailed(await call('POST', '/auth/setup'), [['body']]);
      expectValidationFailed(await call('POST', '/auth/setup', { rawBody: '{"username": "operator",' }), [['body']]);
      expect(fs.existsSync(credentialsFile())).toBe(false);
    });

    it('sets up the account: 201 {username}, a session cookie, credentials.json', async () => {
      const result = await call('POST', '/auth/setup', { body: { username, password } });
      expect(result.status).toBe(201);
      expect(result.body).toEqual({ username });
      expectSessionCookie(result, { secure: false });
      issued.push(result.cookie!);
      expect(fs.existsSync(credentialsFile())).toBe(true);

      expect((await status({ cookie: result.cookie })).body).toEqual({
        setup_needed: false,
        authenticated: true,
        username,
      });
      expect((await status()).body).toEqual({ setup_needed: false, authenticated: false, username: null });
      expect((await me({ cookie: result.cookie })).body).toEqual({ username });
    });

    it('refuses a second setup with 409 and keeps the first account', async () => {
      const before = fs.readFileSync(credentialsFile(), 'utf8');
      const result = await call('POST', '/auth/setup', {
        body: { username: 'intruder', password: 'another password' },
      });
      expectError(result, 409, 'CONFLICT');
      expectError(await call('POST', '/auth/setup', { body: { username: 'x' } }), 409, 'CONFLICT');
      expect(result.headers.get('set-cookie')).toBeNull();
      expect(fs.readFileSync(credentialsFile(), 'utf8')).toBe(before);
    });
  });

  describe('login and the session cookie', () => {
    it('refuses a wrong password and a wrong username alike with 401 HTTP_401, without a cookie', async () => {
      const wrongPassword = await login(username, 'wrong password');
      const wrongUsername = await login('OPERATOR', password);
      for (const result of [wrongPassword, wrongUsername]) {
        expectError(result, 401, 'HTTP_401');
        expect(result.headers.get('set-cookie')).toBeNull();
      }
      expect(wrongUsername.body).toEqual(wrongPassword.body);
    });

    it('logs in: 200 {username} and a working cookie with the documented attributes', async () => {
      const result = await login(username, password);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ username });
      expectSessionCookie(result, { secure: false });
      expect(await me({ cookie: result.cookie })).toMatchObject({ status: 200, body: { username } });
    });

    it('marks the cookie Secure when local_auth.cookie_secure is true', async () => {
      const cookie = issued.at(-1)!;
      const enable = await call('PATCH', '/settings', { cookie, body: { local_auth: { cookie_secure: true } } });
      expect(enable.status).toBe(200);
      try {
        expectSessionCookie(await login(username, password), { secure: true });
      } finally {
        expect(
          (await call('PATCH', '/settings', { cookie, body: { local_auth: { cookie_secure: false } } })).status,
        ).toBe(200);
      }
      // Cookies issued later (username change below) are checked for the absence of Secure again.
    });

    it('accepts a cookie it signed itself with the current epoch (control for the forgeries below)', async () => {
      expect(await me({ cookie: craftCookie() })).toMatchObject({ status: 200, body: { username } });
    });

    it('refuses forged, tampered, foreign and expired cookies with 401', async () => {
      const genuine = craftCookie();
      const dot = genuine.lastIndexOf('.');
      const signatureChar = genuine[dot + 2];
      const flippedSignature = `${genuine.slice(0, dot + 2)}${signatureChar === 'A' ? 'B' : 'A'}${genuine.slice(dot + 3)}`;
      const otherPayload = createSessionValue(
        { username, epoch: 7, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
        'x',
      );
      const changedPayload = `cc_session=${otherPayload.slice(0, otherPayload.lastIndexOf('.'))}${genuine.slice(dot)}`;
      const forgeries = {
        flippedSignature,
        changedPayload,
        otherSecret: craftCookie({}, 'a-secret-that-is-not-the-server-one'),
        expired: craftCookie({ expiresAt: Math.floor(Date.now() / 1000) - 1 }),
        otherUser: craftCookie({ username: 'admin' }),
        futureEpoch: craftCookie({ epoch: storedCredentials().session_epoch + 1 }),
        unsigned: `cc_session=${Buffer.from(JSON.stringify({ u: username, e: 0, x: 9_999_999_999 })).toString('base64url')}`,
        empty: 'cc_session=',
        badPercentEncoding: 'cc_session=%E0%A4%A',
      };
      for (const [label, cookie] of Object.entries(forgeries)) {
        const result = await me({ cookie });
        expect({ label, status: result.status, text: result.text }).toEqual({ label, status: 401, text: proxy401 });
        const seen = await status({ cookie });
        expect({ label, status: seen.status, body: seen.body }).toEqual({
          label,
          status: 200,
          body: { setup_needed: false, authenticated: false, username: null },
        });
      }
    });
  });

  describe('API keys', () => {
    let key: { id: string; name: string; key: string; created_at: string };
    let cookie: string;

    beforeAll(() => {
      cookie = issued.at(-1)!;
    });

    it('rejects an empty, a 65-character or a missing name with 422 and creates nothing', async () => {
      for (const body of [{ name: '' }, { name: 'n'.repeat(65) }, {}, { name: 42 }]) {
        expectValidationFailed(await call('POST', '/auth/keys', { cookie, body }), [['body', 'name']]);
      }
      expect((await call('GET', '/auth/keys', { cookie })).body).toEqual([]);
    });

    it('creates a key: 201 {id, name, key, created_at}, plaintext shown once', async () => {
      const result = await call('POST', '/auth/keys', { cookie, body: { name: 'ci script' } });
      expect(result.status).toBe(201);
      expect(result.body).toEqual({
        id: expect.stringMatching(/^key_/),
        name: 'ci script',
        key: expect.stringMatching(apiKeyPattern),
        created_at: expect.stringMatching(isoTimestamp),
      });
      key = result.body as typeof key;
      // Boundary names: 1 and 64 characters.
      for (const name of ['k', 'n'.repeat(64)])
        expect((await call('POST', '/auth/keys', { cookie, body: { name } })).status).toBe(201);
    });

    it('lists keys without any secret material and last_used_at null before use', async () => {
      const result = await call('GET', '/auth/keys', { cookie });
      expect(result.status).toBe(200);
      const list = result.body as Record<string, unknown>[];
      expect(list).toHaveLength(3);
      for (const entry of list) expect(Object.keys(entry).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name']);
      expect(list.find((entry) => entry.id === key.id)).toEqual({
        id: key.id,
        name: 'ci script',
        created_at: key.created_at,
        last_used_at: null,
      });
      expect(new Set(list.map((entry) => entry.id)).size).toBe(3);
      for (const forbidden of [key.key, key.key.slice('cc_live_'.length), '"key"', '"hash"', '"lookup"', '$2']) {
        expect(result.text).not.toContain(forbidden);
      }
    });

    it('authenticates with the key and records last_used_at', async () => {
      const before = Date.now();
      expect(await me({ key: key.key })).toMatchObject({ status: 200, body: { username } });
      const entry = (
        (await call('GET', '/auth/keys', { key: key.key })).body as { id: string; last_used_at: string | null }[]
      ).find((k) => k.id === key.id)!;
      expect(entry.last_used_at).toMatch(isoTimestamp);
      expect(Date.parse(entry.last_used_at!)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(entry.last_used_at!)).toBeLessThanOrEqual(Date.now());
      // A key is not a session cookie: status reports only cookies.
      expect((await status({ key: key.key })).body).toEqual({
        setup_needed: false,
        authenticated: false,
        username: null,
      });
    });

    it('refuses a key with the right prefix but a wrong body, and other bearer junk', async () => {
      const last = key.key.at(-1) === 'A' ? 'B' : 'A';
      for (const presented of [
        `${key.key.slice(0, -1)}${last}`,
        `cc_live_${'A'.repeat(32)}`,
        key.key.slice(0, -1),
        `${key.key}A`,
        key.key.replace('cc_live_', 'cc_test_'),
      ]) {
        expectProxy401(await me({ key: presented }));
      }
      expectProxy401(
        await me({ headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } }),
      );
    });

    it('revokes a key: 204, refused at once, gone from the list', async () => {
      expect((await me({ key: key.key })).status).toBe(200);
      const result = await call('DELETE', `/auth/keys/${key.id}`, { cookie });
      expect(result.status).toBe(204);
      expect(result.text).toBe('');
      expectProxy401(await me({ key: key.key }));
      const ids = ((await call('GET', '/auth/keys', { cookie })).body as { id: string }[]).map((entry) => entry.id);
      expect(ids).toHaveLength(2);
      expect(ids).not.toContain(key.id);
    });

    it('answers 404 NOT_FOUND for an unknown or already revoked key', async () => {
      expectError(await call('DELETE', `/auth/keys/${key.id}`, { cookie }), 404, 'NOT_FOUND', {
        resource_type: 'api_key',
        identifier: key.id,
      });
      expectError(await call('DELETE', '/auth/keys/key_doesnotexist', { cookie }), 404, 'NOT_FOUND', {
        resource_type: 'api_key',
        identifier: 'key_doesnotexist',
      });
    });

    it('lets the cookie take priority: a valid cookie with a revoked key is authenticated', async () => {
      expect(await me({ cookie, key: key.key })).toMatchObject({ status: 200, body: { username } });
    });
  });

  describe('logout', () => {
    it('needs a credential', async () => {
      expectProxy401(await call('POST', '/auth/logout'));
    });

    it('clears the cookie and invalidates every earlier cookie at once, but not API keys', async () => {
      const created = await call('POST', '/auth/keys', { cookie: issued.at(-1), body: { name: 'survives logout' } });
      const apiKey = (created.body as { key: string }).key;
      const earlier = [...new Set(issued)];
      expect(earlier.length).toBeGreaterThanOrEqual(2);
      for (const cookie of earlier) expect((await me({ cookie })).status).toBe(200);
      const epoch = storedCredentials().session_epoch;

      const result = await call('POST', '/auth/logout', { cookie: earlier[0] });
      expect(result.status).toBe(204);
      expect(result.text).toBe('');
      expectClearedCookie(result);
      expect(storedCredentials().session_epoch).toBe(epoch + 1);

      await expectAllRefused(earlier);
      expect((await status({ cookie: earlier[0] })).body).toEqual({
        setup_needed: false,
        authenticated: false,
        username: null,
      });
      expect((await me({ key: apiKey })).status).toBe(200);

      const again = await login(username, password);
      expect(again.status).toBe(200);
      expect((await me({ cookie: again.cookie })).status).toBe(200);
    });
  });

  describe('password change', () => {
    const newPassword = 'p'.repeat(128); // the 128-character maximum

    it('refuses a wrong old password with 403 HTTP_403 and changes nothing', async () => {
      const cookie = issued.at(-1)!;
      const before = fs.readFileSync(credentialsFile(), 'utf8');
      const result = await call('POST', '/auth/password', {
        cookie,
        body: { old_password: 'not my password', new_password: newPassword },
      });
      expectError(result, 403, 'HTTP_403');
      expect(result.headers.get('set-cookie')).toBeNull();
      expect(fs.readFileSync(credentialsFile(), 'utf8')).toBe(before);
      expect((await me({ cookie })).status).toBe(200);
    });

    it('rejects a new password of 7 or 129 characters with 422', async () => {
      const cookie = issued.at(-1)!;
      for (const bad of ['x'.repeat(7), 'x'.repeat(129)]) {
        expectValidationFailed(
          await call('POST', '/auth/password', { cookie, body: { old_password: password, new_password: bad } }),
          [['body', 'new_password']],
        );
      }
      expectValidationFailed(await call('POST', '/auth/password', { cookie, body: { new_password: newPassword } }), [
        ['body', 'old_password'],
      ]);
      expect((await me({ cookie })).status).toBe(200);
    });

    it('changes the password: 204, cookie cleared, earlier cookies refused, only the new password logs in', async () => {
      const result = await call('POST', '/auth/password', {
        cookie: issued.at(-1),
        body: { old_password: password, new_password: newPassword },
      });
      expect(result.status).toBe(204);
      expect(result.text).toBe('');
      expectClearedCookie(result);
      await expectAllRefused([...new Set(issued)]);

      expectError(await login(username, password), 401, 'HTTP_401');
      const fresh = await login(username, newPassword);
      expect(fresh.status).toBe(200);
      expect((await me({ cookie: fresh.cookie })).status).toBe(200);
      password = newPassword;
    });
  });

  describe('username change', () => {
    const newUsername = 'renamed-operator';

    it('refuses a wrong password with 403 HTTP_403 and changes nothing', async () => {
      const cookie = issued.at(-1)!;
      const result = await call('POST', '/auth/username', {
        cookie,
        body: { password: 'not my password', new_username: newUsername },
      });
      expectError(result, 403, 'HTTP_403');
      expect(result.headers.get('set-cookie')).toBeNull();
      expect((await status({ cookie })).body).toEqual({ setup_needed: false, authenticated: true, username });
    });

    it('rejects a new username of 2 or 65 characters with 422', async () => {
      const cookie = issued.at(-1)!;
      for (const bad of ['ab', 'u'.repeat(65)]) {
        expectValidationFailed(
          await call('POST', '/auth/username', { cookie, body: { password, new_username: bad } }),
          [['body', 'new_username']],
        );
      }
      expect((await me({ cookie })).body).toEqual({ username });
    });

    it('changes the username: 200 {username}, a fresh working cookie, earlier cookies refused', async () => {
      const result = await call('POST', '/auth/username', {
        cookie: issued.at(-1),
        body: { password, new_username: newUsername },
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ username: newUsername });
      expectSessionCookie(result, { secure: false });
      await expectAllRefused([...new Set(issued)]);

      expect(await me({ cookie: result.cookie })).toMatchObject({ status: 200, body: { username: newUsername } });
      expect((await status({ cookie: result.cookie })).body).toEqual({
        setup_needed: false,
        authenticated: true,
        username: newUsername,
      });
      expectError(await login(username, password), 401, 'HTTP_401');
      expect((await login(newUsername, password)).body).toEqual({ username: newUsername });
    });
  });

  describe('public and protected endpoints', () => {
    it('serves the public endpoints without credentials', async () => {
      expect((await status()).status).toBe(200);
      // Both reach their handlers: the answers are the handlers' envelopes, not the proxy's 401.
      expectError(await call('POST', '/auth/login', { body: { username: 'x', password: 'y' } }), 401, 'HTTP_401');
      expectError(
        await call('POST', '/auth/setup', { body: { username: 'someone', password: 'long enough' } }),
        409,
        'CONFLICT',
      );
    });

    it.each([
      ['GET', '/auth/me'],
      ['POST', '/auth/logout'],
      ['POST', '/auth/password'],
      ['POST', '/auth/username'],
      ['GET', '/auth/keys'],
      ['POST', '/auth/keys'],
      ['DELETE', '/auth/keys/key_anything'],
      ['GET', '/settings'],
      ['PATCH', '/settings'],
      ['GET', '/databases'],
      ['POST', '/databases'],
      ['GET', '/health'],
      ['GET', '/counts'],
      ['GET', '/whatever'],
      ['POST', '/whatever/else'],
      ['GET', '/../v2/anything'],
    ])('refuses %s %s without credentials with the proxy 401', async (method, apiPath) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      expectProxy401(await call(method, apiPath, { body }));
      expectProxy401(
        await call(method, apiPath, { body, key: `cc_live_${'x'.repeat(32)}`, cookie: 'cc_session=forged.value' }),
      );
    });
  });
});

describe('login and setup rate limits (default settings)', () => {
  let server: TestServer;
  let cookie: string;
  const credentials = { username: 'operator', password: 'correct horse battery' };
  const attempt = (endpoint: 'login' | 'setup') => server.call('POST', `/auth/${endpoint}`, { body: credentials });

  function expectRateLimited(result: CallResult): void {
    expect(result.status).toBe(429);
    const retryAfter = Number(result.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(result.body).toEqual({
      error: 'HTTP_429',
      message: expect.any(String),
      details: { retry_after_seconds: retryAfter },
    });
    expect(result.headers.get('set-cookie')).toBeNull();
  }

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  // An attempt that cannot succeed in the current state (a login before setup, a setup after it) answers 409
  // and is not counted; every other attempt counts whatever its outcome.
  it('answers the 6th login attempt within the window with 429; logins before setup are not counted', async () => {
    for (let n = 1; n <= 6; n++) expect((await attempt('login')).status).toBe(409);
    const setup = await attempt('setup');
    expect(setup.status).toBe(201);
    cookie = setup.cookie!;
    for (let n = 1; n <= 5; n++)
      expect(
        (await server.call('POST', '/auth/login', { body: { ...credentials, password: 'wrong password' } })).status,
      ).toBe(401);
    // Still limited: the right password does not get through while the window lasts.
    expectRateLimited(await attempt('login'));
    for (let n = 1; n <= 4; n++) expect((await attempt('setup')).status).toBe(409);
  });

  it('answers the 4th setup attempt within the window with 429, counted separately from logins', async () => {
    const fresh = await startTestServer();
    try {
      for (let n = 1; n <= 3; n++)
        expect((await fresh.call('POST', '/auth/setup', { body: { ...credentials, password: 'short' } })).status).toBe(
          422,
        );
      expectRateLimited(await fresh.call('POST', '/auth/setup', { body: credentials }));
      expect((await fresh.call('POST', '/auth/login', { body: credentials })).status).toBe(409);
    } finally {
      await fresh.stop();
    }
  });

  it('lets logins through again once the window has passed', async () => {
    const patch = await server.call('PATCH', '/settings', {
      cookie,
      body: { local_auth: { rate_limit_window_seconds: 1 } },
    });
    expect(patch.status).toBe(200);
    await sleep(1100);
    const result = await attempt('login');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ username: credentials.username });
  });
});

describe('API key creation rate limit (default settings)', () => {
  it('answers the 11th key creation within the window with 429 and creates nothing more', async () => {
    const server = await startTestServer();
    try {
      const setup = await server.call('POST', '/auth/setup', {
        body: { username: 'operator', password: 'correct horse battery' },
      });
      for (let n = 1; n <= 10; n++)
        expect(
          (await server.call('POST', '/auth/keys', { cookie: setup.cookie, body: { name: `k${n}` } })).status,
        ).toBe(201);
      const limited = await server.call('POST', '/auth/keys', { cookie: setup.cookie, body: { name: 'k11' } });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ error: 'HTTP_429' });
      expect((await server.call('GET', '/auth/keys', { cookie: setup.cookie })).body).toHaveLength(10);
    } finally {
      await server.stop();
    }
  });
});
