import os from 'node:os';
import path from 'node:path';
import type { DataPaths } from '../paths.ts';
import { FileLock } from './file-lock.ts';

/**
 * Makes this process the only server of a data directory (`rhizome serve`): two would each run the
 * schedulers, the reconciler and the backups over the same files. Released on any exit; a lock left by a
 * killed server is taken over (see FileLock).
 */
export async function lockDataDir(paths: DataPaths): Promise<FileLock | { refusal: string }> {
  const file = path.join(paths.runDir, 'serve.lock');
  const lock = await FileLock.acquire(file);
  if (lock instanceof FileLock) {
    process.once('exit', () => lock.releaseSync());
    return lock;
  }
  const { pid, host, since } = lock.heldBy;
  const elsewhere = host === os.hostname() ? '' : ` on host ${host} (if it is gone, delete ${file})`;
  return {
    refusal: `another Rhizome (pid ${pid}${elsewhere}, since ${since}) is already serving the data directory ${paths.root}: stop it first, or give this one another RHIZOME_DATA_DIR`,
  };
}
