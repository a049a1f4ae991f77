// The embedded default's first-session journey, through nginx in front of the supervised stack, and the
// proxy checked route by route against cortex-api answering directly.
import { describe, expect, it } from 'vitest';
import { readEvents } from '../support/chats-sse.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { journeySteps } from '../support/journey.ts';
import { call } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { useStack } from './helpers.ts';

interface ApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/** Status and content type only: the body is not waited for, since event streams never end by themselves. */
async function statusLine(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  await response.body?.cancel();
  return `${response.status} ${response.headers.get('content-type')}`;
}

async function whole(url: string): Promise<{ status: number; contentType: string | null; body: Buffer }> {
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** The first `data:` frame of an event stream, or a timeout: a buffering proxy would hold it back. */
async function firstFrame(url: string, headers: Record<string, string>, timeoutMs: number): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(url, { headers, signal: abort.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!/^data: .*\n\n/m.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    return text;
  } catch (error) {
    throw new Error(`no event from ${url} within ${timeoutMs} ms: ${String(error)}`);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

describe('a first session through nginx in front of the stack', () => {
  const running = useStack('rhizome-stack-journey-');
  const publicApi = () => `${running.stack.publicUrl}/api/v1`;

  const { credentials } = journeySteps(publicApi);

  it('answers every GET route of the API description through nginx as cortex-api answers it directly', async () => {
    const document = (await (await fetch(`${publicApi()}/openapi.json`)).json()) as ApiDocument;
    const routes = Object.entries(document.paths)
      .filter(([, operations]) => operations.get)
      .map(([route]) => route.replace(/\{[^}]+\}/g, 'unknown'));
    expect(routes.length).toBeGreaterThan(50);
    const headers = { authorization: `Bearer ${credentials().key}` };
    // The registry routes would otherwise try the default public registry: keep them on this machine.
    const local = await call(publicApi(), 'PATCH', '/settings', {
      key: credentials().key,
      body: { registry: { url: 'http://127.0.0.1:9' } },
    });
    expect(local.status, local.text).toBe(200);
    // The first GET /graph/snapshot answers 204 and queues the build: have it built, so both sides see it.
    await until(async () => (await statusLine(`${publicApi()}/graph/snapshot`, headers)).startsWith('200'), {
      timeoutMs: 30_000,
      what: 'the graph snapshot to be built',
    });
    const differences: string[] = [];
    for (const route of routes) {
      const [proxied, direct] = [
        await statusLine(`${publicApi()}${route}`, headers),
        await statusLine(`${running.stack.apiDirectUrl}/api/v1${route}`, headers),
      ];
      if (proxied !== direct) differences.push(`GET ${route}: nginx ${proxied}, cortex-api ${direct}`);
    }
    expect(differences).toEqual([]);
  }, 120_000);

  it('delivers the first event of every parameterless event stream through nginx at once', async () => {
    const document = (await (await fetch(`${publicApi()}/openapi.json`)).json()) as ApiDocument;
    const streams = Object.entries(document.paths)
      // GET /mcp streams only inside a session opened by a POST (tests/api/mcp.test.ts covers it).
      .filter(
        ([route, operations]) =>
          !route.includes('{') && route !== '/mcp' && operations.get?.responses['200']?.content?.['text/event-stream'],
      )
      .map(([route]) => route);
    const headers = { authorization: `Bearer ${credentials().key}` };
    for (const route of streams)
      expect(await firstFrame(`${publicApi()}${route}`, headers, 5000), route).toMatch(/^data: /m);
  });

  it('serves the web interface, any path outside /api and its assets exactly as cortex-api does', async () => {
    const page = await whole(`${running.stack.publicUrl}/`);
    const assets = [...page.body.toString('utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map(
      (match) => match[1],
    );
    for (const route of ['/', '/graph', '/sources/src_123/chunks', ...assets]) {
      const [proxied, direct] = [
        await whole(`${running.stack.publicUrl}${route}`),
        await whole(`${running.stack.apiDirectUrl}${route}`),
      ];
      expect({ route, status: proxied.status, contentType: proxied.contentType }).toEqual({
        route,
        status: direct.status,
        contentType: direct.contentType,
      });
      expect(proxied.body.equals(direct.body), route).toBe(true);
    }
  });

  it('streams a chat answer through nginx while the model is still writing it', async () => {
    const model = 'qwen3:8b';
    const ollama: FakeOllama = await startFakeOllama({ models: [model] });
    try {
      const { cookie, key } = credentials();
      const api = (method: string, route: string, body?: unknown) => call(publicApi(), method, route, { key, body });
      const configured = await api('PATCH', '/settings', {
        llm: {
          chat_provider: 'localllm',
          localllm_chat_model: model,
          localllm_extraction_model: model,
          localllm_instances: [{ id: 'fake', name: 'Fake', base_url: ollama.url, enabled: true }],
        },
      });
      expect(configured.status, configured.text).toBe(200);
      const chat = (await api('POST', '/chats', { title: 'Streaming' })).body as { id: string };
      ollama.scriptChat({ deltas: Array.from({ length: 30 }, (_, index) => `word${index} `), intervalMs: 100 });
      const sent = await api('POST', `/chats/${chat.id}/send`, { content: 'Count slowly.' });
      expect(sent.status, sent.text).toBe(202);

      const arrivals: { type: string; at: number }[] = [];
      const read = await readEvents({ base: publicApi() }, cookie, chat.id, (event) => {
        arrivals.push({ type: event.type, at: Date.now() });
        return false;
      });
      expect(read.events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
      const contents = arrivals.filter((arrival) => arrival.type === 'content');
      expect(contents.length).toBeGreaterThan(5);
      // Thirty pieces 100 ms apart: buffered by the proxy, they would all arrive together with `done`. However
      // late the subscription (a late subscriber first gets the turn so far at once), pieces keep arriving before it.
      const done = arrivals.at(-1)!.at;
      expect(contents.filter((content) => done - content.at >= 300).length).toBeGreaterThanOrEqual(3);
    } finally {
      await ollama.close();
    }
  }, 60_000);
});
