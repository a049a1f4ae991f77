import { PermanentTaskError } from '@rhizome/queue';
import type { Db } from '../storage/connection.ts';
import type { GraphDeps } from './operations.ts';

/** The database a task was queued for; one that no longer exists fails the task rather than being recreated. */
export async function taskDatabase(deps: GraphDeps, name: unknown): Promise<Db> {
  if (typeof name !== 'string' || !name) throw new PermanentTaskError('data.database must name a database', 'ValidationError');
  try {
    deps.databases.info(name);
  } catch {
    throw new PermanentTaskError(`Database '${name}' does not exist`, 'NotFound');
  }
  return deps.databases.connection(name);
}
