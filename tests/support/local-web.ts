import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real web server on 127.0.0.1 for http.request: echo, flaky and slow answers, and what it received. */
export interface LocalWeb {
  url: string;
  requests: { method: string; path: string; body: string; headers: http.IncomingHttpHeaders }[];
  /** Requests to /slow whose client went away before the answer. */
  abandoned: number;
  close(): Promise<void>;
}

export async function startLocalWeb(): Promise<LocalWeb> {
  const flaky = new Map<string, number>();
  const state: LocalWeb = { url: '', requests: [], abandoned: 0, close: async () => undefined };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://local');
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: request.method ?? 'GET', path: url.pathname, body, headers: request.headers });
      const json = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname === '/echo')
        return json(200, {
          method: request.method,
          body: body ? (JSON.parse(body) as unknown) : null,
          query: Object.fromEntries(url.searchParams),
        });
      if (url.pathname === '/text') return response.writeHead(200, { 'content-type': 'text/plain' }).end('plain words');
      if (url.pathname === '/missing') return json(404, { error: 'nope' });
      if (url.pathname === '/flaky') {
        // Fails `fail` times per key, then answers.
        const key = url.searchParams.get('key') ?? '';
        const seen = (flaky.get(key) ?? 0) + 1;
        flaky.set(key, seen);
        return seen <= Number(url.searchParams.get('fail') ?? 1)
          ? json(503, { attempt: seen })
          : json(200, { attempt: seen });
      }
      if (url.pathname === '/slow') {
        const timer = setTimeout(
          () => json(200, { slept: Number(url.searchParams.get('ms')) }),
          Number(url.searchParams.get('ms') ?? 10_000),
        );
        response.on('close', () => {
          if (!response.writableEnded) {
            clearTimeout(timer);
            state.abandoned++;
          }
        });
        return;
      }
      json(404, { error: 'unknown path' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
