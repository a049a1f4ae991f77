import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { scannedPdf } from '../../packages/core/test/sources/loaders/media-fixtures.ts';
import { bytesOfBase64 } from '../support/fakes/controls.ts';
import { serveOnLoopback } from '../support/fakes/http-fake.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';

interface OllamaChat {
  model: string;
  messages: { role: string; content: string; images?: string[] }[];
}

/**
 * Image-only PDF pages read by a configured vision model (a real-HTTP fake Ollama), by tesseract when the
 * model fails, or by tesseract alone: found by keyword search and cited to their page.
 */
describe('scanned PDF pages and the vision model over HTTP', { timeout: 120_000 }, () => {
  let server: TestServer;
  let cookie: string;
  let dir: string;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const chatCalls = () =>
    ollama.requests.filter((request) => request.path === '/api/chat').map((request) => request.body as OllamaChat);
  /** A typed first page and a scanned second one holding `words`. */
  const uploadScan = async (name: string, words: string) => {
    const pdf = await scannedPdf(dir, name, [
      { lines: [`Cover letter for ${name}.`], scan: false },
      { lines: ['Annex scanned from paper', words], scan: true },
    ]);
    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: `${name}.pdf`, content: readFileSync(pdf) }],
      {
        auto_confirm: 'true',
        extract_entities: 'false',
      },
    );
    expect(accepted.status, accepted.text).toBe(202);
    const source = await waitForSource(
      server,
      cookie,
      (accepted.body as SourceResponseBody).id,
      ['indexed', 'error'],
      45_000,
    );
    expect(source.status, source.error_message ?? '').toBe('indexed');
    return source;
  };
  /** The page of the first keyword hit of `query` in `sourceId`, at the word `word`. */
  const citedPage = async (query: string, sourceId: string, word: string) => {
    const answer = await call('GET', `/search?q=${encodeURIComponent(query)}&search_type=keyword&limit=10`);
    expect(answer.status, answer.text).toBe(200);
    const hit = (answer.body as { data: SearchResultBody[] }).data
      .flatMap((result) => (result.chunk ? [result.chunk] : []))
      .find((chunk) => chunk.source_id === sourceId);
    expect(hit, `a hit for ${query}`).toBeDefined();
    const offset = hit!.content.indexOf(word);
    expect(offset).toBeGreaterThanOrEqual(0);
    const { db } = await server.platform.databases.current();
    const row = (await db('document_chunks').where({ id: hit!.chunk_id }).first('page_number', 'chunk_metadata')) as {
      page_number: number | null;
      chunk_metadata: string | null;
    };
    const starts = row.chunk_metadata
      ? (JSON.parse(row.chunk_metadata) as { page_starts?: { offset: number; page: number }[] }).page_starts
      : undefined;
    return (starts ?? []).filter((start) => start.offset <= offset).at(-1)?.page ?? row.page_number;
  };
  const useMode = async (mode: string) =>
    expect((await call('PATCH', '/settings', { ocr: { mode } })).status).toBe(200);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rhizome-scan-vision-'));
    ollama = await startFakeOllama({ models: ['qwen3:8b', 'qwen3-vl:8b'] });
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const configured = await call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: 'qwen3:8b',
        localllm_extraction_model: 'qwen3:8b',
        localllm_vision_model: 'qwen3-vl:8b',
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
      retries: { llm_max_retries: 0 },
    });
    expect(configured.status, configured.text).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
    await ollama.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('auto: the vision model reads the scanned page; its text is found by keyword and cited to page 2', async () => {
    await useMode('auto');
    ollama.requests.length = 0;
    ollama.scriptChat('Kestrel Bay tide tables for the spring season');
    const source = await uploadScan('tides', 'Pemberton Quarry clause');
    expect(source.loader_warnings).toEqual([]);
    expect(await citedPage('Kestrel tide', source.id, 'Kestrel')).toBe(2);
    expect(await citedPage('cover letter tides', source.id, 'Cover')).toBe(1);
    // The model read the page image; tesseract's reading of it was not needed.
    const [sent] = chatCalls();
    expect(sent.model).toBe('qwen3-vl:8b');
    expect(bytesOfBase64(sent.messages.at(-1)!.images![0]).subarray(1, 4).toString()).toBe('PNG');
    const quarry = await call('GET', '/search?q=Pemberton&search_type=keyword&limit=10');
    expect((quarry.body as { data: SearchResultBody[] }).data).toEqual([]);
  });

  it('shows each page while the model reads it: vision_pending and "scanned page n of 3" for each', async () => {
    await useMode('auto');
    const pdf = await scannedPdf(
      dir,
      'ledger',
      ['Osprey', 'Heron', 'Plover'].map((bird) => ({ lines: ['Ledger page', `${bird} Estate rents`], scan: true })),
    );
    ollama.setDelay(700);
    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: 'ledger.pdf', content: readFileSync(pdf) }],
      {
        auto_confirm: 'true',
        extract_entities: 'false',
      },
    );
    const id = (accepted.body as SourceResponseBody).id;
    const seen = new Set<string>();
    const source = await until(
      async () => {
        const now = (await call('GET', `/sources/${id}`)).body as SourceResponseBody;
        if (now.status === 'vision_pending') seen.add(now.step_description ?? '');
        return now.status === 'indexed' || now.status === 'error' ? now : undefined;
      },
      { timeoutMs: 45_000, intervalMs: 50, what: 'the ledger to be indexed' },
    );
    ollama.setDelay(0);
    expect(source.status, source.error_message ?? '').toBe('indexed');
    expect([...seen].sort()).toEqual([
      'Reading scanned page 1 of 3 (page 1) with the vision model',
      'Reading scanned page 2 of 3 (page 2) with the vision model',
      'Reading scanned page 3 of 3 (page 3) with the vision model',
    ]);
  });

  it('auto: when the vision model answers 500, the page is read by tesseract and the warning says so', async () => {
    await useMode('auto');
    // A model server of its own that answers every request 500 (the shared fake's health probes would take a `failNext`).
    const chats: string[] = [];
    const failing = await serveOnLoopback(async (req, res) => {
      if (req.url === '/api/chat') chats.push(req.url);
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'model runner crashed' }));
    });
    const useServer = (base_url: string) =>
      call('PATCH', '/settings', {
        llm: { localllm_instances: [{ id: 'gpu', name: 'GPU', base_url, enabled: true }] },
      });
    try {
      expect((await useServer(failing.origin)).status).toBe(200);
      const source = await uploadScan('granary', 'Marmalade Granary receipt');
      expect(source.loader_warnings).toEqual([
        expect.stringMatching(/^The vision model qwen3-vl:8b could not read pages 2 .*read by OCR \(tesseract\)$/),
      ]);
      expect(await citedPage('Marmalade Granary', source.id, 'Marmalade')).toBe(2);
      expect(chats).toHaveLength(1);
    } finally {
      await useServer(ollama.url);
      await failing.close();
    }
  });

  it('ocr: tesseract alone reads the scanned page and the vision model is never called', async () => {
    await useMode('ocr');
    ollama.requests.length = 0;
    const source = await uploadScan('foundry', 'Wexford Foundry invoice');
    expect(await citedPage('Wexford Foundry', source.id, 'Wexford')).toBe(2);
    expect(chatCalls()).toEqual([]);
  });

  it('refuses an unknown ocr.mode with a 422 in the error envelope', async () => {
    const answer = await call('PATCH', '/settings', { ocr: { mode: 'prefer-the-model' } });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: expect.anything() });
  });
});
