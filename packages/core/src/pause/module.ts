import type { Logger } from '../logging.ts';
import type { FeatureModule, HealthCheck } from '../module/index.ts';
import type { ProcessingControls } from './controls.ts';
import { HealthMonitor } from './health-monitor.ts';

/** What the pause module needs of the process it runs in. */
export interface PauseHost {
  /** Every subsystem's health, as GET /health reports it. */
  health: HealthCheck;
  processing: ProcessingControls;
  announceProcessingChanged: () => Promise<void>;
  logger: Logger;
}

/**
 * Pause: the system-wide and per-source pause flags and the system event log (`processing_state`,
 * `paused_sources`, `system_events` in system.db, shared by every process through `platform.processing`),
 * and the health monitor that pauses processing while a subsystem is down.
 */
export const pauseModule: FeatureModule<unknown, PauseHost> = {
  name: 'pause',
  tables: ['processing_state', 'paused_sources', 'system_events'],
  background: [
    {
      name: 'health monitor',
      start(host) {
        const monitor = new HealthMonitor({
          health: host.health,
          processing: host.processing,
          announce: () => host.announceProcessingChanged(),
          logger: host.logger,
        });
        monitor.start();
        return { stop: () => monitor.stop() };
      },
    },
  ],
};
