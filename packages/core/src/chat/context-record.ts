import { estimateTokens, type HistoryFit } from './context-budget.ts';
import type { RetrievalLedger } from './ledger.ts';

/**
 * What a turn sent the model, kept with its answer (`extra_metadata.context`) so the operator can see
 * it: how much of the context window the conversation took, the passages and entities retrieved, and
 * the relationships shown. Token figures are the same estimate the budget works with.
 */
export interface TurnContextRecord {
  context_window: number;
  system_tokens: number;
  history_budget_tokens: number;
  history_tokens: number;
  history_messages: number;
  dropped_messages: number;
  passage_tokens: number;
  passages: {
    chunk_id: string;
    source_id: string;
    filename: string;
    page_number: number | null;
    sentences: number;
  }[];
  entities: { id: string; label: string }[];
  facts: string[];
}

/** The part of a record known before the model is called: the window and the conversation sent. */
export type HistoryShare = Pick<
  TurnContextRecord,
  | 'context_window'
  | 'system_tokens'
  | 'history_budget_tokens'
  | 'history_tokens'
  | 'history_messages'
  | 'dropped_messages'
>;

export function historyShare(fit: HistoryFit<unknown>, system: string): HistoryShare {
  return {
    context_window: fit.window,
    system_tokens: estimateTokens(system),
    history_budget_tokens: fit.budgetTokens,
    history_tokens: fit.usedTokens,
    history_messages: fit.messages.length,
    dropped_messages: fit.dropped,
  };
}

/** The whole record once the turn ended: the history share with what retrieval put in front of the model. */
export function contextRecord(history: HistoryShare, ledger: RetrievalLedger): TurnContextRecord {
  const passages = ledger.chunks().map((chunk) => {
    const [from, to] = ledger.shownSentences(chunk);
    return { chunk, shown: chunk.sentences.slice(from, to) };
  });
  return {
    ...history,
    passage_tokens: passages.reduce((sum, { shown }) => sum + estimateTokens(shown.join(' ')), 0),
    passages: passages.map(({ chunk, shown }) => ({
      chunk_id: chunk.chunkId,
      source_id: chunk.sourceId,
      filename: chunk.filename,
      page_number: chunk.pageNumber,
      sentences: shown.length,
    })),
    entities: [...ledger.nodes.values()].map((node) => ({ id: node.id, label: node.label })),
    facts: [...ledger.facts],
  };
}
