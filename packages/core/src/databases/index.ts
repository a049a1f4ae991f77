export { DatabaseManager, type MigrationPolicy } from './manager.ts';
export { databasesModule } from './module.ts';
export { PostgresDatabaseStore } from './postgres-store.ts';
export { SqliteDatabaseStore } from './sqlite-store.ts';
export type { DatabaseInfo, DatabaseStore } from './store.ts';
export { taskDatabaseFor } from './task-database.ts';
