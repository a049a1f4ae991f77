import { taskDatabaseFor } from '../databases/task-database.ts';
import type { Db } from '../storage/connection.ts';
import type { GraphDeps } from './tasks.ts';

export async function taskDatabase(deps: GraphDeps, name: unknown): Promise<Db> {
  return (await taskDatabaseFor(deps.databases, name)).db;
}
