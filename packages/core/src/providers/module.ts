import type { BackgroundJob, FeatureModule } from '../module/index.ts';
import { providerHealth } from './health.ts';
import type { ProvidersHost } from './host.ts';
import { persistInstanceHealth } from './instance-health.ts';

/** Keeps the `healthy` flags of local model servers in the settings in step with what the pool observes. */
const instanceHealthJob: BackgroundJob<ProvidersHost> = {
  name: 'localllm-instance-health',
  start(host) {
    const stop = persistInstanceHealth(host);
    return { stop: async () => stop() };
  },
};

/**
 * Language-model and embedding providers. They are process-wide (`platform.providers`), not per
 * database; the module contributes their health probes, the instance-health job and owns the call
 * metrics kept in the system database (`llm_calls`, and `llm_monitor`: when the queue monitor's totals restart).
 */
export const providersModule: FeatureModule<unknown, ProvidersHost> = {
  name: 'providers',
  tables: ['llm_calls', 'llm_monitor'],
  health: (host) => providerHealth(host.providers),
  background: [instanceHealthJob],
};
