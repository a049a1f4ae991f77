import { randomBytes } from 'node:crypto';
import { isFinalEvent, isInternalEvent, type ChatEvent } from './events.ts';

type Deliver = (event: ChatEvent, json: string) => void;

/** How long a subscriber that joined a running turn waits for the worker's account of it. */
const replayWaitMs = 1500;

/**
 * One subscriber's view of a chat's event channel. Events are held from the moment it subscribed until
 * it knows how to start: `live` when nothing of the turn can have been missed, `replay` when it joined
 * a running turn. Then the worker's account of the turn so far (the `turn_state` answering this feed's
 * request, each event marked `replayed`) replaces what was held — it covers everything published
 * before it — and live events follow. Without an answer in time (the worker has not picked the turn up
 * yet, or it just finished), what was held is delivered as it is. Other subscribers' answers are ignored.
 */
export class ChatEventFeed {
  readonly requestId = `replay_${randomBytes(8).toString('hex')}`;
  private held: [ChatEvent, string][] = [];
  private deliver: Deliver | null = null;
  private awaiting: { deliver: Deliver; timer: NodeJS.Timeout } | null = null;

  readonly receive = (event: ChatEvent, json: string): void => {
    if (isInternalEvent(event)) {
      if (event.type === 'turn_state' && event.request_id === this.requestId && this.awaiting)
        this.replayed(event.events);
      return;
    }
    if (this.deliver) return this.deliver(event, json);
    this.held.push([event, json]);
    // The turn ended while waiting: its worker will not answer any more.
    if (this.awaiting && isFinalEvent(event)) this.live(this.awaiting.deliver);
  };

  /** Delivers what was held, then every event as it comes. */
  live(deliver: Deliver): void {
    this.stopWaiting();
    const held = this.held;
    this.held = [];
    this.deliver = deliver;
    for (const [event, json] of held) deliver(event, json);
  }

  /** Waits up to `waitMs` for the turn's account (asked for with `requestId`), then goes live. */
  replay(deliver: Deliver, waitMs = replayWaitMs): void {
    this.awaiting = { deliver, timer: setTimeout(() => this.live(deliver), waitMs) };
  }

  close(): void {
    this.stopWaiting();
    this.held = [];
  }

  private replayed(events: ChatEvent[]): void {
    const { deliver } = this.awaiting!;
    this.held = [];
    for (const event of events) deliver(event, JSON.stringify({ ...event, replayed: true }));
    this.live(deliver);
  }

  private stopWaiting(): void {
    if (this.awaiting) clearTimeout(this.awaiting.timer);
    this.awaiting = null;
  }
}
