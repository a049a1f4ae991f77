import { expect } from 'vitest';
import type { ChatBody } from '@rhizome/contracts/api/chats';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { TestServer } from './server.ts';
import type { EventRead } from './chats-sse.ts';
import { uploadSources, waitForSource } from './sources.ts';
import { until } from './wait.ts';

/** What the chat tests share: setting up chats and sources (the event stream reader is `chats-sse.ts`). */

export { readEvents, type ChatEventFrame, type EventRead } from './chats-sse.ts';

export const finalEvent = (read: EventRead) => read.events.at(-1)!;

export async function createChat(
  server: TestServer,
  cookie: string,
  body: Record<string, unknown> = { title: 'Questions' },
): Promise<ChatBody> {
  const created = await server.call('POST', '/chats', { cookie, body });
  expect(created.status, created.text).toBe(201);
  return created.body as ChatBody;
}

export async function sendMessage(
  server: TestServer,
  cookie: string,
  chatId: string,
  content: string,
): Promise<string> {
  const sent = await server.call('POST', `/chats/${chatId}/send`, { cookie, body: { content } });
  expect(sent.status, sent.text).toBe(202);
  expect(sent.body).toMatchObject({ status: 'processing', task_id: expect.any(String) });
  return (sent.body as { task_id: string }).task_id;
}

export async function getChat(server: TestServer, cookie: string, chatId: string): Promise<ChatBody> {
  const chat = await server.call('GET', `/chats/${chatId}`, { cookie });
  expect(chat.status, chat.text).toBe(200);
  return chat.body as ChatBody;
}

/** Polls the chat until it leaves `processing`. */
export async function waitIdle(
  server: TestServer,
  cookie: string,
  chatId: string,
  timeoutMs = 30_000,
): Promise<ChatBody> {
  return until(
    async () => {
      const chat = await getChat(server, cookie, chatId);
      return chat.status !== 'processing' ? chat : undefined;
    },
    { timeoutMs, intervalMs: 30, what: `chat ${chatId} to stop processing` },
  );
}

/** Uploads a text source without extraction and waits until it is indexed. */
export async function indexedText(
  server: TestServer,
  cookie: string,
  name: string,
  content: string,
): Promise<SourceResponseBody> {
  const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
    extract_entities: 'false',
    auto_confirm: 'true',
  });
  expect(accepted.status, accepted.text).toBe(202);
  const source = await waitForSource(server, cookie, (accepted.body as SourceResponseBody).id, ['indexed', 'error']);
  expect(source.status, source.error_message ?? '').toBe('indexed');
  return source;
}
