import type { FeatureModule } from '../module/index.ts';
import type { CcxHost } from './host.ts';
import { CcxService } from './service.ts';
import { defineCcxOperations } from './tasks.ts';

/**
 * CCX knowledge packages: export and import tasks, the packages they leave under `<data_dir>/exports`.
 * Owns no table: exports read the other features' tables through `read-model.ts`, imports write them in
 * one transaction (`import-apply.ts`).
 */
export const ccxModule: FeatureModule<CcxService, CcxHost> = {
  name: 'ccx',
  tables: [],
  defineTasks(registry, host) {
    defineCcxOperations(registry, {
      databases: host.databases,
      paths: host.paths,
      settings: () => host.settings.get(),
      embeddings: host.providers.embeddings,
      queue: host.queue,
      events: host.graphEvents,
      writers: host.vectorWriters,
      version: host.version,
      triggersChanged: (database) => host.automation.triggersChanged(database),
    });
  },
  service: (host, database) => new CcxService(host, database.name, database.db),
};
