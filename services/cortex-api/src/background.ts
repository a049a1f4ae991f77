import type { Platform } from '@rhizome/core/platform/create';
import { HealthMonitor } from '@rhizome/core/processing/health-monitor';
import { persistInstanceHealth } from '@rhizome/core/providers/instance-health';
import { sourceServiceFor } from './routes/sources.ts';

const sourceRecoveryIntervalMs = 60_000;
/** A source whose indexing shows no progress for this long is stalled (prior-art §8). */
const stalledAfterMs = 600_000;
const maxRecoveryAttempts = 10;

/** Re-queues the unfinished indexing of stalled sources of the active database, at most ten times each. */
async function recoverStalledSources(platform: Platform): Promise<void> {
  try {
    const service = await sourceServiceFor(platform);
    for (const id of await service.stalled(stalledAfterMs)) {
      if (await service.recover(id, { maxAttempts: maxRecoveryAttempts })) platform.logger.info(`source ${id}: stalled indexing queued again`);
    }
  } catch (error) {
    platform.logger.warning(`source recovery scan: ${String(error)}`);
  }
}

/**
 * Periodic work owned by the API process, of which a deployment runs exactly one (workers may be many):
 * the health monitor that records health changes and pauses processing while a subsystem is down, and
 * the `healthy` flags of local model servers in the settings, and the scan that re-queues stalled sources.
 */
export function startApiBackgroundJobs(platform: Platform): { stop(): Promise<void> } {
  const monitor = new HealthMonitor({
    health: platform.health,
    processing: platform.processing,
    announce: () => platform.announceProcessingChanged(),
    logger: platform.logger,
  });
  monitor.start();
  const stopPersisting = persistInstanceHealth(platform);
  const recovery = setInterval(() => void recoverStalledSources(platform), sourceRecoveryIntervalMs);
  recovery.unref();
  return {
    stop: async () => {
      clearInterval(recovery);
      stopPersisting();
      await monitor.stop();
    },
  };
}
