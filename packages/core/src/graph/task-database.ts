import { taskDatabaseFor } from '../databases/index.ts';
import type { Db } from '../storage/index.ts';
import type { GraphDeps } from './deps.ts';

export async function taskDatabase(deps: GraphDeps, name: unknown): Promise<Db> {
  return (await taskDatabaseFor(deps.databases, name)).db;
}
