import { resolveCitations, type ChunkCitation } from './citations.ts';
import type { ChatEvent } from './events.ts';
import { RetrievalLedger } from './ledger.ts';

/**
 * A turn's answer followed from its events, away from the worker writing it: the text so far, and the
 * chunks the turn retrieved under the aliases the model cites, so its citations resolve while it streams
 * exactly as they will be stored.
 */
export class AnswerInProgress {
  private readonly ledger = new RetrievalLedger();
  private raw = '';

  /** The model's text so far, markers as it wrote them. */
  get text(): string {
    return this.raw;
  }

  receive(event: ChatEvent): void {
    if (event.type === 'retrieved_chunks') this.ledger.register(...event.chunks);
    else if (event.type === 'content') this.raw += event.delta;
  }

  /** The text up to `end` in its stored form (`[[cite:<chunk>:S1|file]]` markers), with what they cite. */
  resolved(end = this.raw.length): { content: string; chunk_citations: Record<string, ChunkCitation> } {
    return resolveCitations(this.raw.slice(0, end), this.ledger);
  }
}
