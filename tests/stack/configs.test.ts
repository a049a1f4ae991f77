// The rendered nginx and queue-store configs, run by the real binaries against fake upstreams: what the
// proxy forwards, refuses and streams does not depend on the real services.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../tools/stack/binaries.ts';
import { renderNginxConf } from '../../tools/stack/render-nginx.ts';
import { renderRedisConf } from '../../tools/stack/render-redis.ts';
import { renderSupervisordConf } from '../../tools/stack/render-supervisord.ts';
import { freePort } from '../support/ports.ts';
import { waitFor } from './helpers.ts';

const run = promisify(execFile);
const edgeToken = 'edge-0123456789abcdef';
/** A bundle-sized script: larger than nginx's default proxy buffers. */
const webAsset = Array.from({ length: 60_000 }, (_, index) => `export const value${index} = ${index};`).join('\n');

interface Echo {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bodyLength: number;
}

async function listen(server: http.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as net.AddressInfo).port;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

describe('rendered nginx.conf in front of fake services', () => {
  let dir = '';
  let nginx: ChildProcess | undefined;
  let base = '';
  let confFile = '';
  const verifyCalls: Echo[] = [];
  let releaseStream: () => void = () => {};
  const servers: http.Server[] = [];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rhizome-nginx-'));
    const runDir = path.join(dir, 'run');
    const logsDir = path.join(dir, 'logs');
    await fs.mkdir(path.join(runDir, 'nginx'), { recursive: true });
    await fs.mkdir(logsDir);

    const authVerify = http.createServer((req, res) => {
      let bodyLength = 0;
      req.on('data', (chunk: Buffer) => (bodyLength += chunk.length));
      req.on('end', () => {
        verifyCalls.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyLength });
        const ok = req.headers.cookie === 'cc_session=good' || req.headers.authorization === 'Bearer cc_live_good';
        if (ok) res.writeHead(200, { 'X-Auth-User': 'alice' }).end();
        else res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"HTTP_401","message":"no"}');
      });
    });
    const api = http.createServer((req, res) => {
      if (req.url === '/api/v1/own-401') {
        res
          .writeHead(401, { 'Content-Type': 'application/json' })
          .end('{"error":"HTTP_401","message":"wrong password"}');
        return;
      }
      if (
        ['/api/v1/chats/c1/events', '/api/v1/events', '/api/v1/mcp', '/api/v1/openai/v1/chat/completions'].includes(
          req.url ?? '',
        )
      ) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: one\n\n');
        releaseStream = () => res.end('data: two\n\n');
        return;
      }
      if (req.url === '/assets/app-3f2a9c.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(webAsset);
        return;
      }
      let bodyLength = 0;
      req.on('data', (chunk: Buffer) => (bodyLength += chunk.length));
      req.on('end', () => {
        const echo: Echo = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyLength };
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(echo));
      });
    });
    servers.push(authVerify, api);
    const authPort = await listen(authVerify);
    const apiPort = await listen(api);
    const publicPort = await freePort();

    confFile = path.join(runDir, 'nginx.conf');
    await fs.writeFile(
      confFile,
      await renderNginxConf({
        listenHost: '127.0.0.1',
        listenPort: publicPort,
        apiUpstream: `127.0.0.1:${apiPort}`,
        authUpstream: `127.0.0.1:${authPort}`,
        runDir,
        logsDir,
        edgeToken,
        runAsRoot: process.getuid?.() === 0,
      }),
    );
    nginx = spawn(
      requireBinary('nginx'),
      ['-c', confFile, '-e', path.join(logsDir, 'nginx.log'), '-g', 'daemon off;'],
      { stdio: 'ignore' },
    );
    base = `http://127.0.0.1:${publicPort}`;
    await waitFor(
      () =>
        fetch(`${base}/`).then(
          () => true,
          () => undefined,
        ),
      10_000,
      'nginx',
    );
  }, 30_000);

  afterAll(async () => {
    await stopChild(nginx);
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const echo = async (response: Response): Promise<Echo> => {
    expect(response.status).toBe(200);
    return (await response.json()) as Echo;
  };

  it('passes nginx -t', async () => {
    const { stderr } = await run(requireBinary('nginx'), [
      '-t',
      '-c',
      confFile,
      '-e',
      path.join(dir, 'logs', 'nginx.log'),
    ]);
    expect(stderr).toContain('test is successful');
  });

  it('refuses /api/ without credentials with the minimal JSON body', async () => {
    const response = await fetch(`${base}/api/v1/auth/me`, { headers: { 'X-Auth-User': 'admin' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"error":"authentication_required"}');
  });

  it('forwards authorised requests with the verified user, the edge token and the client address', async () => {
    const body = 'x'.repeat(3 * 1024 * 1024); // above nginx's default 1 MB limit
    verifyCalls.length = 0;
    const seen = await echo(
      await fetch(`${base}/api/v1/sources?x=1`, {
        method: 'POST',
        headers: { Cookie: 'cc_session=good', 'X-Auth-User': 'admin', 'X-Real-IP': '10.9.9.9' },
        body,
      }),
    );
    expect(seen).toMatchObject({ method: 'POST', url: '/api/v1/sources?x=1', bodyLength: body.length });
    expect(seen.headers['x-auth-user']).toBe('alice');
    expect(seen.headers['x-auth-edge-token']).toBe(edgeToken);
    expect(seen.headers['x-real-ip']).toBe('127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    // The verify subrequest is a bodiless GET to auth-verify's endpoint carrying the credentials.
    expect(verifyCalls).toHaveLength(1);
    expect(verifyCalls[0]).toMatchObject({ method: 'GET', url: '/api/v1/auth/verify', bodyLength: 0 });
    expect(verifyCalls[0].headers.cookie).toBe('cc_session=good');
    expect(verifyCalls[0].headers['content-length']).toBeUndefined();
  });

  it('accepts a bearer API key', async () => {
    const seen = await echo(
      await fetch(`${base}/api/v1/auth/me`, { headers: { Authorization: 'Bearer cc_live_good' } }),
    );
    expect(seen.headers['x-auth-user']).toBe('alice');
    expect(verifyCalls.at(-1)?.headers.authorization).toBe('Bearer cc_live_good');
  });

  it.each(['/api/v1/auth/status', '/api/v1/auth/setup', '/api/v1/auth/login'])(
    'proxies public %s without auth and without a client X-Auth-User',
    async (route) => {
      verifyCalls.length = 0;
      const method = route.endsWith('status') ? 'GET' : 'POST';
      const seen = await echo(
        await fetch(`${base}${route}`, {
          method,
          headers: { 'X-Auth-User': 'admin' },
          body: method === 'POST' ? '{}' : undefined,
        }),
      );
      expect(seen.url).toBe(route);
      expect(seen.headers['x-auth-user']).toBeUndefined();
      expect(seen.headers['x-auth-edge-token']).toBe(edgeToken);
      expect(seen.headers['x-real-ip']).toBe('127.0.0.1');
      expect(verifyCalls).toHaveLength(0);
    },
  );

  it('serves the web interface at / without X-Auth-User', async () => {
    const seen = await echo(await fetch(`${base}/graph/view`, { headers: { 'X-Auth-User': 'admin' } }));
    expect(seen.url).toBe('/graph/view');
    expect(seen.headers['x-auth-user']).toBeUndefined();
  });

  it.each(['GET', 'POST'])(
    'proxies %s on the bare chat collection /api/v1/chats instead of redirecting it',
    async (method) => {
      const response = await fetch(`${base}/api/v1/chats`, {
        method,
        redirect: 'manual',
        headers: { Cookie: 'cc_session=good' },
        body: method === 'POST' ? '{}' : undefined,
      });
      const seen = await echo(response);
      expect(seen).toMatchObject({ method, url: '/api/v1/chats' });
      expect(seen.headers['x-auth-user']).toBe('alice');
    },
  );

  it('refuses the chat event stream without credentials, like the rest of /api/', async () => {
    const response = await fetch(`${base}/api/v1/chats/c1/events`);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"error":"authentication_required"}');
  });

  it('serves a bundle-sized web asset whole, compressed for clients that accept it', async () => {
    const response = await fetch(`${base}/assets/app-3f2a9c.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(webAsset);
  });

  it("passes the API server's own 401 through unchanged", async () => {
    const response = await fetch(`${base}/api/v1/own-401`, { headers: { Cookie: 'cc_session=good' } });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"error":"HTTP_401","message":"wrong password"}');
  });

  it('keeps the verify endpoint internal', async () => {
    expect((await fetch(`${base}/_auth_verify`, { headers: { Cookie: 'cc_session=good' } })).status).toBe(404);
  });

  // The fake streams without X-Accel-Buffering: only nginx's own location keeps these unbuffered.
  it.each(['/api/v1/chats/c1/events', '/api/v1/events', '/api/v1/mcp', '/api/v1/openai/v1/chat/completions'])(
    'streams %s without buffering',
    async (route) => {
      const response = await fetch(`${base}${route}`, { headers: { Cookie: 'cc_session=good' } });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const first = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('first event was buffered')), 3000)),
      ]);
      expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
      releaseStream();
      let rest = '';
      for (let part = await reader.read(); !part.done; part = await reader.read())
        rest += new TextDecoder().decode(part.value);
      expect(rest).toBe('data: two\n\n');
    },
  );
});

describe('rendered queue-store config', () => {
  let dir = '';
  let store: ChildProcess | undefined;

  afterAll(async () => {
    await stopChild(store);
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('binds 127.0.0.1, requires the password and uses the append-only file under its dir', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rhizome-valkey-'));
    const port = await freePort();
    const conf = path.join(dir, 'valkey.conf');
    await fs.mkdir(path.join(dir, 'data'));
    await fs.writeFile(
      conf,
      await renderRedisConf({ port, password: 'pw0123', dataDir: path.join(dir, 'data'), logsDir: dir }),
    );
    store = spawn(requireBinary('valkey-server', 'redis-server'), [conf], { stdio: 'ignore' });

    const ask = (commands: string) =>
      new Promise<string | undefined>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let reply = '';
        socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
        socket.on('error', () => resolve(undefined));
        socket.on('close', () => resolve(reply || undefined));
        socket.end(commands);
      });
    const unauthenticated = await waitFor(() => ask('PING\r\n'), 10_000, 'the queue store');
    expect(unauthenticated).toMatch(/^-NOAUTH/);
    expect(await ask('AUTH pw0123\r\nPING\r\nCONFIG GET appendonly\r\nCONFIG GET bind\r\n')).toBe(
      '+OK\r\n+PONG\r\n*2\r\n$10\r\nappendonly\r\n$3\r\nyes\r\n*2\r\n$4\r\nbind\r\n$9\r\n127.0.0.1\r\n',
    );
    await waitFor(
      async () => ((await fs.readdir(path.join(dir, 'data'))).length > 0 ? true : undefined),
      5000,
      'the append-only file',
    );
    expect((await fs.readFile(path.join(dir, 'valkey.log'), 'utf8')).length).toBeGreaterThan(0);
  }, 20_000);
});

describe('rendered supervisord.conf', () => {
  it('names the five programs, their logs and the credentials, and refuses unsafe values', async () => {
    const options = {
      repoDir: '/repo',
      dataDir: '/data dir',
      configDir: '/config',
      runDir: '/data dir/run',
      logsDir: '/data dir/logs',
      supervisorPort: 9011,
      supervisorPassword: 'sv0123',
      apiPort: 8080,
      authPort: 8081,
      queueUrl: 'redis://:q0123@127.0.0.1:6390/0',
      supervisorUrl: 'http://rhizome:sv0123@127.0.0.1:9011/RPC2',
      nodeBin: '/usr/bin/node',
      nginxBin: '/usr/sbin/nginx',
      queueStoreBin: '/usr/bin/redis-server',
    };
    const conf = await renderSupervisordConf(options);
    expect(conf).not.toContain('{{');
    for (const program of ['valkey', 'auth-verify', 'cortex-api', 'neuron-worker', 'nginx'])
      expect(conf).toContain(`[program:${program}]`);
    expect(conf).toContain('port=127.0.0.1:9011\nusername=rhizome\npassword=sv0123');
    expect(conf).toContain(
      'command="/usr/sbin/nginx" -c "/data dir/run/nginx.conf" -e "/data dir/logs/nginx.log" -g "daemon off;"',
    );
    expect(conf).toContain('stdout_logfile=/data dir/logs/cortex.stdout.log');
    expect(conf).toContain(
      'HOST="127.0.0.1",PORT="8080",RHIZOME_DATA_DIR="/data dir",RHIZOME_CONFIG_DIR="/config",RHIZOME_QUEUE_URL="redis://:q0123@127.0.0.1:6390/0",RHIZOME_SUPERVISOR_URL="http://rhizome:sv0123@127.0.0.1:9011/RPC2"',
    );
    await expect(renderSupervisordConf({ ...options, dataDir: '/data%(here)s' })).rejects.toThrow(/not allowed/);
  });
});
