import { describeError } from '@rhizome/contracts/errors';
import type { HealthCheck, HealthProbe, HealthReport, SubsystemHealth } from '../module/index.ts';

/** The subsystems GET /health always reports; features register their probes under these names. */
export const coreSubsystems = ['database', 'queue', 'vector_index', 'llm', 'embeddings', 'disk'] as const;

export class HealthRegistry implements HealthCheck {
  private readonly probes = new Map<string, HealthProbe>();

  constructor(private readonly probeTimeoutMs = 3000) {}

  register(name: string, probe: HealthProbe): void {
    this.probes.set(name, probe);
  }

  /**
   * Every subsystem's state and the overall one. `healthy` is what a wait script or a load balancer
   * polls: true unless a subsystem is unavailable (degraded still serves; not_configured is not in use).
   */
  async check(): Promise<HealthReport> {
    const names = [...new Set([...coreSubsystems, ...this.probes.keys()])];
    const results = await Promise.all(names.map((name) => this.run(name)));
    const subsystems = Object.fromEntries(names.map((name, index) => [name, results[index]]));
    const states = results.map((result) => result.status);
    const status = states.includes('unavailable') ? 'unhealthy' : states.includes('degraded') ? 'degraded' : 'healthy';
    return { status, healthy: status !== 'unhealthy', subsystems };
  }

  private async run(name: string): Promise<SubsystemHealth> {
    const probe = this.probes.get(name);
    if (!probe) return { status: 'not_configured', message: 'no provider for this subsystem is installed yet' };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<SubsystemHealth>((resolve) => {
      // Slow is not down: a database busy with a long batch transaction answers late, and the health
      // monitor must not pause processing for that. Only a probe that fails is unavailable.
      timer = setTimeout(
        () => resolve({ status: 'degraded', message: `no answer within ${this.probeTimeoutMs} ms` }),
        this.probeTimeoutMs,
      );
    });
    try {
      return await Promise.race([probe(), timeout]);
    } catch (error) {
      return { status: 'unavailable', message: describeError(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}
