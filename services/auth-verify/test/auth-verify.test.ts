import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountService, Verifier, type AuthFiles } from '@rhizome/auth';
import { createAuthVerify } from '../src/app.ts';
import { cookieNameReader } from '../src/cookie-name.ts';
import { untilHolds } from '../../../tests/support/wait.ts';

// auth-verify is the proxy's auth_request target (docs/api-conventions.md#authentication). It runs in its
// own process: here it gets its own Verifier, while the "cortex process" changing the account is a
// second Verifier/AccountService pair over the same data directory.

const verifyPath = '/api/v1/auth/verify';
const unauthorized = '{"error":"authentication_required"}';

interface VerifyResult {
  status: number;
  user: string | null;
  body: string;
}

describe('auth-verify', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-auth-verify-'));
  const files: AuthFiles = {
    credentialsFile: path.join(dataDir, 'credentials.json'),
    secretsDir: path.join(dataDir, 'secrets'),
  };
  const settingsFile = path.join(dataDir, 'settings.json');
  const password = 'correct horse battery';
  let server: http.Server;
  let base: string;
  /** The other process: cortex-api, where logins, logouts and key changes happen. */
  let cortex: AccountService;

  const cookieOf = (setCookie: string | undefined) => {
    if (!setCookie) throw new Error('no cookie issued');
    return setCookie.split(';')[0];
  };
  const verify = async (
    headers: Record<string, string> = {},
    url = verifyPath,
    method = 'GET',
  ): Promise<VerifyResult> => {
    const response = await fetch(`${base}${url}`, { method, headers });
    return { status: response.status, user: response.headers.get('x-auth-user'), body: await response.text() };
  };
  const withCookie = (cookie: string) => verify({ cookie });
  const withKey = (key: string) => verify({ authorization: `Bearer ${key}` });
  const accepted = (user: string): VerifyResult => ({ status: 200, user, body: '' });
  const refused: VerifyResult = { status: 401, user: null, body: unauthorized };
  const login = async (username = 'operator') => cookieOf((await cortex.login(username, password)).setCookie);

  beforeAll(async () => {
    const cookieName = cookieNameReader(settingsFile);
    cortex = new AccountService(new Verifier(files, cookieName), () => ({
      name: cookieName(),
      ttlSeconds: 3600,
      secure: false,
    }));
    await cortex.setup('operator', password);

    server = http.createServer(createAuthVerify({ verifier: new Verifier(files, cookieName) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 200 with X-Auth-User for a session cookie and for an API key', async () => {
    expect(await withCookie(await login())).toEqual(accepted('operator'));
    const { key } = await cortex.createKey('script');
    expect(await withKey(key)).toEqual(accepted('operator'));
    // A query string on the verify path is fine (nginx may pass one).
    expect(await verify({ cookie: await login() }, `${verifyPath}?uri=/api/v1/settings`)).toEqual(accepted('operator'));
  });

  it('answers 401 with the minimal body without a valid credential', async () => {
    expect(await verify()).toEqual(refused);
    expect(await withCookie('cc_session=not.signed')).toEqual(refused);
    expect(await withCookie('cc_session=%E0%A4%A')).toEqual(refused);
    expect(await withKey(`cc_live_${'A'.repeat(32)}`)).toEqual(refused);
    expect(await verify({ authorization: 'Bearer' })).toEqual(refused);
    // X-Auth-User is an output of this service, never an input.
    expect(await verify({ 'x-auth-user': 'operator' })).toEqual(refused);
  });

  it('serves nothing but GET /api/v1/auth/verify', async () => {
    const cookie = await login();
    for (const [method, url] of [
      ['GET', '/'],
      ['GET', '/api/v1/auth/me'],
      ['GET', `${verifyPath}x`],
      ['GET', `${verifyPath}/`],
      ['POST', verifyPath],
      ['DELETE', verifyPath],
    ]) {
      const result = await verify({ cookie }, url, method);
      expect({ method, url, status: result.status, user: result.user }).toEqual({
        method,
        url,
        status: 404,
        user: null,
      });
      expect(JSON.parse(result.body)).toMatchObject({ error: 'NOT_FOUND' });
    }
  });

  it('refuses a cookie at once after a logout in the other process', async () => {
    const cookies = [await login(), await login()];
    for (const cookie of cookies) expect(await withCookie(cookie)).toEqual(accepted('operator'));
    await cortex.logout();
    for (const cookie of cookies) expect(await withCookie(cookie)).toEqual(refused);
    expect(await withCookie(await login())).toEqual(accepted('operator'));
  });

  it('refuses a key at once after its revocation in the other process, despite its cache', async () => {
    const revoked = await cortex.createKey('to revoke');
    const kept = await cortex.createKey('to keep');
    // Twice: the second answer comes from auth-verify's cache of verified keys.
    for (let n = 0; n < 2; n++) expect(await withKey(revoked.key)).toEqual(accepted('operator'));
    expect(await withKey(kept.key)).toEqual(accepted('operator'));

    await cortex.revokeKey(revoked.id);
    expect(await withKey(revoked.key)).toEqual(refused);
    expect(await withKey(kept.key)).toEqual(accepted('operator'));
  });

  it('refuses earlier cookies at once after a password change in the other process', async () => {
    const cookie = await login();
    expect(await withCookie(cookie)).toEqual(accepted('operator'));
    await cortex.changePassword(password, 'a new password');
    expect(await withCookie(cookie)).toEqual(refused);
    await cortex.changePassword('a new password', password);
  });

  it('refuses earlier cookies at once after a username change and names the new user', async () => {
    const cookie = await login();
    const { key } = await cortex.createKey('follows the rename');
    expect(await withCookie(cookie)).toEqual(accepted('operator'));
    const renamed = await cortex.changeUsername(password, 'renamed');
    expect(await withCookie(cookie)).toEqual(refused);
    expect(await withCookie(cookieOf(renamed.setCookie))).toEqual(accepted('renamed'));
    expect(await withKey(key)).toEqual(accepted('renamed'));
  });

  // The settings file is re-read at most once a second (a renamed cookie may be seen that much later).
  it('follows a change of local_auth.cookie_name in the settings file within a second', async () => {
    const cookie = await login('renamed');
    expect(await withCookie(cookie)).toEqual(accepted('renamed'));
    fs.writeFileSync(settingsFile, JSON.stringify({ local_auth: { cookie_name: 'rz_session' } }));
    await untilHolds(
      () => withCookie(cookie),
      (result) => isDeepStrictEqual(result, refused),
      {
        timeoutMs: 3000,
        intervalMs: 100,
        what: 'the cookie under its old name to be refused',
      },
    );
    expect(await withCookie(cookie.replace(/^cc_session=/, 'rz_session='))).toEqual(accepted('renamed'));
    fs.rmSync(settingsFile);
    await untilHolds(
      () => withCookie(cookie),
      (result) => isDeepStrictEqual(result, accepted('renamed')),
      {
        timeoutMs: 3000,
        intervalMs: 100,
        what: 'the cookie to be accepted again',
      },
    );
  });
});
