import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedText } from '../support/chats.ts';
import { createChat, sendMessage, waitIdle } from '../support/chats.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

/** Ten sentences about one orchard, every one naming it: small chunks that overlap by whole sentences. */
const sentences = Array.from(
  { length: 10 },
  (_, n) => `The Hollowmere orchard planted its row number ${n + 1} of quince trees in spring ${1900 + n}.`,
);
const model = 'qwen3:8b';

const occurrences = (text: string, sentence: string) => text.split(sentence).length - 1;

interface ChunkHit {
  chunk: { chunk_id: string; chunk_index: number; content: string } | null;
}

describe('overlapping chunks shown side by side', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  let source: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const chunking = await call('PATCH', '/settings', {
      chunking: { small_chunk_size: 200, small_chunk_overlap: 100, min_chunk_size: 50, max_chunk_size: 300 },
    });
    expect(chunking.status, chunking.text).toBe(200);
    source = (await indexedText(server, cookie, 'orchard.txt', sentences.join(' '))).id;
    ollama = await startFakeOllama({ models: [model] });
  }, 90_000);
  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  const hits = async () => {
    const found = await call('GET', '/search?q=Hollowmere%20orchard&search_type=keyword&limit=20');
    expect(found.status, found.text).toBe(200);
    return (found.body as { data: ChunkHit[] }).data.flatMap((hit) => (hit.chunk ? [hit.chunk] : []));
  };

  it('chunks the text with whole sentences in common (the setup the others rely on)', async () => {
    const listed = await call('GET', `/sources/${source}/chunks?page_size=100`);
    expect(listed.status, listed.text).toBe(200);
    const chunks = (listed.body as { data: { content: string }[] }).data;
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect((await hits()).length).toBe(chunks.length);
    const stored = chunks.map((chunk) => chunk.content).join('\n');
    expect(sentences.some((sentence) => occurrences(stored, sentence) > 1)).toBe(true);
  });

  it('search results of consecutive chunks show every sentence once', async () => {
    const found = await hits();
    const shown = found.map((chunk) => chunk.content).join('\n');
    for (const sentence of sentences) expect(occurrences(shown, sentence), sentence).toBe(1);
  });

  it('the chat passages show every sentence once, and a citation of a shown sentence cites that sentence', async () => {
    const configured = await call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: model,
        localllm_extraction_model: model,
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
      chat: { tool_approval: 'never-ask' },
    });
    expect(configured.status, configured.text).toBe(200);
    ollama.scriptChat(
      { deltas: [], toolCalls: [{ name: 'search_chunks', arguments: { query: 'Hollowmere orchard', limit: 20 } }] },
      'Placeholder.',
    );
    const chat = await createChat(server, cookie);
    await sendMessage(server, cookie, chat.id, 'When did the orchard plant its rows?');
    await waitIdle(server, cookie, chat.id);
    const sent = ollama.requests.filter((request) => request.path === '/api/chat').at(-1)!.body as {
      messages: { role: string; content: string }[];
    };
    const passages = sent.messages.find((message) => message.role === 'tool')!.content;
    for (const sentence of sentences) expect(occurrences(passages, sentence), sentence).toBe(1);

    // The numbers shown are each chunk's own: citing a sentence as shown cites exactly that sentence.
    const [, alias, number] = /\[CHUNK (C\d+)[^\]]*\]\n\([^)]*not repeated\)\n\[S(\d+)\]/.exec(passages) ?? [];
    expect(alias, passages).toBeDefined();
    const chunkText = passages.slice(passages.indexOf(`[CHUNK ${alias} `));
    const shownSentence = new RegExp(`\\[S${number}\\] ([^\\n]+)`).exec(chunkText)![1];
    ollama.scriptChat(
      { deltas: [], toolCalls: [{ name: 'search_chunks', arguments: { query: 'Hollowmere orchard', limit: 20 } }] },
      `A row was planted [[cite:${alias}:S${number}|orchard.txt]].`,
    );
    await sendMessage(server, cookie, chat.id, 'Which row?');
    const answered = await waitIdle(server, cookie, chat.id);
    const last = answered.messages.at(-1) as unknown as {
      extra_metadata: { chunk_citations: Record<string, { sentence_text: string }> };
    };
    expect(Object.values(last.extra_metadata.chunk_citations).map((citation) => citation.sentence_text)).toEqual([
      shownSentence,
    ]);
  }, 60_000);
});
