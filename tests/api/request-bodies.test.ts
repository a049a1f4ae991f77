import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';

interface Operation {
  method: string;
  path: string;
  requestBody?: { content: Record<string, unknown> };
}

function expectEnvelope(result: CallResult, status: number): { error: string; message: string } {
  expect(result.status, `${result.status} ${result.text}`).toBe(status);
  const body = result.body as { error: string; message: string; details: unknown };
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.details === null || typeof body.details === 'object').toBe(true);
  return body;
}

interface RawExchange {
  /** Status line and headers, and whatever body arrived before the server closed or the body was complete. */
  response: string;
  status: number;
  /** Body bytes written before the response began. */
  bytesSent: number;
}

const piece = Buffer.alloc(64 * 1024, 'a');
/** The same bytes framed as one chunk of a chunked body. */
const chunkedPiece = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
const hugeBody = 120 * 1024 * 1024;

/**
 * Sends `head`, then `filler` again and again until the server answers or `maxBytes` went out: what a
 * client streaming a huge body sees, without ever holding that body in memory here.
 */
function streamUntilAnswered(port: number, head: string, filler: Buffer, maxBytes = hugeBody): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let bytesSent = 0;
    let response = '';
    let answered = false;
    const finish = () => {
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
      resolve({ response, status, bytesSent });
    };
    socket.on('data', (data: Buffer) => {
      answered = true;
      response += data.toString('utf8');
      if (/\r\n\r\n[\s\S]*\}$/.test(response)) finish();
    });
    socket.on('close', finish);
    socket.on('error', (error) => (answered ? finish() : reject(error)));
    socket.write(head, () => {
      const pump = () => {
        while (!answered && !socket.destroyed && bytesSent < maxBytes) {
          bytesSent += filler.length;
          if (!socket.write(filler)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      setImmediate(pump);
    });
  });
}

const loginHead = (port: number, headers: string) =>
  `POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${headers}\r\n`;

describe('request bodies', () => {
  let server: TestServer;
  let cookie: string;
  let operations: Operation[];
  const port = () => Number(new URL(server.url).port);

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const doc = (await server.call('GET', '/openapi.json', { cookie })).body as {
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
    };
    operations = Object.entries(doc.paths).flatMap(([apiPath, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        ...operation,
        method: method.toUpperCase(),
        path: apiPath,
      })),
    );
  });
  afterAll(() => server?.stop());

  describe('in a content type other than JSON', () => {
    it('PATCH /settings sent as text/plain is refused with 415 and changes nothing', async () => {
      const before = await server.call('GET', '/settings', { cookie });
      const refused = await server.call('PATCH', '/settings', {
        cookie,
        rawBody: JSON.stringify({ logging: { level: 'DEBUG' } }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(expectEnvelope(refused, 415).message).toMatch(/application\/json/);
      expect((await server.call('GET', '/settings', { cookie })).body).toEqual(before.body);
    });

    it('POST /system/processing/pause with an XML body is refused with 415 and does not pause', async () => {
      const refused = await server.call('POST', '/system/processing/pause', {
        cookie,
        rawBody: '<pause><reason>xml</reason></pause>',
        headers: { 'content-type': 'application/xml' },
      });
      expectEnvelope(refused, 415);
      expect((await server.call('GET', '/system/processing/status', { cookie })).body).toMatchObject({
        paused: false,
      });
    });

    it('takes an empty body in any content type on an endpoint whose body is optional', async () => {
      const paused = await server.call('POST', '/system/processing/pause', {
        cookie,
        rawBody: '',
        headers: { 'content-type': 'text/plain' },
      });
      expect(paused.status, paused.text).toBe(200);
      const resumed = await server.call('POST', '/system/processing/resume', { cookie });
      expect(resumed.status, resumed.text).toBe(200);
    });

    it('answers 415 on every JSON endpoint of the OpenAPI document to a form-encoded body', async () => {
      // MCP's transport checks the session before the body and answers in its own terms (400 without one).
      const jsonOperations = operations.filter(
        (operation) => operation.requestBody?.content['application/json'] && operation.path !== '/mcp',
      );
      expect(jsonOperations.length).toBeGreaterThan(60);
      for (const { method, path: apiPath } of jsonOperations) {
        const result = await server.call(method, apiPath.replace(/\{\w+\}/g, 'x'), {
          cookie,
          rawBody: 'name=value&other=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(result.status, `${method} ${apiPath}: ${result.text}`).toBe(415);
      }
    });

    it('keeps multipart uploads on the multipart endpoints', async () => {
      const form = new FormData();
      form.append('file', new Blob(['Marie Curie was born in Warsaw in 1867 and studied in Paris.']), 'curie.txt');
      const response = await fetch(`${server.base}/sources`, { method: 'POST', headers: { cookie }, body: form });
      expect(response.status, await response.text()).toBe(202);
    });
  });

  describe('on the public endpoints', () => {
    it('refuses a login body declared larger than the small public limit with 413 before reading it', async () => {
      const exchange = await streamUntilAnswered(port(), loginHead(port(), `Content-Length: ${hugeBody}\r\n`), piece);
      expect(exchange.status, exchange.response).toBe(413);
      expect(exchange.response).toContain('"PAYLOAD_TOO_LARGE"');
      expect(exchange.bytesSent).toBeLessThan(8 * 1024 * 1024);
    });

    it('refuses a chunked login body with 413 once it passes the limit while streaming', async () => {
      const exchange = await streamUntilAnswered(
        port(),
        loginHead(port(), 'Transfer-Encoding: chunked\r\n'),
        chunkedPiece,
      );
      expect(exchange.status, exchange.response.slice(0, 300)).toBe(413);
      expect(exchange.bytesSent).toBeLessThan(8 * 1024 * 1024);
    });

    it('applies the rate limit before the body: an address over the limit gets 429 for a huge body too', async () => {
      const fresh = await startTestServer();
      try {
        const freshCookie = await setUpAccount(fresh);
        const limited = await fresh.call('PATCH', '/settings', {
          cookie: freshCookie,
          body: { local_auth: { login_max_attempts: 1 } },
        });
        expect(limited.status, limited.text).toBe(200);
        const wrong = await fresh.call('POST', '/auth/login', {
          body: { username: 'operator', password: 'wrong one!' },
        });
        expect(wrong.status, wrong.text).toBe(401);
        const freshPort = Number(new URL(fresh.url).port);
        const exchange = await streamUntilAnswered(
          freshPort,
          loginHead(freshPort, `Content-Length: ${hugeBody}\r\n`),
          piece,
        );
        expect(exchange.status, exchange.response).toBe(429);
      } finally {
        await fresh.stop();
      }
    });

    it('still logs in with an ordinary body', async () => {
      const login = await server.call('POST', '/auth/login', {
        body: { username: 'operator', password: 'correct horse battery' },
      });
      expect(login.status, login.text).toBe(200);
    });
  });
});
