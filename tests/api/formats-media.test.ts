import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import {
  encodeAudio,
  noisyTextImage,
  scannedPdf,
  spokenWav,
  stillVideo,
} from '../../packages/core/test/sources/loaders/media-fixtures.ts';
import {
  startFakeTranscriber,
  type FakeTranscriber,
} from '../../packages/core/test/sources/loaders/fake-transcriber.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

/**
 * Scans, photos and recordings on the offline default: uploaded over HTTP, read by tesseract, ffmpeg and a
 * transcriber (a real-HTTP OpenAI-shaped server, or pocketsphinx), found by keyword search and cited to
 * their page or time.
 */
describe('scanned pages, photos, audio and video through upload and search', () => {
  let server: TestServer;
  let cookie: string;
  let dir: string;
  let transcriber: FakeTranscriber;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const upload = async (file: string, name = path.basename(file)) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content: readFileSync(file) }], {
      auto_confirm: 'true',
      extract_entities: 'false',
    });
    expect(accepted.status, accepted.text).toBe(202);
    return accepted.body as SourceResponseBody;
  };
  const settled = (id: string) => waitForSource(server, cookie, id, ['indexed', 'error'], 45_000);
  const hits = async (query: string) => {
    const answer = await call('GET', `/search?q=${encodeURIComponent(query)}&search_type=keyword&limit=10`);
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { data: SearchResultBody[] }).data.flatMap((hit) => (hit.chunk ? [hit.chunk] : []));
  };
  /** The page a character of a stored chunk is on: its first page, or the last page begun before it. */
  const pageOf = async (chunkId: string, offset: number) => {
    expect(offset).toBeGreaterThanOrEqual(0);
    const { db } = await server.platform.databases.current();
    const row = (await db('document_chunks').where({ id: chunkId }).first('page_number', 'chunk_metadata')) as {
      page_number: number | null;
      chunk_metadata: string | null;
    };
    const starts = row.chunk_metadata
      ? (JSON.parse(row.chunk_metadata) as { page_starts?: { offset: number; page: number }[] }).page_starts
      : undefined;
    return (starts ?? []).filter((start) => start.offset <= offset).at(-1)?.page ?? row.page_number;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rhizome-media-api-'));
    transcriber = await startFakeTranscriber({ firstWords: 'welcome to the lighthouse briefing', segmentSeconds: 20 });
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(async () => {
    await server.stop();
    await transcriber.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a mixed PDF: the text page from its layer, the scanned page by OCR, each hit cited to its page', async () => {
    const pdf = await scannedPdf(dir, 'contract', [
      { lines: ['Signed agreement between the parties.'], scan: false },
      { lines: ['Annex with the', 'Pemberton Quarry clause'], scan: true },
    ]);
    const source = await settled((await upload(pdf)).id);
    expect(source.status, source.error_message ?? '').toBe('indexed');
    expect(source.loader_warnings).toEqual([]);
    const [scanned] = await hits('Pemberton Quarry');
    expect(scanned.source_id).toBe(source.id);
    expect(await pageOf(scanned.chunk_id, scanned.content.indexOf('Pemberton'))).toBe(2);
    const [typed] = await hits('agreement parties');
    expect(await pageOf(typed.chunk_id, typed.content.indexOf('agreement'))).toBe(1);
  });

  it('reads a noisy photo of text by OCR when no vision model is configured (png and tiff)', async () => {
    for (const extension of ['png', 'tiff']) {
      const image = await noisyTextImage(
        dir,
        ['Whiteboard notes', `Zephyr ${extension} roadmap`],
        path.join(dir, `board.${extension}`),
      );
      const accepted = await upload(image);
      expect(accepted.content_type).toBe(`image/${extension}`);
      const source = await settled(accepted.id);
      expect(source.status, source.error_message ?? '').toBe('indexed');
      expect(source.chunk_count).toBeGreaterThan(0);
      expect((await hits(`Zephyr ${extension} roadmap`))[0]?.source_id).toBe(source.id);
    }
  });

  it('transcribes mp3 and a video through the configured server, each hit carrying its [hh:mm:ss] time', async () => {
    expect(
      (
        await call('PATCH', '/settings', {
          transcription: { api_base: transcriber.baseUrl, api_key: 'sk-local', model: 'whisper-1' },
        })
      ).status,
    ).toBe(200);
    const settings = (await call('GET', '/settings')).body as { transcription: { api_key: string | null } };
    expect(settings.transcription.api_key).toBe('configured');
    const wav = await spokenWav('welcome to the lighthouse briefing', path.join(dir, 'briefing.wav'));
    const mp3 = await encodeAudio(wav, path.join(dir, 'briefing.mp3'));
    const still = await noisyTextImage(dir, ['Screencast'], path.join(dir, 'still.png'));
    const mp4 = await stillVideo(still, wav, path.join(dir, 'briefing.mp4'));
    for (const [file, type] of [
      [mp3, 'audio/mpeg'],
      [mp4, 'video/mp4'],
    ] as const) {
      const accepted = await upload(file);
      expect(accepted.content_type).toBe(type);
      const source = await settled(accepted.id);
      expect(source.status, source.error_message ?? '').toBe('indexed');
      const found = (await hits('lighthouse briefing')).filter((chunk) => chunk.source_id === source.id);
      expect(found).toEqual([expect.objectContaining({ section: expect.stringMatching(/^00:00:00–00:00:0\d$/) })]);
      expect(found[0].content).toMatch(/^\[00:00:00\] welcome to the lighthouse briefing/);
    }
    expect(
      transcriber.requests.every(
        (request) => request.sampleRate === 16_000 && request.authorization === 'Bearer sk-local',
      ),
    ).toBe(true);
  });

  it('ends a recording in error naming the setting when transcription is off, and transcribes offline with pocketsphinx', async () => {
    const wav = await spokenWav(
      'hello world. this is a test. one two three four five. good morning',
      path.join(dir, 'hello.wav'),
    );
    await call('PATCH', '/settings', { transcription: { provider: 'none' } });
    const refused = await settled((await upload(wav)).id);
    expect(refused.status).toBe('error');
    expect(refused.error_message).toMatch(/transcription\.provider is 'none'.*set transcription\.provider/);

    await call('PATCH', '/settings', { transcription: { provider: 'pocketsphinx' } });
    const offline = await settled((await upload(wav, 'hello-offline.wav')).id);
    expect(offline.status, offline.error_message ?? '').toBe('indexed');
    expect((await hits('hello world')).map((chunk) => chunk.source_id)).toContain(offline.id);
  });

  it('refuses a bad transcription setting with a 4xx in the envelope', async () => {
    const answer = await call('PATCH', '/settings', {
      transcription: { provider: 'whisperer', api_base: 'not a url' },
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toMatchObject({ error: expect.anything() });
  });
});
