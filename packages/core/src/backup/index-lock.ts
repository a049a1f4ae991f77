import path from 'node:path';
import { Conflict } from '@rhizome/contracts/errors';
import type { DataPaths } from '../paths.ts';
import { FileLock } from '../runtime/index.ts';

/**
 * One lock per database, between processes, held while its file is swapped by a restore (the API
 * process) and while its vector indexes are rebuilt from the restored rows (the worker). So rebuilds run
 * one after the other instead of removing each other's files, and a restore never replaces the file a
 * rebuild is reading. It lives beside `vectors/`, which a rebuild removes.
 */
function lockFile(paths: DataPaths, database: string): string {
  return path.join(paths.databaseDir(database), 'index-rebuild.lock');
}

/** Longer than any rebuild takes: a lock this old belongs to a process that died on another host. */
const staleAfterMs = 30 * 60_000;
const pollMs = 50;

/** How long a restore waits for a running rebuild before it is refused (409), changing nothing. */
export const restoreWaitMs = 60_000;

/** Runs `work` holding the database's index lock, waiting for it as long as `waitMs` (default: until it is free). */
export async function withIndexLock<T>(
  paths: DataPaths,
  database: string,
  work: () => Promise<T>,
  waitMs = Infinity,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = await FileLock.acquire(lockFile(paths, database), { staleAfterMs });
    if (lock instanceof FileLock) {
      try {
        return await work();
      } finally {
        await lock.release();
      }
    }
    if (Date.now() >= deadline)
      throw new Conflict(
        `The vector indexes of '${database}' are being rebuilt after an earlier restore; try again once that finished`,
        { database },
      );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
