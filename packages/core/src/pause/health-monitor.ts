import type { HealthCheck } from '../module/index.ts';
import type { ProcessingControls } from './controls.ts';
import { describeError } from '@rhizome/contracts/errors';

export interface HealthMonitorOptions {
  health: HealthCheck;
  processing: ProcessingControls;
  /** Tells the workers that the pause flags changed. */
  announce: () => Promise<void>;
  logger: { warning(message: string): unknown; error(message: string): unknown };
  intervalMs?: number;
  /** Consecutive failing checks that pause processing, and passing ones that resume it. */
  threshold?: number;
}

const monitorSource = 'health_monitor';

/**
 * Checks the subsystems periodically (docs/api-conventions.md#pause-and-health): records every change of overall health as a
 * `health_change` event, pauses processing after `threshold` failing checks in a row, and resumes it
 * after as many passing ones — only when it paused it itself, never over an operator's pause.
 */
export class HealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private last: string | undefined;
  private failing = 0;
  private passing = 0;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: HealthMonitorOptions) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.check());
    }, this.options.intervalMs ?? 30_000);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async check(): Promise<void> {
    const { health, processing } = this.options;
    try {
      const result = await health.check();
      const failed = Object.entries(result.subsystems)
        .filter(([, subsystem]) => subsystem.status === 'unavailable')
        .map(([name]) => name);
      if (this.last !== undefined && result.status !== this.last) {
        await processing.record({
          type: 'health_change',
          action: `${this.last}_to_${result.status}`,
          source: monitorSource,
          reason: failed.length ? `unavailable: ${failed.join(', ')}` : null,
          details: { from: this.last, to: result.status, failed },
          database_name: null,
        });
      }
      this.last = result.status;
      const healthy = result.status !== 'unhealthy';
      this.failing = healthy ? 0 : this.failing + 1;
      this.passing = healthy ? this.passing + 1 : 0;
      const threshold = this.options.threshold ?? 3;
      const pausedBy = await processing.pausedBy();
      if (this.failing >= threshold && pausedBy === null) {
        await processing.pause(`automatic: ${failed.join(', ')} unavailable for ${this.failing} checks`, monitorSource);
        await this.options.announce();
        this.options.logger.warning(`processing paused: ${failed.join(', ')} unavailable`);
      } else if (this.passing >= threshold && pausedBy === monitorSource) {
        await processing.resume(monitorSource);
        await this.options.announce();
        this.options.logger.warning('processing resumed: every subsystem answers again');
      }
    } catch (error) {
      this.options.logger.error(`health monitor: ${describeError(error)}`);
    }
  }
}
