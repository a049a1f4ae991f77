import { isInternalEvent, type ChatEvent } from './events.ts';

/**
 * The events a turn published so far, kept by the worker answering it so a client that subscribes
 * late can be brought up to date. Streamed text is folded as it comes (one `content` and one
 * `thinking_delta` carry everything so far), and an approval request leaves the log once it was
 * answered, so what is replayed is the turn's state rather than its history of deltas.
 */
export class TurnLog {
  private readonly events: ChatEvent[] = [];

  record(event: ChatEvent): void {
    const last = this.events.at(-1);
    if (event.type === 'content' && last?.type === 'content') {
      this.events[this.events.length - 1] = {
        type: 'content',
        delta: last.delta + event.delta,
        accumulated: event.accumulated,
      };
    } else if (event.type === 'thinking_delta' && last?.type === 'thinking_delta') {
      this.events[this.events.length - 1] = { type: 'thinking_delta', thinking: last.thinking + event.thinking };
    } else if (event.type === 'tool_start' || event.type === 'tool_rejected') {
      const asked = this.events.findIndex(
        (earlier) => earlier.type === 'tool_approval_required' && earlier.tool_call_id === event.tool_call_id,
      );
      if (asked >= 0) this.events.splice(asked, 1);
      this.events.push(event);
    } else if (!isInternalEvent(event)) {
      this.events.push(event);
    }
  }

  snapshot(): ChatEvent[] {
    return [...this.events];
  }
}
