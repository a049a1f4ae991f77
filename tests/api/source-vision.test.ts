import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { png } from '../../packages/core/test/sources/fixtures.ts';
import { fakeImageDescription } from '../support/fakes/controls.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

interface Chunks {
  data: { content: string }[];
  pagination: { total: number };
}

interface OllamaChat {
  model: string;
  messages: { role: string; content: string; images?: string[] }[];
  options?: { num_predict?: number };
}

/** Image sources: text from the vision model when one is configured, else indexed with their metadata and a clear note. */
describe('vision for image sources over HTTP', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const chatCalls = () =>
    ollama.requests.filter((request) => request.path === '/api/chat').map((request) => request.body as OllamaChat);
  const uploadImage = async (name: string, image: Buffer, fields: Record<string, string> = {}) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content: image }], {
      auto_confirm: 'true',
      extract_entities: 'false',
      ...fields,
    });
    expect(accepted.status, accepted.text).toBe(202);
    return (accepted.body as SourceResponseBody).id;
  };
  const settled = (id: string) => waitForSource(server, cookie, id, ['indexed', 'awaiting_confirmation', 'error']);
  const ftsHits = async (phrase: string) => {
    const { db } = await server.platform.databases.current();
    const rows = (await db.raw(
      'SELECT c.source_id FROM fts_chunks JOIN document_chunks c ON c.rowid = fts_chunks.rowid WHERE fts_chunks MATCH ?',
      [`"${phrase}"`],
    )) as { source_id: string }[];
    return rows.map((row) => row.source_id);
  };
  const useLocalVision = (visionModel: string | null) =>
    call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: 'qwen3:8b',
        localllm_extraction_model: 'qwen3:8b',
        localllm_vision_model: visionModel,
        vision_max_tokens: 777,
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
    });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    ollama = await startFakeOllama({ models: ['qwen3:8b', 'qwen3-vl:8b'] });
  });

  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  it('with the builtin provider and no vision model, indexes an image with its metadata and a note in loader_warnings', async () => {
    const source = await settled(await uploadImage('diagram.png', png(4, 3)));
    expect(source.status, source.error_message ?? '').toBe('indexed');
    expect(source.enable_vision).toBeNull();
    expect(source.chunk_count).toBe(0);
    expect(source.detection_proposal).toMatchObject({ no_text: true });
    expect(source.loader_warnings).toEqual([
      expect.stringMatching(/^No vision model is configured .*metadata only.*llm\.localllm_vision_model/),
    ]);
    expect(chatCalls()).toEqual([]);
  });

  it('with a local vision model, indexes the model’s transcription and description: in the chunks and by keyword', async () => {
    expect((await useLocalVision('qwen3-vl:8b')).status).toBe(200);
    const image = png(7, 5);
    const description = fakeImageDescription(image);
    const fingerprint = /fingerprint (\w+)/.exec(description)![1];

    ollama.setDelay(600);
    const id = await uploadImage('whiteboard.png', image);
    const during = await waitForSource(server, cookie, id, ['vision_pending', 'indexed', 'error']);
    ollama.setDelay(0);
    expect(during).toMatchObject({
      status: 'vision_pending',
      progress: 'indexing',
      step_description: expect.stringContaining('qwen3-vl:8b'),
    });

    const source = await settled(id);
    expect(source.status, source.error_message ?? '').toBe('indexed');
    expect(source.loader_warnings).toEqual([]);
    expect(source.chunk_count).toBeGreaterThan(0);
    expect(source.embedded_chunk_count).toBe(source.chunk_count);
    expect(source.index_timings).toMatchObject({ vision_ms: expect.any(Number) });
    // One vision call, counted for the source (its other call is the embedding) and in /llm/stats.
    expect(source).toMatchObject({ llm_total_calls: 2, llm_failed_calls: 0 });
    const stats = (
      (await call('GET', '/llm/stats')).body as {
        data: { by_model: { provider: string; model: string; operation: string; calls: number }[] };
      }
    ).data;
    expect(stats.by_model.filter((row) => row.operation === 'vision')).toEqual([
      expect.objectContaining({ provider: 'localllm', model: 'qwen3-vl:8b', calls: 1 }),
    ]);

    // The image went to the vision model, bytes intact, with the cap from llm.vision_max_tokens.
    const [sent] = chatCalls();
    expect(sent.model).toBe('qwen3-vl:8b');
    expect(sent.options?.num_predict).toBe(777);
    expect(sent.messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/transcribe/i) });
    expect(sent.messages[1].images).toEqual([image.toString('base64')]);

    const chunks = (await call('GET', `/sources/${id}/chunks`)).body as Chunks;
    expect(chunks.pagination.total).toBe(source.chunk_count);
    expect(chunks.data.map((chunk) => chunk.content).join(' ')).toContain(description);
    expect(await ftsHits(fingerprint)).toEqual([id]);
  });

  it('with enable_vision=false, indexes the image with its metadata only, without calling the model or warning', async () => {
    const before = chatCalls().length;
    const id = await uploadImage('photo.png', png(2, 9), { enable_vision: 'false' });
    const source = await settled(id);
    expect(source).toMatchObject({ status: 'indexed', enable_vision: false, chunk_count: 0, loader_warnings: [] });
    expect(chatCalls()).toHaveLength(before);
  });

  it('a vision model the server does not have leaves the image indexed with a warning, not an error', async () => {
    expect((await useLocalVision('llava:missing')).status).toBe(200);
    const source = await settled(await uploadImage('scan.png', png(3, 3)));
    expect(source.status, source.error_message ?? '').toBe('indexed');
    expect(source.chunk_count).toBe(0);
    expect(source.loader_warnings).toEqual([
      expect.stringMatching(
        /^The vision model llava:missing could not read the image .*read by OCR \(tesseract\) instead$/,
      ),
      expect.stringMatching(/^OCR \(tesseract\) found no text in the image/),
    ]);
  });
});
