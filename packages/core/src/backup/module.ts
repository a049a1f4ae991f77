import type { FeatureModule } from '../platform/index.ts';
import { sourcesInProgress } from '../sources/index.ts';
import { startBackupSchedule } from './schedule.ts';
import { BackupService } from './service.ts';
import { defineBackupOperations } from './tasks.ts';

/** Operator backups: files under `<data_dir>/backups/`, no tables; the vector rebuild after a restore; the schedule. */
export const backupModule: FeatureModule<BackupService> = {
  name: 'backup',
  tables: [],
  defineTasks(registry, platform) {
    defineBackupOperations(registry, {
      databases: platform.databases,
      settings: () => platform.settings.get(),
      embeddings: platform.providers.embeddings,
      writers: platform.vectorWriters,
    });
  },
  service(platform, database) {
    return new BackupService({
      databases: platform.databases,
      queue: platform.queue,
      priority: () => platform.settings.get().priorities.interactive,
      database: database.name,
    });
  },
  background: [
    {
      name: 'backup schedule',
      start(platform) {
        return startBackupSchedule({
          // The schedule backs up whichever database is active when a backup is due.
          service: new BackupService({
            databases: platform.databases,
            queue: platform.queue,
            priority: () => platform.settings.get().priorities.interactive,
          }),
          settings: () => platform.settings.get().backup,
          log: platform.logger,
          busy: async () => sourcesInProgress((await platform.databases.current()).db),
        });
      },
    },
  ],
};
