import { EventEmitter } from 'node:events';
import type { PubSub } from './pubsub.ts';

/** The embedded default's pub/sub: every service lives in one process. */
export class InProcessPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: string, message: string): Promise<void> {
    // Delivered on a later tick, as a network broker would, so publishers never re-enter subscribers.
    setImmediate(() => this.emitter.emit(channel, message));
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    this.emitter.on(channel, handler);
    return async () => {
      this.emitter.off(channel, handler);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
