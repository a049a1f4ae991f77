/**
 * The frames of GET /chats/{id}/events that the interface reads. The chat contract lists the event
 * types but does not describe their payloads, so only the fields used here are named.
 */
export type ChatStreamEvent =
  | { type: 'content'; delta: string; accumulated: string }
  | { type: 'tool_start'; tool: string; tool_call_id: string }
  | { type: 'tool_result'; tool: string; tool_call_id: string }
  | { type: 'tool_approval_required'; tool_call_id: string; tool_name: string; arguments: Record<string, unknown> }
  | { type: 'tool_rejected'; tool_call_id: string; tool_name: string; decision: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'warning'; message: string }
  | { type: 'done'; status: string; content: string }
  | { type: 'error'; error: string; error_code: string }
  | {
      type: 'context_info' | 'thinking' | 'tool_calls' | 'cached_tool_calls' | 'timing_update' | 'iteration_progress';
    };

/** A citation stored with an answer in `extra_metadata.chunk_citations`, keyed `<chunk_id>:S1,S2`. */
export interface StoredCitation {
  chunk_id: string;
  source_id: string;
  label: string;
  sentence_text: string;
  sentence_refs: string[];
  page_number: number | null;
}

export function citationsOf(metadata: Record<string, unknown> | null): Record<string, StoredCitation> {
  const citations = metadata?.chunk_citations;
  return citations && typeof citations === 'object' ? (citations as Record<string, StoredCitation>) : {};
}

/** What a turn sent the model, as the answer records it in `extra_metadata.context`. */
export interface SentContext {
  context_window: number;
  system_tokens: number;
  history_budget_tokens: number;
  history_tokens: number;
  history_messages: number;
  dropped_messages: number;
  passage_tokens: number;
  passages: { chunk_id: string; source_id: string; filename: string; page_number: number | null; sentences: number }[];
  entities: { id: string; label: string }[];
  facts: string[];
}

export function sentContextOf(metadata: Record<string, unknown> | null): SentContext | null {
  const context = metadata?.context;
  return context && typeof context === 'object' ? (context as SentContext) : null;
}

export function thinkingOf(metadata: Record<string, unknown> | null): string {
  return typeof metadata?.thinking === 'string' ? metadata.thinking : '';
}
