import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deltasOf, fakeReply, wordCount, type FakeProviderControls } from './controls.ts';

/**
 * The plumbing the cloud fakes share: a node:http server on 127.0.0.1 that records every request,
 * answers `failNext` failures with the provider's error body, delays answers (stopping when the client
 * goes away) and writes JSON or SSE. Each fake supplies only its routes and wire formats.
 */

export interface FakeRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface SseEvent {
  /** The `event:` line (Anthropic names its events; OpenAI and Gemini do not). */
  event?: string;
  /** Written as is when a string (e.g. `[DONE]`), else as JSON. */
  data: unknown;
}

export interface FakeResponder {
  json(body: unknown, status?: number, headers?: Record<string, string>): void;
  sse(events: SseEvent[]): void;
}

export interface FakeServerSpec {
  /** The path prefix of the base URL adapters are configured with, e.g. `/v1`. */
  basePath: string;
  /** The provider's error body for an HTTP status. */
  errorBody(status: number): unknown;
  /** Answers a request; returns false when no route matches (answered 404). */
  route(request: FakeRequest, respond: FakeResponder): boolean;
}

export async function startHttpFake(spec: FakeServerSpec): Promise<FakeProviderControls> {
  const requests: FakeProviderControls['requests'] = [];
  const failures: { status: number; headers: Record<string, string> }[] = [];
  let delayMs = 0;

  const server = await serveOnLoopback(async (req, res) => {
    const target = new URL(req.url ?? '/', 'http://fake');
    const body = parseJson(await readBody(req));
    requests.push({ method: req.method ?? 'GET', path: target.pathname + target.search, body, headers: req.headers });
    if (!(await waitUnlessGone(delayMs, res))) return;
    const respond = responderFor(res);
    const failure = failures.shift();
    if (failure) return respond.json(spec.errorBody(failure.status), failure.status, failure.headers);
    const request: FakeRequest = {
      method: req.method ?? 'GET',
      path: target.pathname,
      query: target.searchParams,
      body,
      headers: req.headers,
    };
    if (!spec.route(request, respond)) respond.json(spec.errorBody(404), 404);
  });

  return {
    url: `${server.origin}${spec.basePath}`,
    requests,
    failNext(status, count = 1, headers = {}) {
      for (let i = 0; i < count; i++) failures.push({ status, headers });
    },
    setDelay(ms) {
      delayMs = ms;
    },
    close: server.close,
  };
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** A node:http server on a free 127.0.0.1 port; a handler that throws answers 500 with the error's text. */
export async function serveOnLoopback(
  handle: (req: http.IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<LoopbackServer> {
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** The request body as text (every fake, the Ollama one included, reads bodies this way). */
export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Waits `ms`; resolves false as soon as the client disconnects, so an aborted call frees the fake at once. */
export function waitUnlessGone(ms: number, res: ServerResponse): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(!res.destroyed);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

function responderFor(res: ServerResponse): FakeResponder {
  return {
    json(body, status = 200, headers = {}) {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    },
    sse(events) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const { event, data } of events) {
        res.write(
          `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
        );
      }
      res.end();
    },
  };
}

/** One message of a chat request, reduced to what the shared fake behaviour needs. */
export interface FakeTurn {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  /** Images sent with a user message, decoded. */
  images?: Uint8Array[];
}

export interface FakeUsage {
  input: number;
  output: number;
}

export type FakeAnswer =
  | { kind: 'text'; text: string; deltas: string[]; usage: FakeUsage }
  | { kind: 'tool'; name: string; arguments: { query: string }; argumentDeltas: string[]; usage: FakeUsage };

/** The deterministic answer every fake gives (see controls.ts): echo the last user message, or call the first tool. */
export function answerChat(turns: FakeTurn[], toolNames: string[]): FakeAnswer {
  const input = turns.reduce((sum, turn) => sum + wordCount(turn.text), 0);
  const last = turns.at(-1);
  if (toolNames.length && last?.role === 'user' && last.text.includes('use tool')) {
    const args = { query: last.text };
    const json = JSON.stringify(args);
    return {
      kind: 'tool',
      name: toolNames[0],
      arguments: args,
      argumentDeltas: deltasOf(json),
      usage: { input, output: wordCount(json) },
    };
  }
  const lastUser = [...turns].reverse().find((turn) => turn.role === 'user');
  const text = fakeReply(lastUser?.text ?? '', lastUser?.images);
  return { kind: 'text', text, deltas: deltasOf(text), usage: { input, output: wordCount(text) } };
}

/** The text of a content field that is either a string or a list of parts with `text`. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      part && typeof part === 'object' && 'text' in part && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}
