import type { PubSub } from '@rhizome/queue';
import type { LedgerChunk } from './ledger.ts';

/**
 * The events of a chat turn (docs/decisions/0012 and 0022), published by the worker on the chat's channel and
 * forwarded by the API as server-sent events `data: {"type": …}`. `done` and `error` end a turn.
 */
export type ChatEvent =
  | { type: 'content'; delta: string; accumulated: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'tool_calls'; tool_calls: ToolCallSummary[] }
  | { type: 'tool_start'; tool: string; tool_call_id: string; arguments: Record<string, unknown>; iteration: number }
  | { type: 'tool_result'; tool: string; tool_call_id: string; result: string; duration_ms: number }
  | { type: 'iteration_progress'; iteration: number; tool_count: number; total_tool_calls: number }
  | {
      type: 'context_info';
      context_window: number;
      history_budget_tokens: number;
      history_messages: number;
      dropped_messages: number;
    }
  | { type: 'warning'; message: string; kind: string; iteration?: number; duplicates?: string[] }
  | {
      type: 'tool_approval_required';
      tool_call_id: string;
      tool_name: string;
      arguments: Record<string, unknown>;
      iteration: number;
    }
  | { type: 'tool_rejected'; tool_call_id: string; tool_name: string; decision: 'reject' | 'timeout' | 'not_allowed' }
  | DoneEvent
  | { type: 'error'; error: string; error_code: string; error_details?: Record<string, unknown> }
  | TurnStateEvent
  | RetrievedChunksEvent;

/**
 * Internal, never forwarded: the chunks a tool call added to the turn's ledger, under the aliases the
 * model cites them by, so that a subscriber can resolve the answer's citations while it streams.
 */
export interface RetrievedChunksEvent {
  type: 'retrieved_chunks';
  chunks: LedgerChunk[];
}

/**
 * Internal, never forwarded as such: the worker's answer to a `replay` request, the turn's events so
 * far (compacted), addressed to the one subscriber that asked. It travels on the event channel so it
 * lands in order among the live events: whatever arrived before it is covered by it.
 */
export interface TurnStateEvent {
  type: 'turn_state';
  request_id: string;
  events: ChatEvent[];
}

export interface DoneEvent {
  type: 'done';
  /** completed or cancelled at the end of a turn; the chat's own status when it was already idle. */
  status: string;
  content: string;
  llm_debug: Record<string, unknown> | null;
  thinking?: string;
  tool_calls?: ToolCallSummary[];
  chunk_citations?: Record<string, unknown>;
  referenced_entities?: unknown[];
  warnings?: string[];
}

export interface ToolCallSummary {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export const chatProcessingFailed = 'CHAT_PROCESSING_FAILED';

export function isFinalEvent(event: ChatEvent): boolean {
  return event.type === 'done' || event.type === 'error';
}

/** Events between the worker and the API's own readers, which chat clients never see. */
export function isInternalEvent(event: ChatEvent): event is TurnStateEvent | RetrievedChunksEvent {
  return event.type === 'turn_state' || event.type === 'retrieved_chunks';
}

export const chatEventChannel = (chatId: string) => `chat:${chatId}`;

export function publishChatEvent(pubsub: PubSub, chatId: string, event: ChatEvent): Promise<void> {
  return pubsub.publish(chatEventChannel(chatId), JSON.stringify(event));
}

/** Forwards the chat's events (and their JSON as published) to `listener` until unsubscribed; resolves once subscribed. */
export function subscribeChatEvents(
  pubsub: PubSub,
  chatId: string,
  listener: (event: ChatEvent, json: string) => void,
): Promise<() => Promise<void>> {
  return pubsub.subscribe(chatEventChannel(chatId), (json) => listener(JSON.parse(json) as ChatEvent, json));
}

/**
 * Messages from the API to the worker answering a chat: stop the turn, a tool decision was recorded,
 * or a subscriber that joined late asks for the turn's events so far.
 */
export type ChatControl =
  | { type: 'cancel'; turn_id: string }
  | { type: 'decision'; tool_call_id: string }
  | { type: 'replay'; turn_id: string; request_id: string };

export const chatControlChannel = (chatId: string) => `chat:${chatId}:control`;

export function publishChatControl(pubsub: PubSub, chatId: string, message: ChatControl): Promise<void> {
  return pubsub.publish(chatControlChannel(chatId), JSON.stringify(message));
}

export function subscribeChatControl(
  pubsub: PubSub,
  chatId: string,
  listener: (message: ChatControl) => void,
): Promise<() => Promise<void>> {
  return pubsub.subscribe(chatControlChannel(chatId), (raw) => listener(JSON.parse(raw) as ChatControl));
}
