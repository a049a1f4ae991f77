import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  fingerprint: string | null;
}

interface RequestOptions {
  method?: string;
  body?: Buffer | string;
  headers?: Record<string, string>;
  /** Accept any certificate (only to fetch the one to trust). */
  insecure?: boolean;
}

/** One HTTPS request that trusts only `ca` and checks the name it is addressed by, as a careful client does. */
function httpsRequest(url: string, ca: string, options: RequestOptions = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: options.method ?? 'GET',
        ca,
        headers: options.headers,
        agent: false,
        rejectUnauthorized: !options.insecure,
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            fingerprint: (response.socket as import('node:tls').TLSSocket).getPeerCertificate().fingerprint256 ?? null,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A multipart body of PEM parts, as `curl -F cert_file=@cert.pem -F key_file=@key.pem` sends it. */
async function pemForm(parts: Record<string, string>): Promise<RequestOptions> {
  const form = new FormData();
  for (const [name, text] of Object.entries(parts)) form.append(name, new Blob([text]), `${name}.pem`);
  const encoded = new Response(form);
  return {
    method: 'POST',
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

describe('HTTPS on the embedded server', () => {
  let server: TestServer;
  let cookie: string;
  let port: string;
  /** The certificate the server answers with, as a client that trusts it holds it. */
  let trusted = '';
  const password = 'correct horse battery';

  const httpsCall = (apiPath: string, options: RequestOptions = {}) =>
    httpsRequest(`https://localhost:${port}/api/v1${apiPath}`, trusted, {
      ...options,
      headers: { cookie, ...options.headers },
    });
  const tlsStatus = async () =>
    JSON.parse((await httpsCall('/settings/tls/status')).body) as { fingerprint256: string; mode: string };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server, 'operator', password);
    port = new URL(server.url).port;
  });
  afterAll(() => server?.stop());

  it('switches to HTTPS with a self-signed certificate that a client can trust, and sends the cookie Secure', async () => {
    expect((await server.call('GET', '/settings/tls/status', { cookie })).body).toMatchObject({
      enabled: false,
      mode: null,
    });
    expect((await server.call('GET', '/settings/tls/certificate', { cookie })).status).toBe(404);

    const enabled = await server.call('POST', '/settings/tls/selfsigned?hostname=rhizome.test', { cookie });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ status: 'enabled', enabled: true, mode: 'self-signed' });
    const status = enabled.body as { hostnames: string[]; fingerprint256: string };
    expect(status.hostnames).toEqual(expect.arrayContaining(['localhost', 'rhizome.test', '127.0.0.1']));

    // Plain HTTP from this machine stays served (the CLI, scripts); from elsewhere it is redirected.
    const plain = await fetch(`http://127.0.0.1:${port}/api/v1/settings/tls/status`, { headers: { cookie } });
    expect(await plain.json()).toMatchObject({ enabled: true, mode: 'self-signed' });
    // Without the certificate in its trust store a client refuses the server.
    await expect(httpsRequest(`https://localhost:${port}/api/v1/health`, '')).rejects.toThrow(/self.signed/i);

    // What a user downloads to add to the trust store, fetched once without checking the certificate.
    const pem = (
      await httpsRequest(`https://localhost:${port}/api/v1/settings/tls/certificate`, '', {
        insecure: true,
        headers: { cookie },
      })
    ).body;
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    trusted = pem;

    const health = await httpsCall('/health');
    expect(health.status).toBe(200);
    expect(health.fingerprint).toBe(status.fingerprint256);

    const signIn = await httpsRequest(`https://localhost:${port}/api/v1/auth/login`, trusted, {
      method: 'POST',
      body: JSON.stringify({ username: 'operator', password }),
      headers: { 'content-type': 'application/json' },
    });
    expect(signIn.status, signIn.body).toBe(200);
    expect(String(signIn.headers['set-cookie'])).toMatch(/; Secure/);
  }, 120_000);

  it("refuses a key that is not the certificate's and a part over a megabyte, then installs a matching pair", async () => {
    const before = await tlsStatus();
    const pair = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 });
    const stranger = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 });

    const mismatched = await httpsCall(
      '/settings/tls/custom',
      await pemForm({ cert_file: pair.cert, key_file: stranger.private }),
    );
    expect(mismatched.status, mismatched.body).toBe(400);
    expect(JSON.parse(mismatched.body)).toMatchObject({ details: { field: 'key_file' } });
    const missing = await httpsCall('/settings/tls/custom', await pemForm({ cert_file: pair.cert }));
    expect(missing.status, missing.body).toBe(422);
    const huge = await httpsCall(
      '/settings/tls/custom',
      await pemForm({ cert_file: 'x'.repeat(1024 * 1024 + 1), key_file: pair.private }),
    );
    expect(huge.status, huge.body).toBe(413);
    expect(await tlsStatus()).toEqual(before);

    const installed = await httpsCall(
      '/settings/tls/custom',
      await pemForm({ cert_file: pair.cert, key_file: pair.private }),
    );
    expect(installed.status, installed.body).toBe(200);
    expect(JSON.parse(installed.body)).toMatchObject({ mode: 'custom', enabled: true });
    trusted = pair.cert;
    const next = await httpsCall('/health');
    expect(next.status).toBe(200);
    expect(next.fingerprint).toBe((await tlsStatus()).fingerprint256);
  }, 120_000);

  it('keeps HTTPS across a restart, and answers plain HTTP again once the certificate is removed', async () => {
    const { dataDir } = server;
    const { fingerprint256 } = await tlsStatus();
    await server.stop();
    server = await startTestServer({ dataDir });
    expect(server.url).toMatch(/^https:/);
    port = new URL(server.url).port;
    expect((await tlsStatus()).fingerprint256).toBe(fingerprint256);

    expect((await httpsCall('/settings/tls', { method: 'DELETE' })).status).toBe(204);
    const plainAgain = await fetch(`http://127.0.0.1:${port}/api/v1/settings/tls/status`, { headers: { cookie } });
    expect(await plainAgain.json()).toMatchObject({ enabled: false });
    await expect(httpsRequest(`https://localhost:${port}/api/v1/health`, trusted)).rejects.toThrow();
  }, 120_000);
});
