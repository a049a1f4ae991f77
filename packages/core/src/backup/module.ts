import type { QueueService } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { Logger } from '../logging.ts';
import type { FeatureModule } from '../module/index.ts';
import type { Providers } from '../providers/index.ts';
import type { VectorWriterSet } from '../search/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import { sourcesInProgress } from '../sources/index.ts';
import { startBackupSchedule } from './schedule.ts';
import { BackupService } from './service.ts';
import { defineBackupOperations } from './tasks.ts';

/** What the backup module needs of the process it runs in. */
export interface BackupHost {
  databases: DatabaseManager;
  settings: Pick<SettingsStore, 'get'>;
  providers: Pick<Providers, 'embeddings'>;
  vectorWriters: VectorWriterSet;
  queue: QueueService;
  logger: Logger;
}

/** Operator backups: files under `<data_dir>/backups/`, no tables; the vector rebuild after a restore; the schedule. */
export const backupModule: FeatureModule<BackupService, BackupHost> = {
  name: 'backup',
  tables: [],
  defineTasks(registry, host) {
    defineBackupOperations(registry, {
      databases: host.databases,
      settings: () => host.settings.get(),
      embeddings: host.providers.embeddings,
      writers: host.vectorWriters,
    });
  },
  service(host, database) {
    return new BackupService({
      databases: host.databases,
      queue: host.queue,
      priority: () => host.settings.get().priorities.interactive,
      database: database.name,
    });
  },
  background: [
    {
      name: 'backup schedule',
      start(host) {
        return startBackupSchedule({
          // The schedule backs up whichever database is active when a backup is due.
          service: new BackupService({
            databases: host.databases,
            queue: host.queue,
            priority: () => host.settings.get().priorities.interactive,
          }),
          settings: () => host.settings.get().backup,
          log: host.logger,
          busy: async () => sourcesInProgress((await host.databases.current()).db),
        });
      },
    },
  ],
};
