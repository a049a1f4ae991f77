import type { Settings } from '@rhizome/contracts/settings';

/**
 * How much conversation a turn sends: history gets `history_allocation_percent` of
 * the provider's context window, less the system prompt and the tool schemas, never less than
 * `min_history_budget_tokens`; the newest messages that fit are kept (the question always is).
 */

/** What the tool schemas cost in the prompt, roughly. */
const toolsTokenEstimate = 2000;
/** Each message's framing in the chat template. */
const perMessageTokens = 4;

/** About four characters per token, as English BPE vocabularies run. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const fixedWindows: Partial<Record<Settings['llm']['chat_provider'], number>> = {
  anthropic: 200_000,
  gemini: 1_048_576,
};

export function contextWindow(settings: Settings): number {
  const provider = settings.llm.chat_provider;
  if (provider === 'localllm') return settings.llm.localllm_num_ctx;
  if (provider === 'openai')
    return Math.max(settings.llm.ai_context_window, settings.chat_context.default_context_window);
  return fixedWindows[provider] ?? settings.chat_context.default_context_window;
}

export interface HistoryFit<M> {
  messages: M[];
  dropped: number;
  budgetTokens: number;
  /** What the kept messages cost, within the budget. */
  usedTokens: number;
  window: number;
}

export function fitHistory<M extends { content: string }>(
  settings: Settings,
  systemPrompt: string,
  history: readonly M[],
): HistoryFit<M> {
  const window = contextWindow(settings);
  const { history_allocation_percent: share, min_history_budget_tokens: floor } = settings.chat_context;
  const budgetTokens = Math.max(floor, Math.floor(window * share) - estimateTokens(systemPrompt) - toolsTokenEstimate);
  const kept: M[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const cost = estimateTokens(history[i].content) + perMessageTokens;
    if (kept.length > 0 && used + cost > budgetTokens) break;
    kept.unshift(history[i]);
    used += cost;
  }
  return { messages: kept, dropped: history.length - kept.length, budgetTokens, usedTokens: used, window };
}

/** Older tool results are cut to this many characters once the prompt outgrows the window. */
const compactedToolResultChars = 2000;

/**
 * Keeps a growing tool loop within `window − response_token_reserve`: tool results other than the
 * newest `keepNewest` are cut, oldest first, until the prompt fits (or nothing is left to cut).
 */
export function compactToolResults<M extends { role: string; content: string }>(
  settings: Settings,
  window: number,
  fixedTokens: number,
  messages: M[],
  keepNewest: number,
): number {
  const limit = window - settings.chat_context.response_token_reserve;
  let total =
    fixedTokens + messages.reduce((sum, message) => sum + estimateTokens(message.content) + perMessageTokens, 0);
  const tools = messages.map((message, index) => ({ message, index })).filter(({ message }) => message.role === 'tool');
  let cut = 0;
  for (const { message } of tools.slice(0, Math.max(0, tools.length - keepNewest))) {
    if (total <= limit) break;
    if (message.content.length <= compactedToolResultChars) continue;
    total -= estimateTokens(message.content) - estimateTokens(message.content.slice(0, compactedToolResultChars));
    message.content = `${message.content.slice(0, compactedToolResultChars)}\n[… cut to fit the context window]`;
    cut += 1;
  }
  return cut;
}
