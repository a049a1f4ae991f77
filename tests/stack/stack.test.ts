// Journeys through the supervised stack: real nginx, queue store, supervisord and the three services.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../tools/stack/launch.ts';
import { freePorts, waitFor } from './helpers.ts';

interface LogsStatus {
  available: boolean;
  services: { name: string; state: string; pid: number | null }[];
}

const proxyRefusal = '{"error":"authentication_required"}';
const account = { username: 'admin', password: 'correct-horse-battery' };

describe('the supervised stack through nginx', () => {
  let dataDir = '';
  let stack: RunningStack | undefined;
  let cookie = '';

  const send = (route: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    fetch(`${stack!.publicUrl}/api/v1${route}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const sessionCookie = (response: Response): string => {
    const header = response.headers.getSetCookie().find((c) => c.startsWith('cc_session='));
    expect(header, 'a cc_session cookie').toBeDefined();
    return header!.split(';')[0];
  };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rhizome-stack-'));
    const [publicPort, apiPort, authPort, redisPort, supervisorPort] = await freePorts(5);
    stack = await startStack({ dataDir, configDir: path.join(dataDir, 'config'), publicPort, apiPort, authPort, redisPort, supervisorPort });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('(a) reports setup needed on the public status endpoint', async () => {
    const response = await send('/auth/status');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ setup_needed: true, authenticated: false });
  });

  it('(b) refuses an unauthenticated request at the proxy', async () => {
    const response = await send('/auth/me');
    expect(response.status).toBe(401);
    expect(await response.text()).toBe(proxyRefusal);
  });

  it('(c) sets up the account and authenticates with the session cookie', async () => {
    const setup = await send('/auth/setup', { method: 'POST', body: account });
    expect(setup.status).toBe(201);
    cookie = sessionCookie(setup);
    const me = await send('/auth/me', { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ username: account.username });
  });

  it('(d) accepts an API key until it is revoked', async () => {
    const created = await send('/auth/keys', { method: 'POST', headers: { Cookie: cookie }, body: { name: 'stack-test' } });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; name: string; key: string };
    expect(key.key).toMatch(/^cc_live_/);
    const bearer = { Authorization: `Bearer ${key.key}` };

    const me = await send('/auth/me', { headers: bearer });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ username: account.username });

    expect((await send(`/auth/keys/${key.id}`, { method: 'DELETE', headers: { Cookie: cookie } })).status).toBe(204);
    const refused = await send('/auth/me', { headers: bearer });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(proxyRefusal);
  });

  it('(e) refuses the old cookie right after logout', async () => {
    expect((await send('/auth/logout', { method: 'POST', headers: { Cookie: cookie } })).status).toBe(204);
    const refused = await send('/auth/me', { headers: { Cookie: cookie } });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(proxyRefusal);
  });

  it('(f) ignores a forged X-Auth-User sent straight to cortex-api', async () => {
    const response = await fetch(`${stack!.apiDirectUrl}/api/v1/auth/me`, { headers: { 'X-Auth-User': account.username } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'AUTH_REQUIRED' });
  });

  it('(g) reports the supervised processes and sees auth-verify restarted after a kill', async () => {
    const login = await send('/auth/login', { method: 'POST', body: account });
    expect(login.status).toBe(200);
    cookie = sessionCookie(login);
    const status = async (): Promise<LogsStatus | undefined> => {
      const response = await send('/logs/status', { headers: { Cookie: cookie } }).catch(() => undefined);
      return response?.status === 200 ? ((await response.json()) as LogsStatus) : undefined;
    };

    const before = await status();
    expect(before?.available).toBe(true);
    for (const name of ['cortex-api', 'neuron-worker', 'auth-verify', 'nginx', 'valkey']) {
      const service = before!.services.find((s) => s.name === name);
      expect(service, name).toMatchObject({ state: 'RUNNING' });
      expect(service!.pid, name).toBeGreaterThan(0);
    }

    const killed = before!.services.find((s) => s.name === 'auth-verify')!.pid!;
    process.kill(killed, 'SIGKILL');
    const restarted = await waitFor(
      async () => {
        const service = (await status())?.services.find((s) => s.name === 'auth-verify');
        return service?.state === 'RUNNING' && service.pid !== killed ? service : undefined;
      },
      15_000,
      'auth-verify to be RUNNING with a new pid',
    );
    expect(restarted.pid).toBeGreaterThan(0);
  }, 30_000);

  it('(h) passes the API description without credentials and answers errors of the API server unchanged', async () => {
    const document = await send('/openapi.json');
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toBe('3.1.0');
    const wrongPassword = await send('/auth/login', { method: 'POST', body: { ...account, password: 'not the password' } });
    expect(wrongPassword.status).toBe(401);
    expect(await wrongPassword.json()).toMatchObject({ error: 'HTTP_401' });
    const again = await send('/auth/setup', { method: 'POST', body: account });
    expect(again.status).toBe(409);
  });

  it('(i) ends every session at once on password and username changes', async () => {
    const first = sessionCookie(await send('/auth/login', { method: 'POST', body: account }));
    const wrong = await send('/auth/password', { method: 'POST', headers: { Cookie: first }, body: { old_password: 'nope nope', new_password: 'another-password' } });
    expect(wrong.status).toBe(403);
    const changed = await send('/auth/password', { method: 'POST', headers: { Cookie: first }, body: { old_password: account.password, new_password: 'another-password' } });
    expect(changed.status).toBe(204);
    expect(await (await send('/auth/me', { headers: { Cookie: first } })).text()).toBe(proxyRefusal);

    const second = sessionCookie(await send('/auth/login', { method: 'POST', body: { ...account, password: 'another-password' } }));
    const renamed = await send('/auth/username', { method: 'POST', headers: { Cookie: second }, body: { password: 'another-password', new_username: 'operator2' } });
    expect(renamed.status).toBe(200);
    const fresh = sessionCookie(renamed);
    expect((await send('/auth/me', { headers: { Cookie: second } })).status).toBe(401);
    const me = await send('/auth/me', { headers: { Cookie: fresh } });
    expect(await me.json()).toEqual({ username: 'operator2' });
  });

  it('(j) finishes a task whose neuron-worker was killed mid-run, after supervisord restarts it', async () => {
    const cookie = sessionCookie(await send('/auth/login', { method: 'POST', body: { username: 'operator2', password: 'another-password' } }));
    const headers = { Cookie: cookie };
    const submitted = await send('/queue/tasks', { method: 'POST', headers, body: { queue: 'operations', operation: 'system.sleep', data: { ms: 3000 } } });
    expect(submitted.status).toBe(201);
    const { task_id } = (await submitted.json()) as { task_id: string };
    const task = async () => (await (await send(`/queue/tasks/${task_id}`, { headers })).json()) as { status: string; attempts: number };
    await waitFor(async () => ((await task()).status === 'running' ? true : undefined), 15_000, 'the task to run');

    const status = (await (await send('/logs/status', { headers })).json()) as LogsStatus;
    const killed = status.services.find((s) => s.name === 'neuron-worker')!.pid!;
    process.kill(killed, 'SIGKILL');
    const done = await waitFor(async () => {
      const current = await task();
      return current.status === 'completed' ? current : undefined;
    }, 45_000, 'the task to complete on the restarted worker');
    expect(done.attempts).toBe(2);
    const after = (await (await send('/logs/status', { headers })).json()) as LogsStatus;
    const worker = after.services.find((s) => s.name === 'neuron-worker')!;
    expect(worker.state).toBe('RUNNING');
    expect(worker.pid).not.toBe(killed);
  }, 60_000);
});
