import type { Platform } from '@rhizome/core/platform';
import { describeError } from '@rhizome/contracts/errors';

/** GET /queue/stats, also shown on the dashboard; `{queues: [], note}` when the queue store is down. */
export async function queueStats(platform: Platform) {
  const { tasks } = platform;
  try {
    const now = Date.now();
    const counts = await tasks.counts();
    const queues = await Promise.all(
      counts.map(async (lane) => ({ ...lane, completed_recent: 0, failed_recent: 0, workers: (await tasks.workerCount(lane.queue, now)) > 0 ? 1 : 0 })),
    );
    return { queues, note: `${tasks.kind} queue; completed_recent and failed_recent are not tracked (always 0)` };
  } catch (error) {
    return { queues: [], note: `queue unavailable: ${describeError(error)}` };
  }
}
