import { PermanentTaskError } from '@rhizome/queue';
import type { Db } from '../storage/index.ts';
import type { DatabaseManager } from './manager.ts';

/** The database a task was queued for; one that no longer exists fails the task rather than being recreated. */
export async function taskDatabaseFor(databases: DatabaseManager, name: unknown): Promise<{ name: string; db: Db }> {
  if (typeof name !== 'string' || !name)
    throw new PermanentTaskError('data.database must name a database', 'ValidationError');
  try {
    databases.info(name);
  } catch {
    // On a server, another process may have created it since this one last read the catalogue.
    if (!(await databases.survey()).some((database) => database.name === name))
      throw new PermanentTaskError(`Database '${name}' does not exist`, 'NotFound');
  }
  return { name, db: await databases.connection(name) };
}
