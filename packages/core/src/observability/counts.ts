import type { CountProbe } from '../module/index.ts';
import type { Db } from '../storage/index.ts';

/** GET /counts and the dashboard: each feature registers how to count what it owns. */
export class CountsRegistry {
  private readonly probes = new Map<string, CountProbe>();

  register(name: string, probe: CountProbe): void {
    this.probes.set(name, probe);
  }

  /** Counts of `names` (0 for a name no feature has registered: nothing of that kind exists), or of all registered. */
  async collect(db: Db, names?: readonly string[]): Promise<Record<string, number>> {
    const wanted = names ?? [...this.probes.keys()];
    const values = await Promise.all(wanted.map((name) => this.probes.get(name)?.(db) ?? Promise.resolve(0)));
    return Object.fromEntries(wanted.map((name, index) => [name, values[index]]));
  }
}
