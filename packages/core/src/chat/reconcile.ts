import type { PubSub, TaskStore } from '@rhizome/queue';
import type { Db } from '../storage/index.ts';
import { chatProcessingFailed, publishChatEvent } from './events.ts';
import { findChat, finishTurn, type ChatRow } from './repo.ts';

/**
 * A chat never stays `processing` after the task answering it ended: a worker that crashed, a task
 * failed or cancelled before it ran, or a task record that expired. Checked when a chat is read and for
 * every processing chat at start-up. A turn whose task was never recorded (the enqueue itself failed
 * after the chat moved) is given `orphanAfterMs` before it counts as lost. A chat the operator set to
 * `processing` by hand has no turn and is left as set.
 */

const orphanAfterMs = 60_000;

async function settle(
  db: Db,
  pubsub: PubSub,
  chat: ChatRow,
  outcome: { status: 'active' | 'error'; error?: string },
): Promise<void> {
  if (
    !(await finishTurn(db, chat.id, chat.current_turn_id!, {
      status: outcome.status,
      last_error: outcome.error ?? null,
    }))
  )
    return;
  await publishChatEvent(
    pubsub,
    chat.id,
    outcome.status === 'error'
      ? { type: 'error', error: outcome.error ?? 'the answer failed', error_code: chatProcessingFailed }
      : { type: 'done', status: 'cancelled', content: '', llm_debug: null },
  );
}

/** The chat as it is once a finished task's leftovers are settled. */
export async function reconcileChat(db: Db, tasks: TaskStore, pubsub: PubSub, chat: ChatRow): Promise<ChatRow> {
  if (chat.status !== 'processing' || !chat.current_turn_id) return chat;
  if (!chat.current_task_id) {
    if (Date.now() - Date.parse(chat.updated_at) < orphanAfterMs) return chat;
    await settle(db, pubsub, chat, { status: 'error', error: 'the answer was never queued' });
  } else {
    const task = await tasks.get(chat.current_task_id);
    if (task && (task.status === 'queued' || task.status === 'running')) return chat;
    if (task?.status === 'cancelled') await settle(db, pubsub, chat, { status: 'active' });
    else
      await settle(db, pubsub, chat, {
        status: 'error',
        error: task?.error ?? 'the task answering this chat ended without an answer',
      });
  }
  return (await findChat(db, chat.id)) ?? chat;
}

/** Settles every processing chat of a database whose task has ended (at start-up). */
export async function reconcileChats(db: Db, tasks: TaskStore, pubsub: PubSub): Promise<number> {
  const processing = await db('chats').where({ status: 'processing' });
  let settled = 0;
  for (const chat of processing) {
    if ((await reconcileChat(db, tasks, pubsub, chat)).status !== 'processing') settled += 1;
  }
  return settled;
}
