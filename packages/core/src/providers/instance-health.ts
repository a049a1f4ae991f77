import type { ProvidersHost } from './host.ts';

/**
 * Keeps `llm.localllm_instances[].healthy` in the settings in step with what this process's pool
 * observes, so GET /settings shows it. Only transitions are written, and only for an instance that is
 * still configured with the same address.
 */
export function persistInstanceHealth(platform: ProvidersHost): () => void {
  return platform.providers.localPool.onHealthChange((change) => {
    const instances = platform.settings.get().llm.localllm_instances;
    const index = instances.findIndex((instance) => instance.id === change.id && instance.base_url === change.base_url);
    if (index < 0 || instances[index].healthy === change.healthy) return;
    const next = instances.map((instance, position) =>
      position === index ? { ...instance, healthy: change.healthy } : instance,
    );
    platform.settings.patch({ llm: { localllm_instances: next } });
    platform
      .announceSettingsChanged()
      .catch((error: unknown) => platform.logger.warning(`settings announce: ${String(error)}`));
  });
}
