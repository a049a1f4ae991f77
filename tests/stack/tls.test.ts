// HTTPS through nginx in front of the supervised stack, turned on, replaced and off through the API while it runs.
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { startStack } from '../../tools/stack/launch.ts';
import { nginxTlsSockets } from '../../tools/stack/render-nginx.ts';
import { freePorts, useStack, waitFor } from './helpers.ts';

const account = { username: 'admin', password: 'correct-horse-battery' };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The certificate the server showed, over HTTPS. */
  fingerprint: string | null;
}

interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The one certificate an HTTPS call trusts. */
  ca?: string;
}

/**
 * One request on a connection of its own (nginx reloads close kept-alive connections), over HTTPS
 * trusting `ca` alone when the URL says so.
 */
function call(url: string, init: CallInit = {}) {
  const transport = url.startsWith('https:') ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const request = transport.request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, ca: init.ca, agent: false },
      (response) => {
        const socket = response.socket as TLSSocket;
        const fingerprint = socket.encrypted ? socket.getPeerCertificate().fingerprint256 : null;
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, fingerprint }),
        );
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

const json = (body: unknown): CallInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const sessionCookie = (answer: Answer) =>
  [answer.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith('cc_session=')) ?? '';

/** A plain request as nginx gets it from another machine: through its own socket, the client named 192.0.2.9. */
function plainFromElsewhere(socketPath: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.end(
      `PROXY TCP4 192.0.2.9 127.0.0.1 40000 8888\r\nGET ${target} HTTP/1.1\r\nHost: kb.example.lan:8888\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe('HTTPS through nginx in front of the stack', () => {
  const running = useStack('rhizome-stack-tls-');
  let cookie = '';
  const port = () => new URL(running.stack.publicUrl).port;
  /** Plain HTTP from this machine, served whatever TLS does. */
  const send = (route: string, init: CallInit = {}) =>
    call(`http://127.0.0.1:${port()}/api/v1${route}`, { ...init, headers: { cookie, ...init.headers } });
  const sendSecure = (route: string, ca: string, init: CallInit = {}) =>
    call(`https://127.0.0.1:${port()}/api/v1${route}`, { ...init, ca });
  const servesHttps = (ca: string, fingerprint: string) =>
    waitFor(
      async () => {
        const answer = await sendSecure('/auth/status', ca).catch(() => undefined);
        // The stack's public URL follows the same change; both must have happened.
        return answer?.fingerprint === fingerprint && running.stack.publicUrl.startsWith('https:') ? answer : undefined;
      },
      15_000,
      `nginx to answer HTTPS with ${fingerprint}`,
    );
  const redirectedFromElsewhere = (target: string) =>
    plainFromElsewhere(nginxTlsSockets(path.join(running.dataDir, 'run')).plain, target);

  it('serves the self-signed certificate the API made, redirects plain HTTP from elsewhere and sends the cookie Secure', async () => {
    const setup = await send('/auth/setup', json(account));
    expect(setup.status).toBe(201);
    cookie = sessionCookie(setup).split(';')[0];
    expect(running.stack.publicUrl).toMatch(/^http:/);

    const enabled = await send('/settings/tls/selfsigned', { method: 'POST' });
    expect(enabled.status, enabled.body).toBe(200);
    const { fingerprint256 } = JSON.parse(enabled.body) as { fingerprint256: string };
    const pem = (await send('/settings/tls/certificate')).body;
    expect(new X509Certificate(pem).fingerprint256).toBe(fingerprint256);

    const status = await servesHttps(pem, fingerprint256);
    expect(JSON.parse(status.body)).toMatchObject({ setup_needed: false });
    expect(running.stack.publicUrl).toMatch(/^https:/);
    await expect(sendSecure('/auth/status', '')).rejects.toThrow(/self.signed/i);

    const login = await sendSecure('/auth/login', pem, json(account));
    expect(login.status, login.body).toBe(200);
    expect(sessionCookie(login)).toMatch(/; Secure/i);
    const me = await sendSecure('/auth/me', pem, { headers: { cookie: sessionCookie(login).split(';')[0] } });
    expect(JSON.parse(me.body)).toEqual({ username: account.username });

    // This machine keeps plain HTTP on the same port (so nginx got the client's real address); others are redirected.
    expect(JSON.parse((await send('/settings/tls/status')).body)).toMatchObject({ enabled: true });
    const redirected = await redirectedFromElsewhere('/api/v1/sources?limit=5');
    expect(redirected).toMatch(/^HTTP\/1\.1 308 /);
    expect(redirected).toMatch(/\r\nLocation: https:\/\/kb\.example\.lan:8888\/api\/v1\/sources\?limit=5\r\n/i);
  }, 60_000);

  it('replaces the certificate with an installed one without restarting nginx', async () => {
    const pidFile = path.join(running.dataDir, 'run', 'nginx.pid');
    const nginxPid = await fs.readFile(pidFile, 'utf8');
    const pair = await generate([{ name: 'commonName', value: 'rhizome.test' }], {
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const form = new FormData();
    form.append('cert_file', new Blob([pair.cert]), 'cert.pem');
    form.append('key_file', new Blob([pair.private]), 'key.pem');
    const encoded = new Response(form);
    const installed = await send('/settings/tls/custom', {
      method: 'POST',
      headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(installed.status, installed.body).toBe(200);
    expect(JSON.parse(installed.body)).toMatchObject({ mode: 'custom' });

    const answer = await servesHttps(pair.cert, new X509Certificate(pair.cert).fingerprint256);
    expect(answer.status).toBe(200);
    expect(await fs.readFile(pidFile, 'utf8')).toBe(nginxPid);
  }, 60_000);

  it('answers plain HTTP again once TLS is off', async () => {
    expect((await send('/settings/tls', { method: 'DELETE' })).status).toBe(204);
    await waitFor(async () => (running.stack.publicUrl.startsWith('http:') ? true : undefined), 15_000, 'plain HTTP');
    await expect(sendSecure('/auth/status', '')).rejects.toThrow();
    expect(JSON.parse((await send('/settings/tls/status')).body)).toMatchObject({ enabled: false });
    const login = await send('/auth/login', json(account));
    expect(login.status, login.body).toBe(200);
    expect(sessionCookie(login)).not.toMatch(/Secure/i);
    // nginx listens on the public port itself again, without its internal sockets.
    await expect(redirectedFromElsewhere('/')).rejects.toThrow(/ENOENT/);
  }, 60_000);
});

describe('a stack started with a certificate installed', () => {
  const running = useStack('rhizome-stack-tls-restart-');

  it('answers HTTPS on the public port from the start', async () => {
    const base = `${running.stack.publicUrl}/api/v1`;
    const setup = await call(`${base}/auth/setup`, json(account));
    const cookie = sessionCookie(setup).split(';')[0];
    const enabled = await call(`${base}/settings/tls/selfsigned`, { method: 'POST', headers: { cookie } });
    const { fingerprint256 } = JSON.parse(enabled.body) as { fingerprint256: string };
    const pem = (await call(`${base}/settings/tls/certificate`, { headers: { cookie } })).body;
    await running.stack.stop();

    const [publicPort, apiPort, authPort, redisPort, supervisorPort] = await freePorts(5);
    const again = await startStack({
      dataDir: running.dataDir,
      configDir: path.join(running.dataDir, 'config'),
      publicPort,
      apiPort,
      authPort,
      redisPort,
      supervisorPort,
    });
    try {
      expect(again.publicUrl).toBe(`https://127.0.0.1:${publicPort}`);
      const status = await call(`${again.publicUrl}/api/v1/auth/status`, { ca: pem });
      expect(status.status).toBe(200);
      expect(status.fingerprint).toBe(fingerprint256);
    } finally {
      await again.stop();
    }
  }, 120_000);
});
