import { PermanentTaskError } from '@rhizome/queue';
import type { TaskRegistrar } from '../module/index.ts';

const maxSleepMs = 3_600_000;

/**
 * Operations every installation has: `system.noop` checks the pipeline end to end (and is what the
 * queue benchmark runs); `system.sleep` holds a worker slot for `data.ms`, cancellable, for checking
 * pause, cancellation and crash recovery on a live system.
 */
export function defineSystemOperations(registry: TaskRegistrar): void {
  registry.define('system.noop', { queue: 'operations' }, async () => ({ ok: true }));
  registry.define('system.sleep', { queue: 'operations' }, async ({ task, checkCancelled }) => {
    const ms = Number(task.data.ms ?? 1000);
    if (!Number.isFinite(ms) || ms < 0 || ms > maxSleepMs)
      throw new PermanentTaskError(`data.ms must be 0-${maxSleepMs}`, 'ValidationError');
    const until = Date.now() + ms;
    while (Date.now() < until) {
      await checkCancelled();
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - Date.now())));
    }
    return { slept_ms: ms };
  });
}
