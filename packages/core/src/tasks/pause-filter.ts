import type { ClaimFilter, OperationRegistry } from '@rhizome/queue';
import type { ProcessingControls } from '../pause/index.ts';

const maxAgeMs = 1000;

/**
 * What workers must not start now: pausable operations while processing is paused, and tasks of paused
 * sources. Read from the shared flags at most once a second, and at once after `invalidate()` (called
 * when any process announces a pause change).
 */
export class PauseFilter {
  private cached: ClaimFilter | undefined;
  private readAt = 0;

  constructor(
    private readonly controls: ProcessingControls,
    private readonly registry: OperationRegistry,
  ) {}

  async current(): Promise<ClaimFilter> {
    if (this.cached && Date.now() - this.readAt < maxAgeMs) return this.cached;
    const [status, sources] = await Promise.all([this.controls.status(), this.controls.pausedSourceIds()]);
    this.cached = {
      excludeOperations: status.paused ? this.registry.pausableOperations() : new Set(),
      excludeSourceIds: sources,
    };
    this.readAt = Date.now();
    return this.cached;
  }

  invalidate(): void {
    this.cached = undefined;
  }
}
