import type { FeatureModule } from '../platform/index.ts';
import { HealthMonitor } from './health-monitor.ts';

/**
 * Pause: the system-wide and per-source pause flags and the system event log (`processing_state`,
 * `paused_sources`, `system_events` in system.db, shared by every process through `platform.processing`),
 * and the health monitor that pauses processing while a subsystem is down.
 */
export const pauseModule: FeatureModule = {
  name: 'pause',
  tables: ['processing_state', 'paused_sources', 'system_events'],
  background: [
    {
      name: 'health monitor',
      start(platform) {
        const monitor = new HealthMonitor({
          health: platform.health,
          processing: platform.processing,
          announce: () => platform.announceProcessingChanged(),
          logger: platform.logger,
        });
        monitor.start();
        return { stop: () => monitor.stop() };
      },
    },
  ],
};
