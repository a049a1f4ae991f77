import type { Platform } from '@rhizome/core/platform/create';
import { HealthMonitor } from '@rhizome/core/processing/health-monitor';

/**
 * Periodic work owned by the API process, of which a deployment runs exactly one (workers may be many):
 * the health monitor that records health changes and pauses processing while a subsystem is down.
 */
export function startApiBackgroundJobs(platform: Platform): { stop(): Promise<void> } {
  const monitor = new HealthMonitor({
    health: platform.health,
    processing: platform.processing,
    announce: () => platform.announceProcessingChanged(),
    logger: platform.logger,
  });
  monitor.start();
  return { stop: () => monitor.stop() };
}
