export { DatabaseManager, type MigrationPolicy } from './manager.ts';
export { defaultSeeds } from './seeds.ts';
export { taskDatabaseFor } from './task-database.ts';
