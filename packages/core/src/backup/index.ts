export { backupModule } from './module.ts';
export { startBackupSchedule } from './schedule.ts';
export { BackupService } from './service.ts';
export { defineBackupOperations } from './tasks.ts';
