import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatBody, ChatListItemBody, MessageBody } from '@rhizome/contracts/api/chats';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { ChunkCitation as Citation } from '@rhizome/core/chat';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import {
  createChat,
  finalEvent,
  getChat,
  indexedText,
  readEvents,
  sendMessage,
  waitIdle,
  type ChatEventFrame,
} from '../support/chats.ts';

const lighthouseText = [
  'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway.',
  'Its lamp was converted to electricity in 1932.',
  "The keeper's cottage now houses a small museum about shipwrecks.",
].join(' ');
const orchardText = [
  'The Bramblewood orchard grows forty varieties of heritage apples.',
  'Harvest festivals are held in the orchard every October.',
  "The orchard's cider press dates from 1890.",
].join(' ');

/** The chat surface with the builtin provider: no model server, extractive answers with citations. */
describe('chats (builtin provider)', () => {
  let server: TestServer;
  let cookie: string;
  let lighthouse: SourceResponseBody;
  let orchard: SourceResponseBody;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const db = async () => (await server.platform.databases.current()).db;

  /** Sends a question and reads the turn's events to its end. */
  async function ask(chatId: string, question: string): Promise<ChatEventFrame[]> {
    await sendMessage(server, cookie, chatId, question);
    const read = await readEvents(server, cookie, chatId);
    expect(read.status).toBe(200);
    expect(read.contentType).toMatch(/^text\/event-stream/);
    expect(read.ended).toBe(true);
    return read.events;
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    lighthouse = await indexedText(server, cookie, 'lighthouse.txt', lighthouseText);
    orchard = await indexedText(server, cookie, 'orchard.txt', orchardText);
  });
  afterAll(() => server.stop());

  it('creates, lists, filters, renames, counts and deletes chats in the documented shape', async () => {
    const tag = await call('POST', '/sources/tags', { name: 'fruit' });
    expect(tag.status, tag.text).toBe(201);
    const tagId = (tag.body as { id: string }).id;
    expect((await call('POST', `/sources/${orchard.id}/tags/${tagId}`)).status).toBeLessThan(300);

    const plain = await createChat(server, cookie, { title: 'Harbour notes' });
    expect(plain).toMatchObject({
      title: 'Harbour notes',
      status: 'active',
      message_count: 0,
      source_ids: null,
      messages: [],
    });
    expect(plain.id).toEqual(expect.any(String));
    const scoped = await createChat(server, cookie, {
      title: 'Orchard 100% notes',
      source_ids: [lighthouse.id],
      tag_ids: [tagId],
    });
    expect(scoped.source_ids?.sort()).toEqual([lighthouse.id, orchard.id].sort());

    const list = await call('GET', '/chats?page_size=1');
    expect(list.status, list.text).toBe(200);
    const page = list.body as { data: ChatListItemBody[]; pagination: { total: number; has_next: boolean } };
    expect(page.pagination).toMatchObject({ total: 2, has_next: true });
    expect(page.data[0]).not.toHaveProperty('messages');
    const titles = async (query: string) =>
      ((await call('GET', `/chats?${query}`)).body as { data: ChatListItemBody[] }).data.map((chat) => chat.title);
    expect(await titles('scoped=true')).toEqual(['Orchard 100% notes']);
    expect(await titles('scoped=false')).toEqual(['Harbour notes']);
    expect(await titles('q=HARBOUR')).toEqual(['Harbour notes']);
    expect(await titles(`q=${encodeURIComponent('100%')}`)).toEqual(['Orchard 100% notes']);
    expect(await titles('q=5%')).toEqual([]);
    const tooLong = await call('GET', `/chats?q=${'x'.repeat(201)}`);
    expect(tooLong.status).toBe(422);
    expect(validationIssuesOf(tooLong)[0].loc).toEqual(['query', 'q']);

    const renamed = await call('PATCH', `/chats/${plain.id}`, { title: 'Harbour' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: plain.id, title: 'Harbour', messages: [] });
    expect((await call('PATCH', `/chats/${plain.id}/status`, { status: 'completed' })).body).toMatchObject({
      status: 'completed',
    });
    expect((await call('PATCH', `/chats/${plain.id}/status`, { status: 'finished' })).status).toBe(422);
    // Set by hand, processing stays: no turn of the chat's own ended to settle it.
    expect((await call('PATCH', `/chats/${plain.id}/status`, { status: 'processing' })).body).toMatchObject({
      status: 'processing',
    });
    expect((await getChat(server, cookie, plain.id)).status).toBe('processing');
    expect((await call('PATCH', `/chats/${plain.id}/status`, { status: 'active' })).body).toMatchObject({
      status: 'active',
    });

    const added = await call('POST', `/chats/${plain.id}/messages`, {
      role: 'user',
      content: 'a note',
      extra_metadata: { pinned: true },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({
      role: 'user',
      content: 'a note',
      extra_metadata: { pinned: true },
      timestamp: expect.stringMatching(/Z$/),
    });
    await call('POST', `/chats/${plain.id}/messages`, { role: 'assistant', content: 'noted' });
    const messages = (await call('GET', `/chats/${plain.id}/messages`)).body as MessageBody[];
    expect(messages.map((message) => message.content)).toEqual(['a note', 'noted']);
    expect((await getChat(server, cookie, plain.id)).message_count).toBe(2);
    expect((await call('GET', '/chats/stats/count')).body).toEqual({ count: 2 });

    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['GET', '/messages'],
      ['POST', '/messages'],
      ['PATCH', '/status'],
      ['GET', '/export'],
      ['POST', '/generate_title'],
      ['PATCH', '/scope'],
      ['DELETE', '/scope'],
      ['POST', '/send'],
      ['POST', '/cancel'],
      ['POST', '/retry'],
      ['POST', '/regenerate'],
      ['GET', '/events'],
    ] as const) {
      const body = {
        PATCH: path === '/status' ? { status: 'active' } : { title: 'x' },
        POST: path === '/messages' ? { role: 'user', content: 'x' } : { content: 'x' },
      }[method as 'PATCH' | 'POST'];
      const missing = await call(method, `/chats/chat_missing${path}`, body);
      expect([method, path, missing.status]).toEqual([method, path, 404]);
      expect(missing.body).toMatchObject({
        error: 'NOT_FOUND',
        details: { resource_type: 'chat', identifier: 'chat_missing' },
      });
    }

    expect((await call('DELETE', `/chats/${plain.id}`)).status).toBe(204);
    expect((await call('GET', `/chats/${plain.id}`)).status).toBe(404);
    expect(await (await db())('chat_messages').where({ chat_id: plain.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect((await call('DELETE', '/chats')).status).toBe(204);
    expect((await call('GET', '/chats/stats/count')).body).toEqual({ count: 0 });
  });

  it('mounts and documents every /chats endpoint of the endpoint list', async () => {
    const document = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`),
    );
    const spec = fs
      .readFileSync(path.resolve(__dirname, '../../../shared/spec/endpoints.txt'), 'utf8')
      .trim()
      .split('\n')
      .filter((line) => / \/chats/.test(line));
    expect(spec).toHaveLength(20);
    for (const line of spec) expect(documented, line).toContain(line);
  });

  it('answers through send → events → done with citations that resolve to real chunks, sentences and sources', async () => {
    const chat = await createChat(server, cookie);
    const events = await ask(chat.id, 'When was the Kestrel Point lighthouse built?');
    const types = events.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['context_info', 'tool_start', 'tool_result', 'content', 'done']));
    expect(types.indexOf('tool_start')).toBeLessThan(types.indexOf('content'));
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', status: 'completed' });
    const content = done.content as string;
    expect(content).toContain('built in 1871');

    const citations = done.chunk_citations as Record<string, Citation>;
    expect(Object.keys(citations).length).toBeGreaterThan(0);
    const database = await db();
    for (const [key, citation] of Object.entries(citations)) {
      expect(key).toBe(`${citation.chunk_id}:${citation.sentence_refs.join(',')}`);
      expect(content).toContain(`[[cite:${key}|${citation.label}]]`);
      const chunk = (await database('document_chunks').where({ id: citation.chunk_id }).first()) as {
        content: string;
        source_id: string;
        page_number: number | null;
      };
      expect(chunk.source_id).toBe(citation.source_id);
      expect(chunk.page_number).toBe(citation.page_number);
      expect(chunk.content.replace(/\s+/g, ' ')).toContain(citation.sentence_text);
    }
    const lighthouseCitation = Object.values(citations).find((citation) => citation.sentence_text.includes('1871'));
    expect(lighthouseCitation).toMatchObject({
      source_id: lighthouse.id,
      label: 'lighthouse.txt',
      sentence_refs: ['S1'],
    });

    // The accumulated content events are the streamed answer; the stored message is the validated one.
    const stored = await getChat(server, cookie, chat.id);
    expect(stored.status).toBe('completed');
    expect(stored.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(stored.messages[1].content).toBe(content);
    expect(stored.messages[1].extra_metadata).toMatchObject({
      chunk_citations: citations,
      referenced_entities: [],
      llm_debug: { provider: 'builtin' },
    });

    // Connecting to the idle chat gives its last answer at once, then the stream closes.
    const idle = await readEvents(server, cookie, chat.id);
    expect(idle.ended).toBe(true);
    expect(idle.events).toEqual([
      expect.objectContaining({ type: 'done', status: 'completed', content, chunk_citations: citations }),
    ]);
  });

  it('searches only the scoped sources: a question answerable elsewhere gets no citation from outside the scope', async () => {
    const chat = await createChat(server, cookie, { title: 'Orchard only', source_ids: [orchard.id] });
    const done = (await ask(chat.id, 'When was the Kestrel Point lighthouse built?')).at(-1)!;
    expect(done.type).toBe('done');
    const sources = Object.values(done.chunk_citations as Record<string, Citation>).map(
      (citation) => citation.source_id,
    );
    expect(sources).not.toContain(lighthouse.id);
    expect(done.content as string).not.toContain('1871');

    // Clearing the scope searches everything again (and says so in the conversation).
    const cleared = await call('DELETE', `/chats/${chat.id}/scope`);
    expect(cleared.status).toBe(200);
    expect((cleared.body as ChatBody).source_ids).toBeNull();
    expect((cleared.body as ChatBody).messages.at(-1)).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Scope cleared'),
    });
    const again = (await ask(chat.id, 'When was the Kestrel Point lighthouse built?')).at(-1)!;
    expect(
      Object.values(again.chunk_citations as Record<string, Citation>).map((citation) => citation.source_id),
    ).toContain(lighthouse.id);

    const rescoped = await call('PATCH', `/chats/${chat.id}/scope`, { source_ids: [orchard.id, orchard.id] });
    expect((rescoped.body as ChatBody).source_ids).toEqual([orchard.id]);
    expect((rescoped.body as ChatBody).messages.at(-1)).toMatchObject({
      role: 'system',
      extra_metadata: { kind: 'scope_change', source_ids: [orchard.id] },
    });
    const emptied = await call('PATCH', `/chats/${chat.id}/scope`, { source_ids: [], tag_ids: null });
    expect((emptied.body as ChatBody).source_ids).toBeNull();
  });

  it('cuts the conversation at replace_from_message_id, and refuses anything but a user message of the chat', async () => {
    const chat = await createChat(server, cookie);
    await ask(chat.id, 'How many apple varieties grow in the Bramblewood orchard?');
    await ask(chat.id, 'When was the cider press made?');
    const before = await getChat(server, cookie, chat.id);
    expect(before.messages).toHaveLength(4);
    const [firstQuestion, firstAnswer] = before.messages;

    const notUser = await call('POST', `/chats/${chat.id}/send`, {
      content: 'x',
      replace_from_message_id: firstAnswer.id,
    });
    expect(notUser.status).toBe(409);
    expect(notUser.body).toMatchObject({ error: 'CONFLICT' });
    const other = await createChat(server, cookie);
    expect(
      (await call('POST', `/chats/${other.id}/send`, { content: 'x', replace_from_message_id: firstQuestion.id }))
        .status,
    ).toBe(409);
    expect((await getChat(server, cookie, chat.id)).messages).toHaveLength(4);

    const tooLong = await call('POST', `/chats/${chat.id}/send`, { content: 'x'.repeat(500_001) });
    expect(tooLong.status).toBe(422);
    expect(validationIssuesOf(tooLong)[0].loc).toEqual(['body', 'content']);

    const replaced = await call('POST', `/chats/${chat.id}/send`, {
      content: 'When are the harvest festivals?',
      replace_from_message_id: before.messages[2].id,
    });
    expect(replaced.status).toBe(202);
    const after = await waitIdle(server, cookie, chat.id);
    expect(after.messages.map((message) => message.content.slice(0, 30))).toEqual([
      firstQuestion.content.slice(0, 30),
      firstAnswer.content.slice(0, 30),
      'When are the harvest festivals',
      expect.any(String),
    ]);
    expect(after.messages[3].content).toContain('October');
  });

  it('retries and regenerates the last turn, with their 409s', async () => {
    const empty = await createChat(server, cookie);
    for (const action of ['retry', 'regenerate', 'cancel']) {
      const refused = await call('POST', `/chats/${empty.id}/${action}`);
      expect([action, refused.status]).toEqual([action, 409]);
    }
    expect(
      (await call('POST', `/chats/${empty.id}/tool_decision`, { tool_call_id: 'tc_none', decision: 'approve' })).status,
    ).toBe(404);

    const chat = await createChat(server, cookie);
    await ask(chat.id, 'Where is the museum about shipwrecks?');
    const retried = await call('POST', `/chats/${chat.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ status: 'processing', task_id: expect.any(String) });
    expect(finalEvent(await readEvents(server, cookie, chat.id)).type).toBe('done');
    expect((await getChat(server, cookie, chat.id)).messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'assistant',
    ]);

    const regenerated = await call('POST', `/chats/${chat.id}/regenerate`);
    expect(regenerated.status).toBe(202);
    await waitIdle(server, cookie, chat.id);
    const after = await getChat(server, cookie, chat.id);
    expect(after.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(after.messages[1].content).toContain('museum');
  });

  it('exports JSON and Markdown with role headings, bold entities and numbered footnotes', async () => {
    const chat = await createChat(server, cookie, { title: 'Lighthouse history' });
    await ask(chat.id, 'When was the Kestrel Point lighthouse built?');
    const node = await call('POST', '/nodes', { template_id: 'system_template_person', label: 'Miriam Holloway' });
    const nodeId = (node.body as { id: string }).id;
    await call('POST', `/chats/${chat.id}/messages`, {
      role: 'assistant',
      content: `Designed by [[node:${nodeId}|Miriam Holloway]].`,
    });

    const json = await call('GET', `/chats/${chat.id}/export`);
    expect(json.status).toBe(200);
    expect((json.body as { data: ChatBody }).data).toEqual(await getChat(server, cookie, chat.id));

    const markdown = await call('GET', `/chats/${chat.id}/export?format=markdown`);
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(markdown.headers.get('content-disposition')).toMatch(/^attachment; filename="?lighthouse-history\.md"?$/);
    const text = markdown.text;
    expect(text).toMatch(/^# Lighthouse history\n/);
    expect(text).toContain('## User\n\nWhen was the Kestrel Point lighthouse built?');
    expect(text).toContain('## Assistant');
    expect(text).toContain('Designed by **Miriam Holloway**.');
    expect(text).not.toContain('[[');
    expect(text).toMatch(/built in 1871[^\n]*\[\^1\]/);
    expect(text).toContain(
      '[^1]: lighthouse.txt: "The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway."',
    );
    expect((await call('GET', `/chats/${chat.id}/export?format=pdf`)).status).toBe(422);
  });

  it('generates a 3–6 word title from the first user message, and leaves a chat without one unchanged', async () => {
    const untitled = await createChat(server, cookie, { title: 'New chat' });
    const unchanged = await call('POST', `/chats/${untitled.id}/generate_title`);
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ title: 'New chat' });

    await call('POST', `/chats/${untitled.id}/messages`, {
      role: 'user',
      content: '"Who tends the **heritage** apple trees of Bramblewood orchard in autumn?"',
    });
    const titled = await call('POST', `/chats/${untitled.id}/generate_title`);
    expect(titled.status).toBe(200);
    const title = (titled.body as ChatBody).title;
    expect(title).toBe('Who tends the heritage apple trees…');
    expect(title.split(' ').length).toBeLessThanOrEqual(6);
  });

  it('answers about an uploaded document on a fresh install: extracted with builtin, cited through graph search', async () => {
    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [
        {
          name: 'observatory.txt',
          content:
            'Ada Lovelace founded the Harrow Observatory in Cambridge. The Harrow Observatory houses a brass telescope.',
        },
      ],
      { auto_confirm: 'true' },
    );
    expect(accepted.status, accepted.text).toBe(202);
    const source = await waitForSource(
      server,
      cookie,
      (accepted.body as SourceResponseBody).id,
      ['committed', 'error'],
      60_000,
    );
    expect(source.status, source.error_message ?? '').toBe('committed');
    const chat = await createChat(server, cookie);
    const done = (await ask(chat.id, 'Who founded the Harrow Observatory?')).at(-1)!;
    expect(done).toMatchObject({
      type: 'done',
      status: 'completed',
      content: expect.stringMatching(/\|Ada Lovelace\]\] founded the \[\[node:[^|]+\|Harrow Observatory\]\]/),
    });
    expect(
      Object.values(done.chunk_citations as Record<string, Citation>).map((citation) => citation.source_id),
    ).toContain(source.id);
    // The entities graph search found are marked where the answer names them.
    const entities = done.referenced_entities as { id: string; label: string }[];
    expect(entities.map((entity) => entity.label)).toEqual(
      expect.arrayContaining(['Ada Lovelace', 'Harrow Observatory']),
    );
    for (const entity of entities) expect(done.content as string).toContain(`[[node:${entity.id}|${entity.label}]]`);
  });

  it('never leaves a chat processing after its task ended: settled when read, and at start-up', async () => {
    const database = await db();
    const stuck = async (title: string, taskId: string) => {
      const chat = await createChat(server, cookie, { title });
      await database('chats')
        .where({ id: chat.id })
        .update({ status: 'processing', current_turn_id: `turn_${title}`, current_task_id: taskId });
      return chat.id;
    };
    const readLater = await stuck('read', 'task_that_never_existed');
    const read = await readEvents(server, cookie, readLater);
    expect(read.events).toEqual([expect.objectContaining({ type: 'error', error_code: 'CHAT_PROCESSING_FAILED' })]);
    expect((await getChat(server, cookie, readLater)).status).toBe('error');

    // Cancelled whether it is still queued or already running: either way it ends cancelled.
    const cancelledTask = await server.platform.queue.submit({
      queue: 'operations',
      operation: 'system.sleep',
      data: { ms: 60_000 },
    });
    expect(await server.platform.tasks.cancel(cancelledTask.task_id, Date.now())).toBe('cancelled');
    const atStartup = await stuck('startup', 'task_gone');
    const cancelledAtStartup = await stuck('cancelled', cancelledTask.task_id);
    const { dataDir } = server;
    await server.stop();
    server = await startTestServer({ dataDir });
    const after = (await server.platform.databases.current()).db;
    expect(
      await after('chats').whereIn('id', [atStartup, cancelledAtStartup]).orderBy('title').select('title', 'status'),
    ).toEqual([
      { title: 'cancelled', status: 'active' },
      { title: 'startup', status: 'error' },
    ]);
  });

  it('answers 409 LLM_NOT_VERIFIED from the readiness gate when the configured provider does not answer, and changes nothing', async () => {
    const chat = await createChat(server, cookie);
    const unreachable = await call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_instances: [{ id: 'gone', name: 'Gone', base_url: 'http://127.0.0.1:9', enabled: true }],
      },
    });
    expect(unreachable.status, unreachable.text).toBe(200);
    try {
      for (const action of ['send', 'retry', 'regenerate']) {
        const refused = await call(
          'POST',
          `/chats/${chat.id}/${action}`,
          action === 'send' ? { content: 'hello' } : undefined,
        );
        if (action === 'send') expect(refused.body).toMatchObject({ error: 'LLM_NOT_VERIFIED' });
        else expect(refused.status).toBe(409);
      }
      const after = await getChat(server, cookie, chat.id);
      expect(after).toMatchObject({ status: 'active', messages: [] });
    } finally {
      expect((await call('PATCH', '/settings', { llm: { chat_provider: 'builtin' } })).status).toBe(200);
    }
  });
});
