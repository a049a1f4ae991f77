export { backupModule } from './module.ts';
export { BackupService } from './service.ts';
