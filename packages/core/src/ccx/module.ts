import type { FeatureModule } from '../platform/index.ts';
import { CcxService } from './service.ts';
import { defineCcxOperations } from './tasks.ts';

/**
 * CCX knowledge packages: export and import tasks, the packages they leave under `<data_dir>/exports`.
 * Owns no table: exports read the other features' tables through `read-model.ts`, imports write them in
 * one transaction (`import-apply.ts`).
 */
export const ccxModule: FeatureModule<CcxService> = {
  name: 'ccx',
  tables: [],
  defineTasks(registry, platform) {
    defineCcxOperations(registry, {
      databases: platform.databases,
      paths: platform.paths,
      settings: () => platform.settings.get(),
      embeddings: platform.providers.embeddings,
      queue: platform.queue,
      events: platform.graphEvents,
      writers: platform.vectorWriters,
      version: platform.version,
      triggersChanged: (database) => platform.automation.triggersChanged(database),
    });
  },
  service: (platform, database) => new CcxService(platform, database.name, database.db),
};
