import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { spokenWav } from '../../packages/core/test/sources/loaders/media-fixtures.ts';
import {
  startFakeTranscriber,
  type FakeTranscriber,
} from '../../packages/core/test/sources/loaders/fake-transcriber.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { sleep } from '../support/wait.ts';

/** Long enough for a settings change's retry (queued in the same process as the PATCH) to have started. */
const settleMs = 1_500;

/**
 * A recording that ended in `error` because no transcriber could be used is indexed again, by itself,
 * once `transcription.*` names one; other failures stay as they are, and a change queues each source once.
 */
describe('recordings are transcribed once transcription is configured', () => {
  let server: TestServer;
  let cookie: string;
  let dir: string;
  let transcriber: FakeTranscriber;
  let wav: Buffer;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const patchSettings = async (body: unknown) => {
    const answer = await call('PATCH', '/settings', body);
    expect(answer.status, answer.text).toBe(200);
  };
  const useDatabase = async (name: string) =>
    expect((await call('PATCH', '/databases/current', { name })).status).toBe(200);
  const upload = async (name: string, content: Buffer | string) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
      auto_confirm: 'true',
      extract_entities: 'false',
    });
    expect(accepted.status, accepted.text).toBe(202);
    return (accepted.body as SourceResponseBody).id;
  };
  const source = async (id: string) => (await call('GET', `/sources/${id}`)).body as SourceResponseBody;
  const failed = (id: string) => waitForSource(server, cookie, id, ['error'], 45_000);
  const indexed = (id: string) => waitForSource(server, cookie, id, ['indexed'], 45_000);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rhizome-transcription-retry-'));
    wav = readFileSync(await spokenWav('the harbour master reads the tide table', path.join(dir, 'tide.wav')));
    transcriber = await startFakeTranscriber({ firstWords: 'the harbour master reads the tide table' });
    server = await startTestServer();
    cookie = await setUpAccount(server);
    // A server is asked for but none is named: recordings cannot be transcribed.
    await patchSettings({ transcription: { provider: 'openai', api_base: null } });
  });
  afterAll(async () => {
    await server.stop();
    await transcriber.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-indexes only the recordings that failed for want of a transcriber, in every database, once', async () => {
    const recording = await upload('tide.wav', wav);
    expect((await failed(recording)).error_message).toMatch(/transcription\.api_base/);
    const brokenPdf = await upload('broken.pdf', '%PDF-1.4\nnot a real document\n');
    const brokenFailure = await failed(brokenPdf);
    expect(brokenFailure.error_message).not.toMatch(/transcri/);
    expect((await call('POST', '/databases', { name: 'harbour' })).status).toBe(201);
    await useDatabase('harbour');
    const elsewhere = await upload('tide-copy.wav', wav);
    expect((await failed(elsewhere)).error_message).toMatch(/transcription\.api_base/);
    await useDatabase('default');

    // A change that still names no usable transcriber retries nothing.
    await patchSettings({ transcription: { language: 'en' } });
    await sleep(settleMs);
    expect((await source(recording)).status).toBe('error');
    expect(transcriber.requests).toHaveLength(0);

    await patchSettings({ transcription: { api_base: transcriber.baseUrl, api_key: 'sk-local' } });
    const retried = await indexed(recording);
    expect(retried.error_message).toBeNull();
    const found = (await call('GET', '/search?q=harbour%20master&search_type=keyword&limit=5')).body as {
      data: { chunk?: { source_id: string; content: string } }[];
    };
    expect(found.data.map((hit) => hit.chunk?.source_id)).toContain(recording);
    await useDatabase('harbour');
    try {
      await indexed(elsewhere);
    } finally {
      await useDatabase('default');
    }
    expect(transcriber.requests).toHaveLength(2);
    expect(await source(brokenPdf)).toMatchObject({ status: 'error', error_message: brokenFailure.error_message });

    // The next change finds nothing left to retry: the done recordings are not transcribed again.
    await patchSettings({ transcription: { model: 'whisper-large' } });
    await sleep(settleMs);
    expect((await source(recording)).status).toBe('indexed');
    expect((await source(brokenPdf)).status).toBe('error');
    expect(transcriber.requests).toHaveLength(2);
  }, 180_000);
});
