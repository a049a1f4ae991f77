import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { freePort } from '../support/ports.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { call, tempDataDir } from '../support/server.ts';
import { readEvents } from '../support/chats-sse.ts';
import { startService, type ServiceProcess } from '../support/services.ts';

const model = 'qwen3:8b';

/** cortex-api and neuron-worker as separate processes: the answer streams from the worker to the client over Redis. */
describe('chats across processes (Redis pub/sub)', () => {
  let redis: TestRedis;
  let ollama: FakeOllama;
  let cortex: ServiceProcess;
  let worker: ServiceProcess;
  let base: string;
  let cookie: string;
  const api = (method: string, apiPath: string, body?: unknown) => call(base, method, apiPath, { cookie, body });

  beforeAll(async () => {
    redis = await startRedis();
    ollama = await startFakeOllama({ models: [model] });
    const env = { RHIZOME_DATA_DIR: tempDataDir(), RHIZOME_QUEUE_URL: `${redis.url}/0` };
    cortex = startService('services/cortex-api/src/main.ts', { ...env, PORT: String(await freePort()) });
    const [, url] = await cortex.waitFor(/cortex-api listening on (http:\/\/[\d.:]+)/);
    worker = startService('services/neuron-worker/src/main.ts', env);
    await worker.waitFor(/neuron-worker ready/);
    base = `${url}/api/v1`;
    cookie = (await call(base, 'POST', '/auth/setup', { body: { username: 'operator', password: 'long enough pw' } }))
      .cookie!;
    const configured = await api('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: model,
        localllm_extraction_model: model,
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
    });
    expect(configured.status, configured.text).toBe(200);
  });
  afterAll(async () => {
    for (const service of [worker, cortex]) await service?.stop();
    await ollama?.close();
    await redis?.stop();
  });

  it("streams the worker's answer through cortex-api, and a cancel reaches the worker", async () => {
    const chat = (await api('POST', '/chats', { title: 'Stack' })).body as { id: string };
    ollama.scriptChat({ deltas: ['Across ', 'processes.'] });
    expect((await api('POST', `/chats/${chat.id}/send`, { content: 'Hello?' })).status).toBe(202);
    const answered = await readEvents({ base }, cookie, chat.id);
    expect(answered.events.at(-1)).toMatchObject({ type: 'done', content: 'Across processes.' });

    const deltas = Array.from({ length: 60 }, (_, index) => `w${index} `);
    ollama.scriptChat({ deltas, intervalMs: 50 });
    expect((await api('POST', `/chats/${chat.id}/send`, { content: 'Count.' })).status).toBe(202);
    let cancel: Promise<unknown> | null = null;
    const { events } = await readEvents({ base }, cookie, chat.id, (event) => {
      if (event.type === 'content' && !cancel) cancel = api('POST', `/chats/${chat.id}/cancel`);
      return false;
    });
    expect(await cancel).toMatchObject({ status: 202 });
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    const stored = (await api('GET', `/chats/${chat.id}`)).body as { status: string; messages: { content: string }[] };
    expect(stored.status).toBe('active');
    expect(stored.messages.at(-1)!.content).toMatch(/^w0( w\d+)*\n\n\[Response stopped by the user\]$/);
    expect(ollama.scriptedDeliveries.at(-1)!.delivered).toBeLessThan(60);
  });
});
