import { InProcessPubSub } from '@rhizome/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  awaitDecision,
  decideTool,
  expireStaleApprovals,
  listApprovals,
  requestApproval,
} from '../../src/chat/approval.ts';
import {
  chunksWithSource,
  edgesTouching,
  entityLabels,
  existingIds,
  sourcesTagged,
} from '../../src/chat/read-model.ts';
import {
  countChats,
  deleteAllChats,
  finishTurn,
  insertChat,
  insertMessages,
  listChats,
  listMessages,
  truncateAfterLastUser,
  truncateFrom,
  updateChat,
} from '../../src/chat/repo.ts';
import type { Db } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';

async function seedSourcesAndGraph(db: Db): Promise<void> {
  await db('sources').insert([
    { id: 's1', title: 'Report', filename: 'report.txt', created_at: at, updated_at: at },
    { id: 's2', origin_url: 'https://example.org/page', created_at: at, updated_at: at },
  ]);
  await db('source_tags').insert({ id: 't1', name: 'physics', created_at: at, updated_at: at });
  await db('source_tag_links').insert({ source_id: 's2', tag_id: 't1' });
  await db('document_chunks').insert([
    { id: 'c1', source_id: 's1', chunk_index: 0, content: 'First.', start_offset: 0, end_offset: 6, created_at: at },
    { id: 'c2', source_id: 's2', chunk_index: 0, content: 'Second.', page_number: 3, created_at: at },
  ]);
  await db('graph_templates').insert([
    { id: 'person', name: 'Person', template_type: 'node', created_at: at, updated_at: at },
    { id: 'knows', name: 'knows', template_type: 'edge', created_at: at, updated_at: at },
  ]);
  const node = (id: string, label: string) => ({ id, template_id: 'person', label, created_at: at, updated_at: at });
  await db('graph_nodes').insert([node('a', 'Ada'), node('b', 'Bob'), node('c', 'Cy')]);
  const edge = (id: string, from: string, to: string) => ({
    id,
    template_id: 'knows',
    source_node_id: from,
    target_node_id: to,
    label: 'knows',
    created_at: at,
    updated_at: at,
  });
  await db('graph_edges').insert([edge('ab', 'a', 'b'), edge('bc', 'b', 'c')]);
}

/** Chats, their messages and tool approvals, and what chat reads of other features, on both dialects. */
describe.each(dialects)('chats on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  const pubsub = new InProcessPubSub();
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('chats');
    await seedSourcesAndGraph(db);
  }, 120_000);
  afterAll(() => databases.close());

  it('lists chats newest first, filtering titles caselessly with `%` and `_` taken literally', async () => {
    const first = await insertChat(db, { title: 'Physics 100% done', sourceIds: ['s1'] });
    const second = await insertChat(db, { title: 'Chemistry_notes', sourceIds: null });
    // Explicit times: two chats made in the same millisecond would order by their random ids.
    await db('chats').where({ id: first.id }).update({ updated_at: '2026-01-02T00:00:00.000Z' });
    await db('chats').where({ id: second.id }).update({ updated_at: '2026-01-01T00:00:00.000Z' });
    await insertMessages(db, second.id, [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', extra_metadata: { turn_id: 't' } },
    ]);
    const ids = async (filter: Parameters<typeof listChats>[1]) =>
      (await listChats(db, filter, { offset: 0, limit: 10 })).rows.map((row) => [row.id, Number(row.message_count)]);

    expect(await ids({})).toEqual([
      [first.id, 0],
      [second.id, 2],
    ]);
    expect(await ids({ q: 'PHYSICS' })).toEqual([[first.id, 0]]);
    expect(await ids({ q: '100%' })).toEqual([[first.id, 0]]);
    expect(await ids({ q: 's_' })).toEqual([]);
    expect(await ids({ q: 'y_n' })).toEqual([[second.id, 2]]);
    expect(await ids({ q: '%' })).toEqual([[first.id, 0]]);
    expect(await ids({ scoped: true })).toEqual([[first.id, 0]]);
    expect(await ids({ scoped: false })).toEqual([[second.id, 2]]);
    expect((await listChats(db, {}, { offset: 1, limit: 1 })).total).toBe(2);
    expect(await countChats(db)).toBe(2);
  });

  it('keeps messages in insertion order and truncates them by position', async () => {
    const chat = await insertChat(db, { title: 'Turns', sourceIds: null });
    await insertMessages(db, chat.id, [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'a2' },
      { role: 'tool', content: 't2' },
    ]);
    const messages = await listMessages(db, chat.id);
    expect(messages.map((message) => message.content)).toEqual(['q1', 'a1', 'q2', 'a2', 't2']);
    expect(messages.every((message, index) => index === 0 || message.seq > messages[index - 1].seq)).toBe(true);

    expect(await truncateAfterLastUser(db, chat.id)).toBe(true);
    expect((await listMessages(db, chat.id)).map((message) => message.content)).toEqual(['q1', 'a1', 'q2']);
    await truncateFrom(db, chat.id, messages[1].seq);
    expect((await listMessages(db, chat.id)).map((message) => message.content)).toEqual(['q1']);
    const empty = await insertChat(db, { title: 'Empty', sourceIds: null });
    expect(await truncateAfterLastUser(db, empty.id)).toBe(false);

    await updateChat(db, chat.id, { status: 'processing', current_turn_id: 'turn_1' });
    expect(await finishTurn(db, chat.id, 'turn_0', { status: 'completed' })).toBe(false);
    expect(await finishTurn(db, chat.id, 'turn_1', { status: 'completed' })).toBe(true);
    expect(await finishTurn(db, chat.id, 'turn_1', { status: 'error' })).toBe(false);
  });

  it("records tool approvals, their decisions and the expiry of a turn's stale ones", async () => {
    const chat = await insertChat(db, { title: 'Tools', sourceIds: null });
    const request = (toolCallId: string, turnId: string) =>
      requestApproval(db, { chatId: chat.id, turnId, toolCallId, toolName: 'create_node', arguments: { label: 'X' } });
    await request('call_1', 'turn_1');
    await request('call_2', 'turn_2');
    await decideTool(db, pubsub, chat.id, 'call_1', 'approve');
    await expect(decideTool(db, pubsub, chat.id, 'call_1', 'reject')).rejects.toMatchObject({ kind: 'not_found' });
    expect(await awaitDecision(db, pubsub, chat.id, 'call_1', 1_000, new AbortController().signal)).toBe('approve');

    await expireStaleApprovals(db, { id: chat.id, status: 'processing', current_turn_id: 'turn_2' });
    expect((await listApprovals(db, chat.id, 'pending')).map((approval) => approval.tool_call_id)).toEqual(['call_2']);
    await expireStaleApprovals(db, { id: chat.id, status: 'completed', current_turn_id: 'turn_2' });
    expect(await listApprovals(db, chat.id)).toEqual([
      expect.objectContaining({ tool_call_id: 'call_1', status: 'approved', arguments: { label: 'X' } }),
      expect.objectContaining({ tool_call_id: 'call_2', status: 'expired', decided_at: expect.any(String) }),
    ]);
  });

  it('reads scopes, cited passages, entity labels and neighbouring edges by id lists', async () => {
    expect([...(await existingIds(db, 'sources', ['s2', 'nope', 's1']))].sort()).toEqual(['s1', 's2']);
    expect([...(await existingIds(db, 'source_tags', ['t1', 't9']))]).toEqual(['t1']);
    expect(await existingIds(db, 'sources', [])).toEqual(new Set());
    expect(await sourcesTagged(db, ['t1'])).toEqual(['s2']);

    const passages = await chunksWithSource(db, ['c2', 'c1', 'c9']);
    expect(passages.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      expect.objectContaining({
        id: 'c1',
        source_id: 's1',
        content: 'First.',
        start_offset: 0,
        filename: 'report.txt',
      }),
      expect.objectContaining({ id: 'c2', page_number: 3, filename: 'https://example.org/page' }),
    ]);
    expect(await entityLabels(db, 'node', ['b', 'a'])).toEqual(
      expect.arrayContaining([
        { id: 'a', label: 'Ada', template_id: 'person' },
        { id: 'b', label: 'Bob', template_id: 'person' },
      ]),
    );
    expect((await edgesTouching(db, ['c'], 10)).map((edge) => [edge.id, edge.a, edge.b])).toEqual([['bc', 'b', 'c']]);
    expect((await edgesTouching(db, ['a', 'c'], 10)).map((edge) => edge.id).sort()).toEqual(['ab', 'bc']);
    expect(await edgesTouching(db, ['b'], 1)).toHaveLength(1);
  });

  it('deletes every chat with its messages and approvals', async () => {
    await deleteAllChats(db);
    expect(await countChats(db)).toBe(0);
    expect(await db('chat_messages').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await db('chat_tool_approvals').count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});
