import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatBody, ChatStarterBody } from '@rhizome/contracts/api/chats';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { createChat, indexedText, readEvents, sendMessage, waitIdle } from '../support/chats.ts';

const model = 'qwen3:8b';
const lighthouse =
  'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway. Its lamp was converted to electricity in 1932.';

interface SentMessage {
  role: string;
  content?: string;
}

/**
 * Correcting a chat against a local model server (fake Ollama over real HTTP): a question edited and sent
 * again replaces every later turn, thinking written inline is kept apart from the answer, the answer
 * records what was sent, and starters come from the graph's most central entities.
 */
describe('chat: edit and resend, thinking, the context sent, starters', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const lastChatRequest = () =>
    ollama.requests.filter((request) => request.path === '/api/chat').at(-1)!.body as { messages: SentMessage[] };
  const ask = async (chatId: string, content: string, body: Record<string, unknown> = {}) => {
    const sent = await call('POST', `/chats/${chatId}/send`, { content, ...body });
    expect(sent.status, sent.text).toBe(202);
    return waitIdle(server, cookie, chatId);
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    await indexedText(server, cookie, 'lighthouse.txt', lighthouse);
    ollama = await startFakeOllama({ models: [model] });
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
  });
  afterAll(async () => {
    await server?.stop();
    await ollama?.close();
  });

  it('replaces every turn after an edited question, and the model sees only what came before it', async () => {
    const chat = await createChat(server, cookie);
    ollama.scriptChat('The first answer.', 'The second answer.', 'The third answer.');
    await ask(chat.id, 'Who built the lighthouse?');
    await ask(chat.id, 'When was the lamp converted?');
    const before = await ask(chat.id, 'Where is Kestrel Point?');
    expect(before.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);

    ollama.scriptChat('The corrected answer.');
    const edited = await ask(chat.id, 'When was the lighthouse built?', {
      replace_from_message_id: before.messages[2].id,
    });
    expect(edited.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'Who built the lighthouse?'],
      ['assistant', 'The first answer.'],
      ['user', 'When was the lighthouse built?'],
      ['assistant', 'The corrected answer.'],
    ]);
    // The ids of the turns kept are the same messages, not copies.
    expect(edited.messages.slice(0, 2).map((message) => message.id)).toEqual(
      before.messages.slice(0, 2).map((message) => message.id),
    );
    const sent = lastChatRequest().messages.filter((message) => message.role !== 'system');
    expect(sent.map((message) => message.content)).toEqual([
      'Who built the lighthouse?',
      'The first answer.',
      'When was the lighthouse built?',
    ]);

    // Editing the very first question leaves one turn.
    ollama.scriptChat('A fresh start.');
    const restarted = await ask(chat.id, 'Who was Miriam Holloway?', {
      replace_from_message_id: edited.messages[0].id,
    });
    expect(restarted.messages.map((message) => message.content)).toEqual([
      'Who was Miriam Holloway?',
      'A fresh start.',
    ]);
    expect(restarted.message_count).toBe(2);
  });

  it('keeps <think> blocks out of the answer, even split across deltas, and streams them as thinking', async () => {
    const chat = await createChat(server, cookie);
    ollama.scriptChat({ deltas: ['<thi', 'nk>The question is about ', 'dates.</th', 'ink>It was 1871', '.'] });
    const taskId = await sendMessage(server, cookie, chat.id, 'When?');
    expect(taskId).toEqual(expect.any(String));
    const { events } = await readEvents(server, cookie, chat.id);
    const thinking = events.filter((event) => event.type === 'thinking_delta').map((event) => event.thinking);
    expect(thinking.join('')).toBe('The question is about dates.');
    const content = events.filter((event) => event.type === 'content').map((event) => event.delta);
    expect(content.join('')).toBe('It was 1871.');
    expect(content.join('')).not.toContain('<');
    const done = await waitIdle(server, cookie, chat.id);
    const answer = done.messages.at(-1)!;
    expect(answer.content).toBe('It was 1871.');
    expect(answer.extra_metadata).toMatchObject({ thinking: 'The question is about dates.' });
  });

  it('parts thoughts of separate blocks and tool rounds, and starts the answer after the block', async () => {
    const chat = await createChat(server, cookie);
    ollama.scriptChat(
      {
        deltas: ['<think>I should search.</think>'],
        toolCalls: [{ name: 'graphrag_search', arguments: { query: 'Kestrel Point' } }],
      },
      {
        deltas: [
          '<think>The passage ',
          'gives the year.</think>\n',
          '\n<think>Say it briefly.</think>\n\nIt was 1871.',
        ],
      },
    );
    await sendMessage(server, cookie, chat.id, 'When was it built?');
    const { events } = await readEvents(server, cookie, chat.id);
    const thinking = events.filter((event) => event.type === 'thinking_delta').map((event) => event.thinking);
    const thought = 'I should search.\n\nThe passage gives the year.\n\nSay it briefly.';
    expect(thinking.join('')).toBe(thought);
    const done = await waitIdle(server, cookie, chat.id);
    const answer = done.messages.at(-1)!;
    expect(answer.content).toBe('It was 1871.');
    expect(answer.extra_metadata).toMatchObject({ thinking: thought });
  });

  it('records with the answer the passages, entities and share of the context window it was sent', async () => {
    const chat = await createChat(server, cookie);
    ollama.scriptChat(
      { deltas: [''], toolCalls: [{ name: 'graphrag_search', arguments: { query: 'Kestrel Point lighthouse' } }] },
      { deltas: ['Built in 1871 [[cite:C0:S1|lighthouse.txt]].'] },
    );
    const answered: ChatBody = await ask(chat.id, 'When was the Kestrel Point lighthouse built?');
    const context = answered.messages.at(-1)!.extra_metadata?.context as Record<string, unknown>;
    expect(context).toMatchObject({
      context_window: 32_768,
      history_messages: 1,
      dropped_messages: 0,
      passages: [expect.objectContaining({ filename: 'lighthouse.txt', sentences: 2 })],
    });
    expect(context.history_tokens).toBeGreaterThan(0);
    expect(context.history_tokens).toBeLessThanOrEqual(context.history_budget_tokens as number);
    expect(context.passage_tokens).toBeGreaterThan(10);
    expect(context.system_tokens).toBeGreaterThan(0);
    expect(context).toHaveProperty('entities');
    expect(context).toHaveProperty('facts');
  });

  it('offers starters from the most central entities, none for an empty graph, and refuses a bad limit', async () => {
    expect((await call('GET', '/chats/starters')).body).toEqual({ starters: [] });
    const node = async (label: string) => {
      const created = await call('POST', '/nodes', { template_id: 'system_template_concept', label });
      expect(created.status, created.text).toBe(201);
      return (created.body as { id: string }).id;
    };
    const hub = await node('Kestrel Point');
    const spokes = [await node('Miriam Holloway'), await node('Lamp'), await node('Harbour')];
    for (const spoke of spokes) {
      const edge = await call('POST', '/edges', {
        template_id: 'system_template_link',
        source_node_id: spoke,
        target_node_id: hub,
        label: 'part of',
      });
      expect(edge.status, edge.text).toBe(201);
    }
    const starters = (await call('GET', '/chats/starters?limit=3')).body as { starters: ChatStarterBody[] };
    expect(starters.starters).toHaveLength(3);
    expect(starters.starters[0]).toEqual({
      question: 'What do my sources say about Kestrel Point?',
      node_ids: [hub],
    });
    expect(starters.starters[1].question).toMatch(/^How are Kestrel Point and .+ related\?$/);
    const bad = await call('GET', '/chats/starters?limit=0');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: 'VALIDATION_FAILED' });
  });
});
