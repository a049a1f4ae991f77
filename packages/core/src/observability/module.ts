import type { FeatureModule } from '../platform/index.ts';
import { diskHealth } from './disk.ts';
import { vectorIndexHealth } from './vector-index-health.ts';

/**
 * Observability: GET /health's disk and vector-index probes (the registries every module reports into live
 * on the platform), logs, diagnostics and the change feed's read model. Owns no table.
 */
export const observabilityModule: FeatureModule = {
  name: 'observability',
  tables: [],
  health: (platform) => ({
    disk: () => diskHealth(platform.paths.root),
    vector_index: () =>
      vectorIndexHealth({
        databases: platform.databases,
        embeddings: platform.providers.embeddings,
        settings: () => platform.settings.get(),
      }),
  }),
};
