import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedText } from '../support/chats.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

interface Subsystem {
  status: string;
  message?: string;
  details?: Record<string, unknown>;
}

interface Health {
  status: string;
  healthy: boolean;
  version: string;
  timestamp: string;
  subsystems: Record<string, Subsystem>;
}

interface IndexDetails {
  vectors: number;
  model: string;
  indexes: Record<'chunks' | 'nodes' | 'templates', { state: string; indexed: number; stored: number }>;
}

describe('GET /health reports every subsystem as it is', () => {
  let server: TestServer;
  let cookie: string;
  const health = async () => {
    const result = await server.call('GET', '/health', { cookie });
    expect(result.status, result.text).toBe(200);
    return result.body as Health;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server?.stop());

  it('carries a top-level healthy flag, and no subsystem of the embedded default is left unconfigured', async () => {
    const body = await health();
    expect(body).toMatchObject({ healthy: true, version: expect.any(String), timestamp: expect.any(String) });
    expect(body.status).toMatch(/^(ok|degraded)$/);
    for (const name of ['database', 'queue', 'vector_index', 'llm', 'embeddings', 'disk']) {
      expect(body.subsystems[name].status, `${name}: ${JSON.stringify(body.subsystems[name])}`).not.toBe(
        'not_configured',
      );
    }
    expect(body.subsystems.vector_index).toMatchObject({ status: 'ok', details: { vectors: 0 } });
  });

  it('reports the vectors the index holds once a source is indexed, and not_configured only when vector search is off', async () => {
    await indexedText(
      server,
      cookie,
      'lighthouse.txt',
      'The lighthouse keeper lit the lamp every evening. Ships passed the rocks safely at night.',
    );
    const index = (await health()).subsystems.vector_index;
    expect(index.status, JSON.stringify(index)).toBe('ok');
    const details = index.details as unknown as IndexDetails;
    expect(details.vectors).toBeGreaterThan(0);
    expect(details.indexes.chunks).toMatchObject({ state: 'current', indexed: details.indexes.chunks.stored });
    expect(details.indexes.chunks.stored).toBeGreaterThan(0);

    expect(
      (await server.call('PATCH', '/settings', { cookie, body: { search: { enable_vector_search: false } } })).status,
    ).toBe(200);
    expect((await health()).subsystems.vector_index).toMatchObject({
      status: 'not_configured',
      message: expect.stringContaining('enable_vector_search'),
    });
    expect(
      (await server.call('PATCH', '/settings', { cookie, body: { search: { enable_vector_search: true } } })).status,
    ).toBe(200);
  });

  it('is not healthy while a subsystem is unavailable', async () => {
    const broken = await server.call('PATCH', '/settings', {
      cookie,
      body: {
        llm: {
          chat_provider: 'localllm',
          localllm_instances: [{ id: 'down', name: 'Down', base_url: 'http://127.0.0.1:9', enabled: true }],
        },
      },
    });
    expect(broken.status, broken.text).toBe(200);
    const body = await health();
    expect(body.subsystems.llm.status).toBe('unavailable');
    expect(body).toMatchObject({ status: 'degraded', healthy: false });
    expect((body as unknown as { checks: Record<string, { status: string }> }).checks.provider.status).toBe('error');
    expect(
      (await server.call('PATCH', '/settings', { cookie, body: { llm: { chat_provider: 'builtin' } } })).status,
    ).toBe(200);
    expect((await health()).healthy).toBe(true);
  });
});
