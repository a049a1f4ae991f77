import type { Redis } from 'ioredis';
import { queueNames, type QueueName } from '../task.ts';
import type { Keys } from './keys.ts';

/** How long a wait lasts before it looks up the next deferred task's due time. */
const dueLookupDelayMs = 10;

/**
 * Wakes idle claimers: whoever makes a task due publishes on the lane's wake channel, and every
 * process waiting on that lane resolves at once (a subscriber connection of its own).
 */
export class WakeChannel {
  private readonly waiters = new Map<QueueName, Set<() => void>>(queueNames.map((queue) => [queue, new Set()]));

  private constructor(
    private readonly subscriber: Redis,
    private readonly channels: Map<string, QueueName>,
  ) {
    subscriber.on('message', (channel: string) => {
      const queue = this.channels.get(channel);
      if (queue) this.resolveAll(queue);
    });
  }

  static async open(client: Redis, keys: Keys): Promise<WakeChannel> {
    const subscriber = client.duplicate();
    subscriber.on('error', () => undefined);
    const channels = new Map(queueNames.map((queue) => [keys.queue(queue).wake, queue]));
    try {
      await subscriber.connect();
      await subscriber.subscribe(...channels.keys());
    } catch (error) {
      subscriber.disconnect();
      throw error;
    }
    return new WakeChannel(subscriber, channels);
  }

  /**
   * Resolves on the next wake of `queue`, after `timeoutMs`, or when a deferred task falls due
   * (`nextDue` gives the earliest run_after, epoch ms). The due time is looked up only once the wait
   * has lasted `dueLookupDelayMs`: under load the wait ends sooner and the lookup would be wasted. A
   * task already due when the wait began is left to the timeout: it is either claimed already or due
   * only on a caller clock behind the real one, and waking for it would spin.
   */
  wait(queue: QueueName, timeoutMs: number, nextDue: () => Promise<number | null>): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiters.get(queue)!;
      const began = Date.now();
      let timer: NodeJS.Timeout;
      const done = () => {
        clearTimeout(timer);
        clearTimeout(lookup);
        waiters.delete(done);
        resolve();
      };
      timer = setTimeout(done, timeoutMs);
      const lookup = setTimeout(
        () => {
          void nextDue().then((dueAt) => {
            if (dueAt === null || dueAt <= began || dueAt >= began + timeoutMs || !waiters.has(done)) return;
            clearTimeout(timer);
            timer = setTimeout(done, Math.max(0, dueAt - Date.now()));
          });
        },
        Math.min(dueLookupDelayMs, timeoutMs),
      );
      waiters.add(done);
    });
  }

  close(): void {
    for (const queue of queueNames) this.resolveAll(queue);
    this.subscriber.disconnect();
  }

  private resolveAll(queue: QueueName): void {
    for (const done of [...this.waiters.get(queue)!]) done();
  }
}
