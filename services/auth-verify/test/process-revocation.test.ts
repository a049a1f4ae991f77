import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountService, Verifier } from '@rhizome/auth';
import { freePort } from '../../../tests/support/ports.ts';

// The real auth-verify process (it checks the credentials once per event-loop turn) against changes made
// by this process the way cortex-api makes them (atomic rename plus the change counter), while other
// keep-alive connections keep it busy so several requests share each turn.

const repoDir = path.resolve(import.meta.dirname, '../../..');
const password = 'correct horse battery';

describe('auth-verify process sees credential changes on the very next request', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-auth-verify-process-'));
  const files = { credentialsFile: path.join(dataDir, 'credentials.json'), secretsDir: path.join(dataDir, 'secrets') };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let child: ChildProcess;
  let verifyUrl: string;
  let cortex: AccountService;
  let busy = true;
  let background: Promise<void>;

  const status = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(verifyUrl, { agent, headers }, (res) => res.resume().on('end', () => resolve(res.statusCode!)))
        .on('error', reject);
    });
  const cookieOf = (setCookie: string | undefined) => setCookie!.split(';')[0];
  const login = async () => ({ cookie: cookieOf((await cortex.login('operator', password)).setCookie) });

  beforeAll(async () => {
    cortex = new AccountService(new Verifier(files, () => 'cc_session'), () => ({
      name: 'cc_session',
      ttlSeconds: 3600,
      secure: false,
    }));
    await cortex.setup('operator', password);
    const port = await freePort();
    verifyUrl = `http://127.0.0.1:${port}/api/v1/auth/verify`;
    child = spawn(process.execPath, ['--import', 'tsx', 'services/auth-verify/src/main.ts'], {
      cwd: repoDir,
      env: { ...process.env, PORT: String(port), RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG_LEVEL: 'WARN' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(
        () =>
          status({}).then(
            () => (clearInterval(poll), resolve()),
            () => undefined,
          ),
        100,
      );
      child.once('exit', (code) => (clearInterval(poll), reject(new Error(`auth-verify exited with ${code}`))));
    });
    const { cookie } = await login();
    const loop = async () => {
      while (busy) await status({ cookie });
    };
    background = Promise.all(Array.from({ length: 8 }, loop)).then(() => undefined);
  });
  afterAll(async () => {
    busy = false;
    await background;
    agent.destroy();
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a cookie right after a logout, and a new one is accepted', async () => {
    for (let round = 0; round < 10; round++) {
      const { cookie } = await login();
      expect(await status({ cookie })).toBe(200);
      await cortex.logout();
      expect(await status({ cookie }), `round ${round}`).toBe(401);
    }
  });

  it('refuses a cached API key right after its revocation', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, key } = await cortex.createKey(`round ${round}`);
      const authorization = `Bearer ${key}`;
      expect(await status({ authorization })).toBe(200);
      expect(await status({ authorization })).toBe(200); // now from the cache of verified keys
      await cortex.revokeKey(id);
      expect(await status({ authorization }), `round ${round}`).toBe(401);
    }
  });

  it('refuses earlier cookies right after a password change', async () => {
    const { cookie } = await login();
    expect(await status({ cookie })).toBe(200);
    await cortex.changePassword(password, 'another password');
    expect(await status({ cookie })).toBe(401);
    await cortex.changePassword('another password', password);
  });
});
