import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatBody } from '@rhizome/contracts/api/chats';
import { createChat, readEvents, sendMessage, waitIdle } from '../support/chats.ts';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';

interface Approval {
  tool_call_id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
  status: string;
  turn_id: string;
  created_at: string;
  decided_at: string | null;
}

describe('chats: unknown scope ids and tool approvals a client can use', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  /** Polls the chat's approvals of `status` until there are `count`. */
  function approvalsOf(chatId: string, status: string, count: number): Promise<Approval[]> {
    return until(
      async () => {
        const listed = await call('GET', `/chats/${chatId}/tool_approvals?status=${status}`);
        expect(listed.status, listed.text).toBe(200);
        return (listed.body as Approval[]).length >= count ? (listed.body as Approval[]) : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 25, what: `${count} ${status} approvals of ${chatId}` },
    );
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server?.stop());

  it('POST /chats and PATCH /chats/{id}/scope answer 422 naming unknown source and tag ids, and create nothing', async () => {
    const before = ((await call('GET', '/chats')).body as { pagination: { total: number } }).pagination.total;
    const issues = validationIssuesOf(
      await call('POST', '/chats', {
        title: 'Scoped',
        source_ids: ['src_missing_1', 'src_missing_2'],
        tag_ids: ['tag_missing'],
      }),
    );
    expect(issues).toEqual([
      { loc: ['body', 'source_ids'], msg: 'unknown source id(s): src_missing_1, src_missing_2', type: 'not_found' },
      { loc: ['body', 'tag_ids'], msg: 'unknown tag id(s): tag_missing', type: 'not_found' },
    ]);
    expect(((await call('GET', '/chats')).body as { pagination: { total: number } }).pagination.total).toBe(before);

    const chat = await createChat(server, cookie, { title: 'Unscoped' });
    expect(
      validationIssuesOf(await call('PATCH', `/chats/${chat.id}/scope`, { tag_ids: ['tag_missing'] }))[0].msg,
    ).toContain('tag_missing');
    const after = (await call('GET', `/chats/${chat.id}`)).body as ChatBody;
    expect(after.source_ids).toBeNull();
    expect(after.messages).toEqual([]);
  });

  it('a client subscribing after send receives the pending approval and the turn so far, lists it, and sees the answer once approved', async () => {
    expect(
      (await call('PATCH', '/settings', { chat: { tool_approval: 'always-ask', tool_approval_timeout_seconds: 60 } }))
        .status,
    ).toBe(200);
    const chat = await createChat(server, cookie);
    await sendMessage(server, cookie, chat.id, 'What is the lighthouse?');
    // The worker is already waiting for the decision when the client connects.
    const [pending] = await approvalsOf(chat.id, 'pending', 1);
    expect(pending).toMatchObject({
      tool_name: 'fused_search',
      arguments: { query: 'What is the lighthouse?' },
      status: 'pending',
      decided_at: null,
    });

    const joined = await readEvents(
      server,
      cookie,
      chat.id,
      (event) => event.type === 'tool_approval_required',
      10_000,
    );
    expect(joined.events.map((event) => event.type)).toEqual(['context_info', 'tool_calls', 'tool_approval_required']);
    expect(joined.events.every((event) => event.replayed === true)).toBe(true);
    expect(joined.events.at(-1)).toMatchObject({
      tool_call_id: pending.tool_call_id,
      tool_name: 'fused_search',
      arguments: pending.arguments,
    });

    // Joining again and deciding at once: the stream carries the turn to its end, the tool run once.
    const answered = readEvents(server, cookie, chat.id, undefined, 15_000, async () => {
      expect(
        (
          await call('POST', `/chats/${chat.id}/tool_decision`, {
            tool_call_id: pending.tool_call_id,
            decision: 'approve',
          })
        ).status,
      ).toBe(204);
    });
    const events = (await answered).events;
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    expect(events.filter((event) => event.type === 'tool_start')).toHaveLength(1);
    expect((await waitIdle(server, cookie, chat.id)).status).toBe('completed');
    expect(await approvalsOf(chat.id, 'pending', 0)).toEqual([]);
    expect(await approvalsOf(chat.id, 'approved', 1)).toEqual([
      expect.objectContaining({ tool_call_id: pending.tool_call_id, decided_at: expect.any(String) }),
    ]);
    const late = await readEvents(server, cookie, chat.id, undefined, 5_000);
    expect(late.events.map((event) => event.type)).toEqual(['done']);
  });

  it('GET /chats/{id}/tool_approvals answers 404 for an unknown chat and 422 for an unknown status', async () => {
    expect((await call('GET', '/chats/chat_nope/tool_approvals')).status).toBe(404);
    const chat = await createChat(server, cookie);
    expect(validationIssuesOf(await call('GET', `/chats/${chat.id}/tool_approvals?status=maybe`))[0].loc).toEqual([
      'query',
      'status',
    ]);
    expect((await call('GET', `/chats/${chat.id}/tool_approvals`)).body).toEqual([]);
    const openApi = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(openApi.paths['/chats/{chat_id}/tool_approvals'])).toEqual(['get']);
  });
});
