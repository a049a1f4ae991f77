import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, type LocalLlmInstance, type Settings } from '@rhizome/contracts/settings';
import { completeWithPolicy, type CallPolicy } from '../../src/providers/llm/call-policy.ts';
import { embedWithPolicy } from '../../src/providers/embeddings/embed-policy.ts';
import { LlmError } from '../../src/providers/llm/errors.ts';
import type { LlmOperation } from '../../src/providers/llm/port.ts';
import { createLocalLlmChatAdapter } from '../../src/providers/localllm/chat-adapter.ts';
import { verifyServer } from '../../src/providers/localllm/client.ts';
import { createLocalLlmEmbeddingAdapter } from '../../src/providers/localllm/embedding-adapter.ts';
import { LocalLlmPool, type HealthChange, type LoadBalancing } from '../../src/providers/localllm/pool.ts';
import { describeAdapterContract } from '../../../../tests/support/llm-adapter-contract.ts';
import { fakeEmbedding, fakeReply } from '../../../../tests/support/fakes/controls.ts';
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from '../../../../tests/support/fakes/ollama.ts';
import { sleep } from '../../../../tests/support/wait.ts';

const policy: CallPolicy = { maxRetries: 2, retryDelaysMs: [10], maxDelayMs: 50, timeoutMs: 5000, idleTimeoutMs: 5000 };
const llm: Settings['llm'] = {
  ...defaultSettings().llm,
  localllm_num_ctx: 4096,
  localllm_num_batch: 256,
  thinking_for_chat: false,
};

const closers: (() => Promise<void>)[] = [];
const closeAll = async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
};
afterEach(closeAll);

async function fake(options?: FakeOllamaOptions): Promise<FakeOllama> {
  const server = await startFakeOllama(options);
  closers.push(() => server.close());
  return server;
}

function instancesOf(fakes: FakeOllama[]): LocalLlmInstance[] {
  return fakes.map((server, index) => ({
    id: 'abc'[index],
    name: `Box ${'ABC'[index]}`,
    base_url: server.url,
    enabled: true,
    healthy: false,
  }));
}

function chatRequests(server: FakeOllama) {
  return server.requests.filter((entry) => entry.path === '/api/chat');
}

function ask(content: string, operation: LlmOperation = 'chat') {
  return {
    operation,
    model: 'llama3.2',
    system: 'Be brief.',
    messages: [{ role: 'user' as const, content }],
    temperature: 0.2,
    maxTokens: 128,
  };
}

function healthChange(pool: LocalLlmPool, id: string, healthy: boolean): Promise<HealthChange> {
  return new Promise((resolve) => {
    const stop = pool.onHealthChange((change) => {
      if (change.id !== id || change.healthy !== healthy) return;
      stop();
      resolve(change);
    });
  });
}

async function balanced(count: number, strategy: LoadBalancing, options: { recheckMs?: number } = {}) {
  const fakes = await Promise.all(Array.from({ length: count }, () => fake()));
  const pool = new LocalLlmPool({ instances: instancesOf(fakes), strategy, ...options });
  const chat = createLocalLlmChatAdapter(pool, llm);
  return {
    fakes,
    pool,
    chat,
    call: async (content = 'hi') => (await completeWithPolicy(chat, ask(content), policy)).instanceId,
  };
}

describeAdapterContract(
  'localllm',
  async () => {
    const server = await fake();
    const pool = new LocalLlmPool({ instances: instancesOf([server]), strategy: 'round_robin' });
    return {
      fake: server,
      chat: createLocalLlmChatAdapter(pool, llm),
      model: 'llama3.2',
      embeddings: createLocalLlmEmbeddingAdapter(pool, { model: 'nomic-embed-text' }),
    };
  },
  closeAll,
);

describe('localllm chat adapter', () => {
  it('sends num_ctx, num_batch, temperature and num_predict in the Ollama options and names the instance', async () => {
    const server = await fake();
    const pool = new LocalLlmPool({ instances: instancesOf([server]), strategy: 'round_robin' });
    const result = await completeWithPolicy(
      createLocalLlmChatAdapter(pool, llm),
      ask('options please', 'title'),
      policy,
    );
    expect(result.instanceId).toBe('a');
    expect(chatRequests(server)[0].body).toMatchObject({
      model: 'llama3.2',
      stream: true,
      think: false,
      options: { num_ctx: 4096, num_batch: 256, temperature: 0.2, num_predict: 128 },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'options please' },
      ],
    });
  });

  it('sends the images of a user message as base64 on the Ollama message', async () => {
    const server = await fake({ models: ['qwen3-vl:8b'] });
    const pool = new LocalLlmPool({ instances: instancesOf([server]), strategy: 'round_robin' });
    const image = Uint8Array.from({ length: 777 }, (_, index) => (index * 13) % 256);
    const request = {
      ...ask('what does it say?', 'vision'),
      model: 'qwen3-vl:8b',
      messages: [
        { role: 'user' as const, content: 'what does it say?', images: [{ mediaType: 'image/jpeg', data: image }] },
      ],
    };
    const result = await completeWithPolicy(createLocalLlmChatAdapter(pool, llm), request, policy);
    expect(result.text).toBe(fakeReply('what does it say?', [image]));
    const sent = (chatRequests(server)[0].body as { messages: { role: string; content: string; images?: string[] }[] })
      .messages;
    expect(sent).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'what does it say?', images: [Buffer.from(image).toString('base64')] },
    ]);
  });

  it('sends the thinking flag of the request, and stops asking once a model says it cannot think', async () => {
    const server = await fake({
      models: ['deep:latest', 'plain:latest'],
      capabilities: { plain: ['completion', 'tools'] },
    });
    const pool = new LocalLlmPool({ instances: instancesOf([server]), strategy: 'round_robin' });
    const chat = createLocalLlmChatAdapter(pool, llm);
    const thinkFlags = () => chatRequests(server).map((entry) => (entry.body as { think?: boolean }).think);

    await completeWithPolicy(chat, { ...ask('x'), model: 'deep', thinking: true }, policy);
    await completeWithPolicy(chat, { ...ask('x', 'extraction'), model: 'deep', thinking: false }, policy);
    expect(thinkFlags()).toEqual([true, false]);

    const first = await completeWithPolicy(chat, { ...ask('no thoughts'), model: 'plain', thinking: true }, policy);
    expect(first.text).toBe('echo: no thoughts');
    await completeWithPolicy(chat, { ...ask('again'), model: 'plain', thinking: true }, policy);
    expect(thinkFlags().slice(2)).toEqual([true, false, false]);
  });

  it('fails a model the server does not have as model_missing with Ollama’s message', async () => {
    const server = await fake();
    const pool = new LocalLlmPool({ instances: instancesOf([server]), strategy: 'round_robin' });
    const error = await completeWithPolicy(
      createLocalLlmChatAdapter(pool, llm),
      { ...ask('x'), model: 'ghost' },
      policy,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({
      kind: 'model_missing',
      status: 404,
      message: expect.stringContaining('model "ghost" not found'),
    });
    expect(chatRequests(server)).toHaveLength(1);
  });

  it('check() lists models an answering instance lacks, with implicit :latest tags', async () => {
    const full = await fake({ models: ['llama3.2:latest', 'qwen3:8b'] });
    const partial = await fake({ models: ['llama3.2:latest'] });
    const pool = new LocalLlmPool({ instances: instancesOf([full, partial]), strategy: 'round_robin' });
    const chat = createLocalLlmChatAdapter(pool, llm);
    const result = await chat.check(['llama3.2', 'qwen3:8b', 'absent:1b'], AbortSignal.timeout(5000));
    expect(result).toMatchObject({ verified: true, missingModels: ['qwen3:8b', 'absent:1b'] });
    expect(result.message).toContain('Box B lacks qwen3:8b, absent:1b');

    partial.setModels(['llama3.2:latest', 'qwen3:8b']);
    full.setDown(true);
    expect(await chat.check(['llama3.2:latest', 'qwen3:8b'], AbortSignal.timeout(5000))).toMatchObject({
      verified: true,
      missingModels: [],
    });
    partial.setDown(true);
    const down = await chat.check(['llama3.2'], AbortSignal.timeout(5000));
    expect(down.verified).toBe(false);
    expect(down.message).toMatch(/no local model server answers/);
  });
});

describe('localllm load balancing', () => {
  it('round_robin alternates between two instances', async () => {
    const { fakes, call } = await balanced(2, 'round_robin');
    const answered = [await call(), await call(), await call(), await call()];
    expect(answered).toEqual(['a', 'b', 'a', 'b']);
    expect(fakes.map((server) => chatRequests(server).length)).toEqual([2, 2]);
  });

  it('round_robin skips an instance that went down and uses it again after it recovers', async () => {
    const { fakes, pool, call } = await balanced(2, 'round_robin', { recheckMs: 100 });
    const [, dead] = fakes;
    dead.setDown(true);
    const lost = healthChange(pool, 'b', false);
    // The call that lands on the dead instance fails over on the policy's retry.
    expect([await call(), await call(), await call(), await call()]).toEqual(['a', 'a', 'a', 'a']);
    expect(await lost).toMatchObject({ healthy: false, error: expect.stringMatching(/connect|socket|closed|fetch/i) });
    expect(chatRequests(dead)).toHaveLength(1);

    dead.setDown(false);
    await sleep(120);
    const back = healthChange(pool, 'b', true);
    expect(await call()).toBe('a'); // this pick starts the re-probe; the instance returns once it answers
    await back;
    expect([await call(), await call()]).toContain('b');
    expect(dead.requests.filter((entry) => entry.path === '/api/version').length).toBeGreaterThanOrEqual(1);
  });

  it('does not re-probe a dead instance more often than recheckMs', async () => {
    const { fakes, call } = await balanced(2, 'round_robin', { recheckMs: 60_000 });
    fakes[1].setDown(true);
    for (let i = 0; i < 6; i++) await call();
    expect(fakes[1].requests).toHaveLength(1);
  });

  it('least_busy sends a call to the instance with fewer calls in flight', async () => {
    const { fakes, call } = await balanced(2, 'least_busy');
    fakes[0].setDelay(400);
    const slow = call('slow');
    await sleep(50);
    expect(await call()).toBe('b');
    expect(await call()).toBe('b');
    expect(await slow).toBe('a');
    expect(await call()).toBe('a');
  });

  it('first_healthy uses the first instance until it fails, then the next', async () => {
    const { fakes, call } = await balanced(2, 'first_healthy');
    expect([await call(), await call(), await call()]).toEqual(['a', 'a', 'a']);
    fakes[0].setDown(true);
    expect([await call(), await call()]).toEqual(['b', 'b']);
    expect(chatRequests(fakes[1])).toHaveLength(2);
  });

  it('fails as unavailable when no instance is healthy', async () => {
    const { fakes, call } = await balanced(1, 'round_robin', { recheckMs: 60_000 });
    fakes[0].setDown(true);
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('no healthy local model server'),
    });
    expect(chatRequests(fakes[0])).toHaveLength(1);
  });

  it('keeps health across a settings update unless the base URL changed, and counts enabled instances', () => {
    const instances: LocalLlmInstance[] = [
      { id: 'a', name: 'A', base_url: 'http://127.0.0.1:1', enabled: true, healthy: false },
      { id: 'b', name: 'B', base_url: 'http://127.0.0.1:2', enabled: true, healthy: false },
    ];
    const pool = new LocalLlmPool({ instances, strategy: 'round_robin', recheckMs: 60_000 });
    pool.reportFailure('b', new LlmError('unavailable', 'connection refused'));
    pool.reportFailure('a', new LlmError('unavailable', 'busy', 503));
    pool.update(
      [...instances, { id: 'c', name: 'C', base_url: 'http://127.0.0.1:3', enabled: false, healthy: false }],
      'round_robin',
    );
    expect(pool.size).toBe(2);
    expect([pool.pick().id, pool.pick().id]).toEqual(['a', 'a']);
    pool.update([instances[0], { ...instances[1], base_url: 'http://127.0.0.1:4' }], 'round_robin');
    expect([pool.pick().id, pool.pick().id]).toEqual(['a', 'b']);
  });

  it('probeAll reports every configured instance', async () => {
    const [up, down] = [await fake({ version: '0.9.0' }), await fake()];
    down.setDown(true);
    const pool = new LocalLlmPool({
      instances: [
        ...instancesOf([up, down]),
        { id: 'off', name: 'Off', base_url: 'http://127.0.0.1:9', enabled: false, healthy: false },
      ],
      strategy: 'round_robin',
    });
    const [a, b, off] = await pool.probeAll(AbortSignal.timeout(5000));
    expect(a).toMatchObject({
      id: 'a',
      enabled: true,
      healthy: true,
      version: '0.9.0',
      models: ['llama3.2:latest', 'nomic-embed-text:latest'],
      error: null,
    });
    expect(a.latency_ms).toBeGreaterThanOrEqual(0);
    expect(b).toMatchObject({
      id: 'b',
      healthy: false,
      version: null,
      models: null,
      latency_ms: null,
      error: expect.any(String),
    });
    expect(off).toMatchObject({ id: 'off', enabled: false, healthy: false, version: null });
  });
});

describe('localllm embedding adapter', () => {
  it('uses the configured instance while it is healthy and fails over when it is not', async () => {
    const [other, preferred] = [await fake(), await fake()];
    const pool = new LocalLlmPool({ instances: instancesOf([other, preferred]), strategy: 'round_robin' });
    const embeddings = createLocalLlmEmbeddingAdapter(pool, { model: 'nomic-embed-text', instanceId: 'b' });
    const embedCount = (server: FakeOllama) => server.requests.filter((entry) => entry.path === '/api/embed').length;

    const [vector] = await embedWithPolicy(embeddings, ['one'], policy);
    await embedWithPolicy(embeddings, ['two'], policy);
    expect(Array.from(vector)).toEqual(fakeEmbedding('one').map((value) => expect.closeTo(value, 5)));
    expect([embedCount(other), embedCount(preferred)]).toEqual([0, 2]);
    expect(preferred.requests.find((entry) => entry.path === '/api/embed')?.body).toEqual({
      model: 'nomic-embed-text',
      input: ['one'],
    });

    preferred.setDown(true);
    expect(await embedWithPolicy(embeddings, ['three', 'four'], policy)).toHaveLength(2);
    expect(embedCount(other)).toBe(1);
  });

  it('check() is not ready while the model is missing, and never pulls it', async () => {
    const server = await fake({ models: ['llama3.2:latest'] });
    const pool = new LocalLlmPool({ instances: instancesOf([server]), strategy: 'round_robin' });
    const embeddings = createLocalLlmEmbeddingAdapter(pool, { model: 'nomic-embed-text', instanceId: 'a' });
    const missing = await embeddings.check(AbortSignal.timeout(5000));
    expect(missing.ready).toBe(false);
    expect(missing.message).toContain('"nomic-embed-text" is not installed on Box A');
    const error = await embedWithPolicy(embeddings, ['x'], policy).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'model_missing', status: 404 });

    server.setModels(['nomic-embed-text:latest']);
    expect(await embeddings.check(AbortSignal.timeout(5000))).toMatchObject({ ready: true });
    expect(server.requests.some((entry) => entry.path === '/api/pull')).toBe(false);
  });
});

describe('verifyServer', () => {
  async function plainServer(status: number, body: string): Promise<string> {
    const server = http.createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/html' }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('reports version, models and response time of an Ollama server', async () => {
    const server = await fake({ version: '0.11.4', models: ['llama3.2:latest', 'qwen3:8b'] });
    const result = await verifyServer(`${server.url}/`, 2000);
    expect(result).toEqual({
      success: true,
      message: expect.stringContaining('0.11.4'),
      version: '0.11.4',
      models: ['llama3.2:latest', 'qwen3:8b'],
      model_count: 2,
      response_time_ms: expect.any(Number),
      error_type: null,
    });
  });

  it('classifies a refused connection', async () => {
    const url = await plainServer(200, '');
    await closeAll();
    expect(await verifyServer(url, 2000)).toMatchObject({
      success: false,
      error_type: 'no_model_server',
      version: null,
      models: null,
      model_count: null,
    });
  });

  it('classifies a server that does not answer in time', async () => {
    const server = await fake();
    server.setDelay(3000);
    const started = performance.now();
    const result = await verifyServer(server.url, 200);
    expect(result).toMatchObject({
      success: false,
      error_type: 'timeout',
      version: null,
      models: null,
      model_count: null,
    });
    expect(result.message).toContain('200 ms');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('classifies servers that are not Ollama and HTTP errors alike, and bad URLs', async () => {
    expect(await verifyServer(await plainServer(404, '<html>Not here</html>'), 2000)).toMatchObject({
      success: false,
      error_type: 'no_model_server',
    });
    expect(await verifyServer(await plainServer(200, '<html>Welcome</html>'), 2000)).toMatchObject({
      success: false,
      error_type: 'no_model_server',
    });
    const failing = await fake();
    failing.failNext(500);
    expect(await verifyServer(failing.url, 2000)).toMatchObject({
      success: false,
      error_type: 'no_model_server',
      message: expect.not.stringContaining('fake failure 500'),
    });
    expect(await verifyServer('ftp://example.com', 2000)).toMatchObject({
      success: false,
      error_type: 'invalid_url',
      response_time_ms: null,
    });
    expect(await verifyServer('not a url', 2000)).toMatchObject({ success: false, error_type: 'invalid_url' });
  });
});
