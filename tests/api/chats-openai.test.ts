import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderControls } from '../support/fakes/controls.ts';
import { startFakeOpenAi } from '../support/fakes/openai.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { createChat, getChat, indexedText, readEvents, sendMessage } from '../support/chats.ts';

/** A chat turn through an OpenAI-protocol server (fake, real HTTP): the tool call and the streamed answer. */
describe('chats (fake OpenAI)', () => {
  let server: TestServer;
  let cookie: string;
  let openai: FakeProviderControls;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    await indexedText(
      server,
      cookie,
      'harbour.txt',
      'The harbour wall was rebuilt in 1952 after a winter storm. Fishing boats moor inside it.',
    );
    openai = await startFakeOpenAi({ models: ['gpt-4.1'] });
    const configured = await server.call('PATCH', '/settings', {
      cookie,
      body: {
        llm: {
          chat_provider: 'openai',
          openai_api_key: 'sk-test',
          openai_base_url: openai.url,
          openai_chat_model: 'gpt-4.1',
        },
      },
    });
    expect(configured.status, configured.text).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
    await openai.close();
  });

  it('calls graph search as the model asks, feeds back its result and streams the answer', async () => {
    const chat = await createChat(server, cookie);
    const question = 'Please use tool to find when the harbour wall was rebuilt';
    await sendMessage(server, cookie, chat.id, question);
    const { events } = await readEvents(server, cookie, chat.id);
    expect(events.find((event) => event.type === 'tool_start')).toMatchObject({
      tool: 'graphrag_search',
      arguments: { query: question },
    });
    expect(events.find((event) => event.type === 'tool_result')!.result as string).toContain('harbour.txt');
    expect(events.filter((event) => event.type === 'content').length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      status: 'completed',
      content: `echo: ${question}`,
      llm_debug: { provider: 'openai', iterations: 1 },
    });

    const second = openai.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)!.body as {
      messages: { role: string; content: string }[];
    };
    expect(second.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('<untrusted_document>'),
    });
    expect((await getChat(server, cookie, chat.id)).messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
    ]);
  });
});
