import type { Platform } from '@rhizome/core/platform/create';
import { HealthMonitor } from '@rhizome/core/processing/health-monitor';
import { persistInstanceHealth } from '@rhizome/core/providers/instance-health';

/**
 * Periodic work owned by the API process, of which a deployment runs exactly one (workers may be many):
 * the health monitor that records health changes and pauses processing while a subsystem is down, and
 * the `healthy` flags of local model servers in the settings.
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
  return {
    stop: async () => {
      stopPersisting();
      await monitor.stop();
    },
  };
}
