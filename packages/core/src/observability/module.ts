import type { FeatureModule } from '../module/index.ts';
import type { DataPaths } from '../paths.ts';
import { diskHealth } from './disk.ts';

/** What the observability module needs of the process it runs in: where the data directory is. */
export interface ObservabilityHost {
  paths: Pick<DataPaths, 'root'>;
}

/**
 * Observability: GET /health's disk probe (the registries every module reports into live on the platform),
 * logs, diagnostics and the change feed's read model. Owns no table.
 */
export const observabilityModule: FeatureModule<unknown, ObservabilityHost> = {
  name: 'observability',
  tables: [],
  health: (host) => ({ disk: () => diskHealth(host.paths.root) }),
};
