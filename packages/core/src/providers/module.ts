import type { BackgroundJob, FeatureModule } from '../platform/index.ts';
import { providerHealth } from './health.ts';
import { persistInstanceHealth } from './instance-health.ts';

/** Keeps the `healthy` flags of local model servers in the settings in step with what the pool observes. */
const instanceHealthJob: BackgroundJob = {
  name: 'localllm-instance-health',
  start(platform) {
    const stop = persistInstanceHealth(platform);
    return { stop: async () => stop() };
  },
};

/**
 * Language-model and embedding providers. They are process-wide (`platform.providers`), not per
 * database; the module contributes their health probes, the instance-health job and owns the call
 * metrics kept in the system database (`llm_calls`).
 */
export const providersModule: FeatureModule = {
  name: 'providers',
  tables: ['llm_calls'],
  health: (platform) => providerHealth(platform.providers),
  background: [instanceHealthJob],
};
