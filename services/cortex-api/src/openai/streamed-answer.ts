import { AnswerInProgress, type ChatEvent, type ChunkCitation } from '@rhizome/core/chat';
import { numberCitations } from './citations.ts';

/** Longer than any marker: an opening bracket this far back was not one. */
const maxMarkerChars = 300;

/** Where an unclosed marker starts, if the text ends inside one. */
function openMarker(text: string): number {
  const double = text.lastIndexOf('[[');
  if (double >= 0 && !text.includes(']]', double) && text.length - double <= maxMarkerChars) return double;
  const single = text.lastIndexOf('[');
  if (
    single >= 0 &&
    !text.includes(']', single) &&
    text.length - single <= maxMarkerChars &&
    !text.includes('\n', single)
  )
    return single;
  return text.length;
}

/** Where the text stops being safe to send: an unclosed marker and the blanks before it, or trailing blanks a marker may follow. */
function holdFrom(text: string): number {
  let cut = openMarker(text);
  while (cut > 0 && (text[cut - 1] === ' ' || text[cut - 1] === '\t')) cut -= 1;
  return cut;
}

/**
 * The answer as a reader sees it, sent while it streams: the model writes `[[cite:C0:S1|file]]` or `[C0]`
 * by the turn's aliases, and each becomes `[n]` as soon as it closes — the number the finished answer
 * gives it, since the turn's retrieved chunks arrive among its events and a citation resolves from the
 * text before it. Entity mentions become their label. A marker split across deltas (and the blanks
 * before it) is held back until it closes, so no half marker reaches the client, and what was sent is
 * always the beginning of the finished answer.
 */
export class StreamedAnswer {
  private readonly answer = new AnswerInProgress();
  private sent = '';
  private readableUpTo = 0;

  /** The text that became certain with this event of the turn. */
  receive(event: ChatEvent): string {
    this.answer.receive(event);
    if (event.type !== 'content') return '';
    const cut = holdFrom(this.answer.text);
    if (cut === this.readableUpTo) return '';
    this.readableUpTo = cut;
    return this.advance(this.readable(this.answer.resolved(cut))) ?? '';
  }

  /** The rest, once the turn stored its answer; from the streamed text itself should the stored one read otherwise. */
  finish(content: string, stored: Record<string, ChunkCitation>): string {
    const rest = this.advance(this.readable({ content, chunk_citations: stored }));
    return rest ?? this.advance(this.readable(this.answer.resolved())) ?? '';
  }

  private readable({ content, chunk_citations }: { content: string; chunk_citations: Record<string, ChunkCitation> }) {
    return numberCitations(content, chunk_citations).body;
  }

  /** What `readable` adds to what was sent; undefined when it does not continue it (what was sent stays). */
  private advance(readable: string): string | undefined {
    if (!readable.startsWith(this.sent)) return undefined;
    const next = readable.slice(this.sent.length);
    this.sent = readable;
    return next;
  }
}
