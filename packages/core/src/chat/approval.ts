import type { ToolApprovalBody, ToolApprovalStatus } from '@rhizome/contracts/api/chats';
import { NotFound } from '@rhizome/contracts/errors';
import type { PubSub } from '@rhizome/queue';
import type { Db } from '../storage/index.ts';
import { nowIso } from './repo.ts';
import { publishChatControl, subscribeChatControl } from './events.ts';

/**
 * Tool approval. The pending request is a row both processes see; the first move away
 * from `pending` wins (the operator's decision or the worker's timeout), so a late decision cannot
 * change an outcome already acted on. A decision also wakes the waiting worker over the control
 * channel; polling covers a missed message.
 */

export type ApprovalMode = 'always-ask' | 'ask-on-write' | 'never-ask';
export type ApprovalOutcome = 'approve' | 'reject' | 'timeout';

export function needsApproval(mode: ApprovalMode, mutating: boolean): boolean {
  return mode === 'always-ask' || (mode === 'ask-on-write' && mutating);
}

const pollMs = 500;

interface PendingApproval {
  chatId: string;
  turnId: string;
  toolCallId: string;
  toolName: string;
  arguments: Record<string, unknown>;
}

export async function requestApproval(db: Db, request: PendingApproval): Promise<void> {
  await db('chat_tool_approvals').insert({
    chat_id: request.chatId,
    tool_call_id: request.toolCallId,
    turn_id: request.turnId,
    tool_name: request.toolName,
    arguments: JSON.stringify(request.arguments),
    status: 'pending',
    created_at: nowIso(),
  });
}

const outcomes: Record<string, ApprovalOutcome> = { approved: 'approve', rejected: 'reject', expired: 'timeout' };

async function outcomeOf(db: Db, chatId: string, toolCallId: string): Promise<ApprovalOutcome | null> {
  const row = await db('chat_tool_approvals').where({ chat_id: chatId, tool_call_id: toolCallId }).first('status');
  return row ? (outcomes[row.status] ?? null) : 'timeout';
}

/** Waits for the decision on a requested approval; denied once `timeoutMs` passes unanswered. Throws when `signal` aborts. */
export async function awaitDecision(
  db: Db,
  pubsub: PubSub,
  chatId: string,
  toolCallId: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ApprovalOutcome> {
  let wake: () => void = () => undefined;
  const unsubscribe = await subscribeChatControl(pubsub, chatId, (message) => {
    if (message.type === 'decision' && message.tool_call_id === toolCallId) wake();
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      signal.throwIfAborted();
      const outcome = await outcomeOf(db, chatId, toolCallId);
      if (outcome) return outcome;
      const left = deadline - Date.now();
      if (left <= 0) {
        const expired = await db('chat_tool_approvals')
          .where({ chat_id: chatId, tool_call_id: toolCallId, status: 'pending' })
          .update({ status: 'expired', decided_at: nowIso() });
        if (expired) return 'timeout';
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(pollMs, left));
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  } finally {
    await unsubscribe();
    // A turn stopped while waiting leaves no request a late decision could still "approve".
    await db('chat_tool_approvals')
      .where({ chat_id: chatId, tool_call_id: toolCallId, status: 'pending' })
      .update({ status: 'expired', decided_at: nowIso() });
  }
}

/** Records the operator's decision; 404 when no pending approval of this chat has that id. */
export async function decideTool(
  db: Db,
  pubsub: PubSub,
  chatId: string,
  toolCallId: string,
  decision: 'approve' | 'reject',
): Promise<void> {
  const moved = await db('chat_tool_approvals')
    .where({ chat_id: chatId, tool_call_id: toolCallId, status: 'pending' })
    .update({ status: decision === 'approve' ? 'approved' : 'rejected', decided_at: nowIso() });
  if (!moved) throw NotFound.resource('pending tool approval', toolCallId);
  await publishChatControl(pubsub, chatId, { type: 'decision', tool_call_id: toolCallId });
}

/**
 * Requests of turns the chat is no longer running (a worker that died while waiting, a turn replaced)
 * can never be acted on: they are expired, so nothing lists them as pending or accepts a decision on them.
 */
export async function expireStaleApprovals(
  db: Db,
  chat: { id: string; status: string; current_turn_id: string | null },
): Promise<void> {
  const stale = db('chat_tool_approvals').where({ chat_id: chat.id, status: 'pending' });
  if (chat.status === 'processing' && chat.current_turn_id) stale.whereNot({ turn_id: chat.current_turn_id });
  await stale.update({ status: 'expired', decided_at: nowIso() });
}

/** The chat's approval requests, oldest first, optionally of one status. */
export async function listApprovals(db: Db, chatId: string, status?: ToolApprovalStatus): Promise<ToolApprovalBody[]> {
  const query = db('chat_tool_approvals').where({ chat_id: chatId });
  if (status) query.where({ status });
  const rows = await query.orderBy([{ column: 'created_at' }, { column: 'tool_call_id' }]);
  return rows.map((row) => ({
    tool_call_id: row.tool_call_id,
    tool_name: row.tool_name,
    arguments: JSON.parse(row.arguments) as Record<string, unknown>,
    status: row.status,
    turn_id: row.turn_id,
    created_at: row.created_at,
    decided_at: row.decided_at ?? null,
  }));
}
