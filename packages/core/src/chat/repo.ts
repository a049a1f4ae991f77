import { randomBytes } from 'node:crypto';
import type { ChatStatus } from '@rhizome/contracts/api/chats';
import { perDialect, type Db } from '../storage/index.ts';

/** Chats and their messages in SQL (migration 0008). */

export interface ChatRow {
  id: string;
  title: string;
  status: ChatStatus;
  source_ids: string | null;
  current_turn_id: string | null;
  current_task_id: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface MessageRow {
  seq: number;
  id: string;
  chat_id: string;
  role: string;
  content: string;
  timestamp: string;
  extra_metadata: string | null;
}

export interface ChatListFilter {
  scoped?: boolean;
  q?: string;
}

export const newChatId = () => `chat_${randomBytes(12).toString('hex')}`;
export const newMessageId = () => `msg_${randomBytes(12).toString('hex')}`;
export const newTurnId = () => `turn_${randomBytes(12).toString('hex')}`;

export const nowIso = () => new Date().toISOString();

export function scopeOf(row: Pick<ChatRow, 'source_ids'>): string[] | null {
  return row.source_ids === null ? null : (JSON.parse(row.source_ids) as string[]);
}

export async function insertChat(db: Db, chat: { title: string; sourceIds: string[] | null }): Promise<ChatRow> {
  const at = nowIso();
  const row: ChatRow = {
    id: newChatId(),
    title: chat.title,
    status: 'active',
    source_ids: chat.sourceIds === null ? null : JSON.stringify(chat.sourceIds),
    current_turn_id: null,
    current_task_id: null,
    last_error: null,
    created_at: at,
    updated_at: at,
  };
  await db('chats').insert(row);
  return row;
}

export async function findChat(db: Db, id: string): Promise<ChatRow | undefined> {
  return db('chats').where({ id }).first();
}

/** A position in lower(title) rather than LIKE: a `%` or `_` in the filter is matched literally. */
const titleContains = perDialect<[], string>({
  sqlite: () => 'instr(lower(title), ?) > 0',
  postgres: () => 'strpos(lower(title), ?) > 0',
});

function listQuery(db: Db, filter: ChatListFilter) {
  const query = db('chats');
  if (filter.scoped === true) query.whereNotNull('source_ids');
  if (filter.scoped === false) query.whereNull('source_ids');
  if (filter.q) query.whereRaw(titleContains(db), [filter.q.toLowerCase()]);
  return query;
}

export async function listChats(
  db: Db,
  filter: ChatListFilter,
  window: { offset: number; limit: number },
): Promise<{ rows: (ChatRow & { message_count: number })[]; total: number }> {
  const [{ total }] = await listQuery(db, filter).count({ total: '*' });
  const rows = (await listQuery(db, filter)
    .select('chats.*', db.raw('(SELECT COUNT(*) FROM chat_messages m WHERE m.chat_id = chats.id) AS message_count'))
    .orderBy([
      { column: 'updated_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(window.limit)
    .offset(window.offset)) as (ChatRow & { message_count: number })[];
  return { rows, total: Number(total) };
}

export async function countChats(db: Db): Promise<number> {
  const [{ total }] = await db('chats').count({ total: '*' });
  return Number(total);
}

export async function updateChat(
  db: Db,
  id: string,
  changes: Partial<Omit<ChatRow, 'id' | 'created_at'>>,
): Promise<void> {
  await db('chats')
    .where({ id })
    .update({ ...changes, updated_at: nowIso() });
}

/**
 * Moves a chat on from a turn only while it is still on that turn and processing: the one write that
 * decides who finishes a turn (worker, cancel, reconcile). True when this call made the move.
 */
export async function finishTurn(
  db: Db,
  chatId: string,
  turnId: string,
  changes: Partial<Pick<ChatRow, 'status' | 'last_error'>>,
): Promise<boolean> {
  const moved = await db('chats')
    .where({ id: chatId, current_turn_id: turnId, status: 'processing' })
    .update({ ...changes, updated_at: nowIso() });
  return moved > 0;
}

export async function deleteChat(db: Db, id: string): Promise<boolean> {
  return (await db('chats').where({ id }).delete()) > 0;
}

export async function deleteAllChats(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('chat_tool_approvals').delete();
    await trx('chat_messages').delete();
    await trx('chats').delete();
  });
}

export async function listMessages(db: Db, chatId: string): Promise<MessageRow[]> {
  return db('chat_messages').where({ chat_id: chatId }).orderBy('seq');
}

export async function findMessage(db: Db, chatId: string, id: string): Promise<MessageRow | undefined> {
  return db('chat_messages').where({ chat_id: chatId, id }).first();
}

export interface NewMessage {
  role: string;
  content: string;
  extra_metadata?: Record<string, unknown> | null;
}

export function messageRow(chatId: string, message: NewMessage): Omit<MessageRow, 'seq'> {
  return {
    id: newMessageId(),
    chat_id: chatId,
    role: message.role,
    content: message.content,
    timestamp: nowIso(),
    extra_metadata: message.extra_metadata ? JSON.stringify(message.extra_metadata) : null,
  };
}

export async function insertMessages(
  db: Db,
  chatId: string,
  messages: NewMessage[],
): Promise<Omit<MessageRow, 'seq'>[]> {
  const rows = messages.map((message) => messageRow(chatId, message));
  if (rows.length) await db('chat_messages').insert(rows);
  return rows;
}

/** Removes the messages from `seq` on (inclusive). */
export async function truncateFrom(db: Db, chatId: string, seq: number): Promise<void> {
  await db('chat_messages').where({ chat_id: chatId }).andWhere('seq', '>=', seq).delete();
}

/** Removes the messages after the chat's last user message; false when it has none. */
export async function truncateAfterLastUser(db: Db, chatId: string): Promise<boolean> {
  const last = await db('chat_messages').where({ chat_id: chatId, role: 'user' }).max({ seq: 'seq' }).first();
  if (last?.seq === null || last?.seq === undefined) return false;
  await db('chat_messages').where({ chat_id: chatId }).andWhere('seq', '>', last.seq).delete();
  return true;
}
