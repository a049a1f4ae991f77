import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilteringLogBody } from '@rhizome/contracts/api/extraction';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { chunkScript, twoGroupDocument, useTwoGroups } from './chunk-history-fixture.ts';

/** `source_processing.attempt_retention_days` 0: the extraction runs as ever, and no attempt is recorded. */
describe('extraction attempts kept for 0 days', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    ollama = await startFakeOllama({ models: ['qwen3:8b'] });
    await useTwoGroups(call, ollama.url);
  }, 60_000);

  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  it('accepts 0 days and refuses fewer', async () => {
    const refused = await call('PATCH', '/settings', { source_processing: { attempt_retention_days: -1 } });
    expect(refused.status, refused.text).toBe(422);
    const accepted = await call('PATCH', '/settings', { source_processing: { attempt_retention_days: 0 } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ settings: { source_processing: { attempt_retention_days: 0 } } });
  });

  it('extracts and commits a source without recording an attempt of any chunk', async () => {
    ollama.scriptChat(...chunkScript.first, ...chunkScript.second);
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'two.txt', content: twoGroupDocument }], {
      domain: 'biographical',
      auto_confirm: 'true',
    });
    expect(accepted.status, accepted.text).toBe(202);
    const sourceId = (accepted.body as SourceResponseBody).id;
    const source = await waitForSource(server, cookie, sourceId, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    expect(source.extraction_entities_count).toBeGreaterThan(0);

    for (const chunk of [0, 1]) {
      const listed = await call('GET', `/sources/${sourceId}/chunks/${chunk}/attempts`);
      expect(listed.status, listed.text).toBe(200);
      expect((listed.body as { data: unknown[] }).data).toEqual([]);
    }
    const log = await call('GET', `/sources/${sourceId}/extraction/filteringlog`);
    expect(log.status, log.text).toBe(200);
    expect((log.body as FilteringLogBody).groups).toEqual([]);
    const { db } = await server.platform.databases.current();
    expect(await db('extraction_attempts').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await db('extraction_prompts').count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});
