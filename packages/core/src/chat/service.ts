import { countOf } from '@rhizome/contracts/wording';
import type {
  ChatBody,
  ChatListItemBody,
  ChatStatus,
  MessageBody,
  ToolApprovalBody,
  ToolApprovalStatus,
} from '@rhizome/contracts/api/chats';
import {
  Invalid,
  NotFound,
  Conflict,
  Unavailable,
  type ValidationIssue,
  describeError,
} from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import { type PubSub, type QueueService, type TaskStore } from '@rhizome/queue';
import type { LlmService } from '../providers/index.ts';
import type { ReadinessGate } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { chatCompletionOperation, type TurnTaskData } from './tasks.ts';
import type { TurnOptions } from './turn.ts';
import { decideTool, expireStaleApprovals, listApprovals } from './approval.ts';
import { chatProcessingFailed, publishChatControl, publishChatEvent, type ChatEvent } from './events.ts';
import { reconcileChat } from './reconcile.ts';
import {
  countChats,
  deleteAllChats,
  deleteChat,
  findChat,
  findMessage,
  finishTurn,
  insertChat,
  insertMessages,
  listChats,
  listMessages,
  newTurnId,
  nowIso,
  scopeOf,
  truncateAfterLastUser,
  truncateFrom,
  updateChat,
  type ChatListFilter,
  type ChatRow,
  type MessageRow,
  type NewMessage,
} from './repo.ts';
import { existingIds, sourcesTagged } from './read-model.ts';
import { generateTitle } from './title.ts';

/**
 * Chats of one database as the API serves them (`/chats`): CRUD, scope, starting turns on
 * the queue, cancelling them, tool decisions and titles. The answering itself is `answer.ts`, in the worker.
 */

export interface ChatServiceDeps {
  db: Db;
  database: string;
  settings(): Settings;
  queue: QueueService;
  tasks: TaskStore;
  pubsub: PubSub;
  readiness: ReadinessGate;
  llm: LlmService;
}

export interface ScopeInput {
  source_ids?: string[] | null;
  tag_ids?: string[] | null;
}

/** How a turn started by another face (the OpenAI-compatible API) differs from a plain send. */
export interface SendOptions {
  /** The client's parameters of the answering turn. */
  turn?: TurnOptions;
  /** Kept on the user's message (who asked, for a client that says so). */
  messageMetadata?: Record<string, unknown>;
}

export function toMessage(row: Omit<MessageRow, 'seq'>): MessageBody {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    timestamp: row.timestamp,
    extra_metadata: row.extra_metadata ? (JSON.parse(row.extra_metadata) as Record<string, unknown>) : null,
  };
}

function toListItem(row: ChatRow, messageCount: number): ChatListItemBody {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    message_count: messageCount,
    source_ids: scopeOf(row),
  };
}

/** A validation issue naming the ids of `field` that `table` lacks; none when all exist. */
async function unknownIdIssue(
  db: Db,
  table: 'sources' | 'source_tags',
  field: 'source_ids' | 'tag_ids',
  ids: string[],
): Promise<ValidationIssue[]> {
  if (!ids.length) return [];
  const known = await existingIds(db, table, ids);
  const unknown = ids.filter((id) => !known.has(id));
  const what = table === 'sources' ? 'source' : 'tag';
  return unknown.length
    ? [{ loc: ['body', field], msg: `unknown ${what} id(s): ${unknown.join(', ')}`, type: 'not_found' }]
    : [];
}

const scopeCleared = 'Scope cleared: all enabled sources are searched.';

const unavailable = (what: string, error: unknown) => new Unavailable(`${what}: ${describeError(error)}`);

export class ChatService {
  constructor(private readonly deps: ChatServiceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  /** The chat, with a finished task's leftovers settled; 404 when it does not exist. */
  async require(id: string): Promise<ChatRow> {
    const chat = await findChat(this.db, id);
    if (!chat) throw NotFound.resource('chat', id);
    return reconcileChat(this.db, this.deps.tasks, this.deps.pubsub, chat);
  }

  async view(chat: ChatRow): Promise<ChatBody> {
    const messages = (await listMessages(this.db, chat.id)).map(toMessage);
    return { ...toListItem(chat, messages.length), messages };
  }

  async get(id: string): Promise<ChatBody> {
    return this.view(await this.require(id));
  }

  async list(
    filter: ChatListFilter,
    window: { offset: number; limit: number },
  ): Promise<{ rows: ChatListItemBody[]; total: number }> {
    const { rows, total } = await listChats(this.db, filter, window);
    return { rows: rows.map((row) => toListItem(row, Number(row.message_count))), total };
  }

  count(): Promise<number> {
    return countChats(this.db);
  }

  /**
   * Source ids of the scope: the given ones and those carrying the given tags, deduplicated; null when
   * both are empty. 422 naming every id the database does not have: a scope that silently drops them
   * would answer from other sources than the ones asked for.
   */
  async resolveScope(input: ScopeInput): Promise<string[] | null> {
    const sourceIds = [...new Set(input.source_ids ?? [])];
    const tagIds = [...new Set(input.tag_ids ?? [])];
    if (!sourceIds.length && !tagIds.length) return null;
    const issues = [
      ...(await unknownIdIssue(this.db, 'sources', 'source_ids', sourceIds)),
      ...(await unknownIdIssue(this.db, 'source_tags', 'tag_ids', tagIds)),
    ];
    if (issues.length) throw new Invalid(issues, issues.map((issue) => issue.msg).join('; '));
    const tagged = tagIds.length ? await sourcesTagged(this.db, tagIds) : [];
    return [...new Set([...sourceIds, ...tagged])];
  }

  async create(input: { title: string } & ScopeInput): Promise<ChatBody> {
    return this.view(await insertChat(this.db, { title: input.title, sourceIds: await this.resolveScope(input) }));
  }

  async rename(id: string, title: string): Promise<ChatBody> {
    await this.require(id);
    await updateChat(this.db, id, { title });
    return this.get(id);
  }

  /**
   * The operator's override: a turn in progress is stopped and forgotten (its answer will not be
   * written), so the status set here stays, `processing` included.
   */
  async setStatus(id: string, status: ChatStatus): Promise<ChatBody> {
    const chat = await this.require(id);
    if (status === chat.status) return this.view(chat);
    if (chat.status === 'processing') await this.stopTask(chat).catch(() => undefined);
    await updateChat(this.db, id, { status, current_turn_id: null, current_task_id: null });
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    if (!(await deleteChat(this.db, id))) throw NotFound.resource('chat', id);
  }

  deleteAll(): Promise<void> {
    return deleteAllChats(this.db);
  }

  async addMessage(id: string, message: NewMessage): Promise<MessageBody> {
    await this.require(id);
    const [row] = await this.db.transaction(async (trx) => {
      const rows = await insertMessages(trx, id, [message]);
      await updateChat(trx, id, {});
      return rows;
    });
    return toMessage(row);
  }

  async messages(id: string): Promise<MessageBody[]> {
    await this.require(id);
    return (await listMessages(this.db, id)).map(toMessage);
  }

  async setScope(id: string, input: ScopeInput): Promise<ChatBody> {
    await this.require(id);
    const scope = await this.resolveScope(input);
    const notice =
      scope === null ? scopeCleared : `Scope changed: answers now use ${countOf(scope.length, 'selected source')}.`;
    return this.rescope(id, scope, notice);
  }

  async clearScope(id: string): Promise<ChatBody> {
    await this.require(id);
    return this.rescope(id, null, scopeCleared);
  }

  private async rescope(id: string, scope: string[] | null, notice: string): Promise<ChatBody> {
    await this.db.transaction(async (trx) => {
      await updateChat(trx, id, { source_ids: scope === null ? null : JSON.stringify(scope) });
      await insertMessages(trx, id, [
        { role: 'system', content: notice, extra_metadata: { kind: 'scope_change', source_ids: scope } },
      ]);
    });
    return this.get(id);
  }

  /** POST /send: the user's message is saved and its answer queued. */
  async send(
    id: string,
    input: { content: string; replace_from_message_id?: string },
    options: SendOptions = {},
  ): Promise<{ task_id: string; status: 'processing' }> {
    const chat = await this.require(id);
    let replaceFrom: MessageRow | undefined;
    if (input.replace_from_message_id !== undefined) {
      replaceFrom = await findMessage(this.db, id, input.replace_from_message_id);
      if (!replaceFrom || replaceFrom.role !== 'user') {
        throw new Conflict(`message '${input.replace_from_message_id}' is not a user message of this chat`, {
          message_id: input.replace_from_message_id,
        });
      }
    }
    await this.deps.readiness.assertReady('chat');
    return this.startTurn(
      chat,
      async (trx) => {
        if (replaceFrom) await truncateFrom(trx, id, replaceFrom.seq);
        await insertMessages(trx, id, [
          { role: 'user', content: input.content, extra_metadata: options.messageMetadata },
        ]);
      },
      options.turn,
    );
  }

  /** POST /retry and /regenerate: answer the last user message again (regenerate drops what came after it first). */
  async rerun(id: string, mode: 'retry' | 'regenerate'): Promise<{ task_id: string; status: 'processing' }> {
    const chat = await this.require(id);
    if (chat.status === 'processing') throw new Conflict('a turn is already in progress', { chat_id: id });
    const hasUser = await this.db('chat_messages').where({ chat_id: id, role: 'user' }).first('id');
    if (!hasUser) throw new Conflict('the chat has no user message to answer', { chat_id: id });
    await this.deps.readiness.assertReady('chat');
    return this.startTurn(chat, async (trx) => {
      if (mode === 'regenerate') await truncateAfterLastUser(trx, id);
    });
  }

  /**
   * Moves the chat to a new turn (together with `prepare`'s message changes, in one transaction), then
   * queues its answer. A turn still running is superseded. When queueing fails the turn ends in error
   * and the user's message stays, as after any failed run.
   */
  private async startTurn(
    chat: ChatRow,
    prepare: (trx: Db) => Promise<void>,
    turnOptions?: TurnOptions,
  ): Promise<{ task_id: string; status: 'processing' }> {
    const turnId = newTurnId();
    await this.db.transaction(async (trx) => {
      await prepare(trx);
      await updateChat(trx, chat.id, {
        status: 'processing',
        current_turn_id: turnId,
        current_task_id: null,
        last_error: null,
      });
    });
    if (chat.status === 'processing' && chat.current_turn_id) await this.stopTask(chat).catch(() => undefined);
    const settings = this.deps.settings();
    const data: TurnTaskData = {
      database: this.deps.database,
      chat_id: chat.id,
      turn_id: turnId,
      ...(turnOptions ? { options: turnOptions } : {}),
    };
    let taskId: string;
    try {
      const task = await this.deps.queue.submit({
        queue: 'llm',
        operation: chatCompletionOperation,
        data: { ...data },
        priority: settings.priorities.interactive,
        metadata: { database: this.deps.database, chat_id: chat.id },
      });
      taskId = task.task_id;
    } catch (error) {
      await finishTurn(this.db, chat.id, turnId, { status: 'error', last_error: describeError(error) });
      throw error;
    }
    await this.db('chats').where({ id: chat.id, current_turn_id: turnId }).update({ current_task_id: taskId });
    return { task_id: taskId, status: 'processing' };
  }

  /** Tells the worker to stop the chat's turn and marks its task cancelled; true when the task had not started. */
  private async stopTask(chat: ChatRow): Promise<boolean> {
    await publishChatControl(this.deps.pubsub, chat.id, { type: 'cancel', turn_id: chat.current_turn_id ?? '' });
    if (!chat.current_task_id) return true;
    await this.deps.tasks.cancel(chat.current_task_id, Date.now());
    const task = await this.deps.tasks.get(chat.current_task_id);
    return !task?.started_at;
  }

  /** POST /cancel (202 cancelling; 409 when idle; 503 when the stop cannot be delivered). */
  async cancel(id: string): Promise<{ status: 'cancelling' }> {
    const chat = await this.require(id);
    if (chat.status !== 'processing' || !chat.current_turn_id)
      throw new Conflict('no turn is in progress', { chat_id: id, status: chat.status });
    let neverStarted: boolean;
    try {
      neverStarted = await this.stopTask(chat);
    } catch (error) {
      throw unavailable('cancellation transport unavailable', error);
    }
    // A task that never ran has no worker to finish the turn: end it here.
    if (neverStarted && (await finishTurn(this.db, id, chat.current_turn_id, { status: 'active' }))) {
      await publishChatEvent(this.deps.pubsub, id, { type: 'done', status: 'cancelled', content: '', llm_debug: null });
    }
    return { status: 'cancelling' };
  }

  async decide(id: string, toolCallId: string, decision: 'approve' | 'reject'): Promise<void> {
    await expireStaleApprovals(this.db, await this.require(id));
    await decideTool(this.db, this.deps.pubsub, id, toolCallId, decision);
  }

  /** GET /tool_approvals: the chat's approval requests, oldest first; `pending` ones await POST /tool_decision. */
  async toolApprovals(id: string, status?: ToolApprovalStatus): Promise<ToolApprovalBody[]> {
    await expireStaleApprovals(this.db, await this.require(id));
    return listApprovals(this.db, id, status);
  }

  /**
   * A subscriber joined the chat's running turn: asks the worker answering it for the turn's events so
   * far, which come back on the event channel as `turn_state` for `requestId`. False when the turn's
   * task has not started, so a subscriber that is already listening can have missed nothing.
   */
  async requestReplay(chat: ChatRow, requestId: string): Promise<boolean> {
    if (chat.status !== 'processing' || !chat.current_turn_id) return false;
    const task = chat.current_task_id ? await this.deps.tasks.get(chat.current_task_id) : null;
    if (task && !task.started_at) return false;
    await publishChatControl(this.deps.pubsub, chat.id, {
      type: 'replay',
      turn_id: chat.current_turn_id,
      request_id: requestId,
    });
    return true;
  }

  /** What a client connecting to an idle chat's events receives at once: its last answer, or its error. */
  async idleEvent(chat: ChatRow): Promise<ChatEvent> {
    if (chat.status === 'error')
      return { type: 'error', error: chat.last_error ?? 'the last answer failed', error_code: chatProcessingFailed };
    const last = await this.db('chat_messages')
      .where({ chat_id: chat.id, role: 'assistant' })
      .orderBy('seq', 'desc')
      .first();
    const metadata = last?.extra_metadata ? (JSON.parse(last.extra_metadata) as Record<string, unknown>) : {};
    return {
      type: 'done',
      status: chat.status,
      content: last?.content ?? '',
      llm_debug: (metadata.llm_debug as Record<string, unknown> | undefined) ?? null,
      ...(metadata.chunk_citations ? { chunk_citations: metadata.chunk_citations as Record<string, unknown> } : {}),
      ...(metadata.referenced_entities ? { referenced_entities: metadata.referenced_entities as unknown[] } : {}),
    };
  }

  /** POST /generate_title: the chat unchanged when it has no user message or the model gives no usable title. */
  async generateTitle(id: string): Promise<ChatBody> {
    const chat = await this.require(id);
    const first = await this.db('chat_messages').where({ chat_id: id, role: 'user' }).orderBy('seq').first('content');
    if (!first) return this.view(chat);
    const title = await generateTitle(this.deps.llm, this.deps.settings(), first.content, {
      database: this.deps.database,
      chatId: id,
    }).catch(() => null);
    if (title) await this.db('chats').where({ id }).update({ title, updated_at: nowIso() });
    return this.get(id);
  }
}
