export { DatabaseManager, type MigrationPolicy, type OpenDatabase, type SeedHook } from './manager.ts';
export { defaultSeeds } from './seeds.ts';
export { taskDatabaseFor } from './task-database.ts';
