import type { Settings } from '@rhizome/contracts/settings';
import { TaskCancelledError, type HandlerContext, type PubSub } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import { LlmError } from '../providers/index.ts';
import type { LlmService } from '../providers/index.ts';
import type { TaskRegistrar } from '../module/index.ts';
import type { Db } from '../storage/index.ts';
import { finalizeAnswer } from './citations.ts';
import { contextRecord } from './context-record.ts';
import { chatProcessingFailed, publishChatEvent, subscribeChatControl, type ChatEvent } from './events.ts';
import { findChat, finishTurn, insertMessages, listMessages, type ChatRow } from './repo.ts';
import { TurnLog } from './turn-log.ts';
import { runTurn, TurnState, type TurnOptions } from './turn.ts';
import { describeError } from '@rhizome/contracts/errors';

/**
 * The queue operation answering a chat turn (llm lane, interactive priority). It answers only while
 * the chat is still on the task's turn; the answer and the chat's move to `completed` are one
 * transaction guarded by that turn, so nothing is written for a turn cancelled or replaced meanwhile.
 * A failed run writes nothing but the chat's `error` status; a cancelled one keeps its partial answer
 * with a stopped notice.
 */

export const chatCompletionOperation = 'chat_completion';

export const stoppedNotice = '[Response stopped by the user]';

export interface ChatOperationDeps {
  databases: DatabaseManager;
  settings(): Settings;
  llm: LlmService;
  embeddings: EmbeddingService;
  pubsub: PubSub;
}

export interface TurnTaskData {
  database: string;
  chat_id: string;
  turn_id: string;
  /** The client's parameters of this turn (absent: the settings alone decide). */
  options?: TurnOptions;
}

function isCancellation(error: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted || error instanceof TaskCancelledError || (error instanceof LlmError && error.kind === 'cancelled')
  );
}

function llmDebug(state: TurnState, settings: Settings, startedAt: number): Record<string, unknown> {
  return {
    provider: settings.llm.chat_provider,
    model: state.model || null,
    iterations: state.iterations,
    tool_call_count: state.toolCalls.length,
    input_tokens: state.usage.inputTokens,
    output_tokens: state.usage.outputTokens,
    finish_reason: state.finishReason,
    duration_ms: Math.round(performance.now() - startedAt),
  };
}

class TurnRunner {
  private readonly state = new TurnState();
  private readonly startedAt = performance.now();

  constructor(
    private readonly deps: ChatOperationDeps,
    private readonly db: Db,
    private readonly chat: ChatRow,
    private readonly turnId: string,
    private readonly settings: Settings,
    private readonly options: TurnOptions,
  ) {}

  private readonly log = new TurnLog();

  emit = (event: ChatEvent): Promise<void> => {
    this.log.record(event);
    return publishChatEvent(this.deps.pubsub, this.chat.id, event);
  };

  async run(database: string, context: HandlerContext): Promise<unknown> {
    const stop = new AbortController();
    const signal = AbortSignal.any([context.signal, stop.signal]);
    const unsubscribe = await subscribeChatControl(this.deps.pubsub, this.chat.id, (message) => {
      if (message.type === 'cancel' && message.turn_id === this.turnId) stop.abort();
      if (message.type === 'replay' && message.turn_id === this.turnId) {
        void publishChatEvent(this.deps.pubsub, this.chat.id, {
          type: 'turn_state',
          request_id: message.request_id,
          events: this.log.snapshot(),
        }).catch(() => undefined);
      }
    });
    const checkCancelled = async () => {
      signal.throwIfAborted();
      await context.checkCancelled();
    };
    try {
      await checkCancelled();
      const history = await listMessages(this.db, this.chat.id);
      const search = { db: this.db, database, settings: this.settings, embeddings: this.deps.embeddings };
      await runTurn(
        { llm: this.deps.llm, pubsub: this.deps.pubsub, settings: this.settings, search, emit: this.emit },
        {
          db: this.db,
          chat: this.chat,
          turnId: this.turnId,
          taskId: context.task.task_id,
          history,
          options: this.options,
          signal,
          checkCancelled,
        },
        this.state,
      );
      return await this.persist('completed');
    } catch (error) {
      if (isCancellation(error, signal)) return this.persist('cancelled');
      await this.fail(error);
      throw error;
    } finally {
      await unsubscribe();
    }
  }

  private async persist(outcome: 'completed' | 'cancelled'): Promise<unknown> {
    const answer = await finalizeAnswer(this.db, this.state.text, this.state.ledger);
    if (answer.dropped_citations)
      this.state.warnings.push(`${answer.dropped_citations} citation(s) of passages never retrieved were removed`);
    const content =
      outcome === 'cancelled' ? `${answer.content}${answer.content ? '\n\n' : ''}${stoppedNotice}` : answer.content;
    const debug = llmDebug(this.state, this.settings, this.startedAt);
    const toolCalls = this.state.toolCalls.map(({ id, name, arguments: args, status, duration_ms }) => ({
      id,
      name,
      arguments: args,
      status,
      duration_ms,
    }));
    const metadata = {
      chunk_citations: answer.chunk_citations,
      referenced_entities: answer.referenced_entities,
      tool_calls: toolCalls,
      llm_debug: debug,
      ...(this.state.history ? { context: contextRecord(this.state.history, this.state.ledger) } : {}),
      ...(this.state.thinking ? { thinking: this.state.thinking } : {}),
      ...(this.state.warnings.length ? { warnings: this.state.warnings } : {}),
      ...(outcome === 'cancelled' ? { stopped: true } : {}),
    };
    const written = await this.db.transaction(async (trx) => {
      const moved = await finishTurn(trx, this.chat.id, this.turnId, {
        status: outcome === 'completed' ? 'completed' : 'active',
        last_error: null,
      });
      if (moved) await insertMessages(trx, this.chat.id, [{ role: 'assistant', content, extra_metadata: metadata }]);
      return moved;
    });
    if (!written) return { skipped: 'the chat moved on from this turn' };
    await this.emit({
      type: 'done',
      status: outcome,
      content,
      llm_debug: debug,
      ...(this.state.thinking ? { thinking: this.state.thinking } : {}),
      tool_calls: toolCalls,
      chunk_citations: answer.chunk_citations,
      referenced_entities: answer.referenced_entities,
      ...(this.state.warnings.length ? { warnings: this.state.warnings } : {}),
    });
    return { status: outcome, citations: Object.keys(answer.chunk_citations).length };
  }

  private async fail(error: unknown): Promise<void> {
    const message = describeError(error);
    const moved = await finishTurn(this.db, this.chat.id, this.turnId, {
      status: 'error',
      last_error: message.slice(0, 2000),
    });
    if (!moved) return;
    const details = error instanceof LlmError ? { kind: error.kind } : undefined;
    await this.emit({
      type: 'error',
      error: message,
      error_code: chatProcessingFailed,
      ...(details ? { error_details: details } : {}),
    });
  }
}

export function defineChatOperations(registry: TaskRegistrar, deps: ChatOperationDeps): void {
  // A turn's failure is the operator's to retry (POST /retry): re-running it silently would stream a second answer.
  registry.define(chatCompletionOperation, { queue: 'llm', retryOnTransient: false }, async (context) => {
    const data = context.task.data as Partial<TurnTaskData>;
    const { name, db } = await taskDatabaseFor(deps.databases, data.database);
    const chat = await findChat(db, String(data.chat_id));
    if (!chat || chat.status !== 'processing' || chat.current_turn_id !== data.turn_id)
      return { skipped: 'the chat is no longer on this turn' };
    return new TurnRunner(deps, db, chat, chat.current_turn_id, deps.settings(), data.options ?? {}).run(name, context);
  });
}
