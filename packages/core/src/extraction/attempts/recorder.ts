/**
 * What one attempt at a group did, gathered while it runs and written once at its end (attempts/store.ts):
 * each model call with its prompts and raw answer, and every item a filter or guard dropped, with why.
 * The harvest hands it along; each place that drops something calls `drop` — nothing else writes.
 * A recorder that does not keep (`source_processing.attempt_retention_days` 0) gathers and writes nothing.
 */

/** Where an item was dropped. */
export type DropStage =
  'content_filter' | 'parser' | 'loop_guard' | 'evidence' | 'exclusion' | 'plausibility' | 'edge_type';

export interface DroppedItem {
  stage: DropStage;
  /** chunk, line, entity or relationship. */
  kind: 'chunk' | 'line' | 'entity' | 'relationship';
  /** The chunk index, the answer line, or the entity's or relationship's name. */
  item: string;
  reason: string;
}

export interface RecordedCall {
  pass: 'entities' | 'relationships';
  system: string;
  user: string;
  output: string;
  finishReason: string | null;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  /** The loop guard that cut this answer short. */
  trippedBy: string | null;
}

/** Dropped items kept per attempt; the count goes on. A looping model can write thousands of bad lines. */
const maxDroppedKept = 500;
const maxItemChars = 300;

export class AttemptRecorder {
  /** `keeps`: false when attempts are not kept at all (a retention of 0 days): nothing is gathered or written. */
  constructor(readonly keeps = true) {}

  readonly calls: RecordedCall[] = [];
  readonly dropped: DroppedItem[] = [];
  droppedCount = 0;
  /** Characters of the group's text the model was given (after content filtering). */
  inputTextLength = 0;

  drop(stage: DropStage, kind: DroppedItem['kind'], item: string, reason: string): void {
    if (!this.keeps) return;
    this.droppedCount++;
    if (this.dropped.length < maxDroppedKept)
      this.dropped.push({
        stage,
        kind,
        item: item.length > maxItemChars ? `${item.slice(0, maxItemChars)}…` : item,
        reason,
      });
  }

  call(call: RecordedCall): void {
    if (this.keeps) this.calls.push(call);
  }
}
