export { DatabaseManager, type MigrationPolicy } from './manager.ts';
export { databasesModule } from './module.ts';
export { taskDatabaseFor } from './task-database.ts';
