export { DatabaseManager, type MigrationPolicy, type OpenDatabase, type SeedHook } from './manager.ts';
export { databasesModule } from './module.ts';
export { taskDatabaseFor } from './task-database.ts';
