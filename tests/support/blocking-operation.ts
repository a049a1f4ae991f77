import type { HandlerContext } from '@rhizome/queue';
import { sleep, until } from './wait.ts';

/**
 * A handler that holds its worker slot until the test releases its `data.key` (or the task is
 * cancelled), counting how many are active: lets tests fill a lane and watch what waits.
 */
export class Blocker {
  readonly released = new Set<string>();
  active = 0;

  readonly handler = async ({ task, checkCancelled }: HandlerContext) => {
    const key = String(task.data.key);
    this.active += 1;
    try {
      while (!this.released.has(key)) {
        await checkCancelled();
        await sleep(10);
      }
      return { released: key };
    } finally {
      this.active -= 1;
    }
  };

  release(key: string): void {
    this.released.add(key);
  }

  /** Waits until no blocking handler runs any more (cancelled ones stop at their next check). */
  async settled(timeoutMs = 3000): Promise<number> {
    await until(() => this.active === 0, { timeoutMs, intervalMs: 10, what: 'the blocking handlers to stop' });
    return this.active;
  }
}
