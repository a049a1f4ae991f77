import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/** Who holds a lock, as written in its file. */
export interface LockHolder {
  pid: number;
  host: string;
  /** Tells apart holders in one process (its threads, its earlier runs under the same pid). */
  token: string;
  since: string;
}

export interface FileLockOptions {
  /** A lock older than this is taken over whoever holds it (for work that cannot last longer). */
  staleAfterMs?: number;
}

/** Locks this process holds, by file: a holder naming our pid with another token is a dead earlier run. */
const heldHere = new Map<string, string>();

/**
 * An exclusive lock between processes (and threads) as a file created with O_EXCL, naming its holder.
 * A lock whose holder is gone — a dead pid on this host, or older than `staleAfterMs` — is taken over,
 * so a killed holder never blocks the next start.
 */
export class FileLock {
  private released = false;

  private constructor(
    readonly file: string,
    readonly holder: LockHolder,
  ) {}

  /** The lock, or the live holder that has it. */
  static async acquire(file: string, options: FileLockOptions = {}): Promise<FileLock | { heldBy: LockHolder }> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const holder: LockHolder = {
      pid: process.pid,
      host: os.hostname(),
      token: `${threadId}-${randomBytes(6).toString('hex')}`,
      since: new Date().toISOString(),
    };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await fs.promises.writeFile(file, JSON.stringify(holder), { flag: 'wx' });
        heldHere.set(file, holder.token);
        return new FileLock(file, holder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = await readHolder(file);
      if (current === 'gone') continue;
      if (!(await isStale(file, current, options))) return { heldBy: current as LockHolder };
      // Remove only the stale file we read: another taker may have replaced it meanwhile.
      if (JSON.stringify(await readHolder(file)) === JSON.stringify(current))
        await fs.promises.rm(file, { force: true });
    }
    throw new Error(`could not take the lock ${file}`);
  }

  /** Removes the lock file if it is still ours. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.file);
    const current = await readHolder(this.file);
    if (current !== 'gone' && current !== 'unreadable' && current.token === this.holder.token)
      await fs.promises.rm(this.file, { force: true });
  }

  /** For a process 'exit' handler, where nothing asynchronous runs any more. */
  releaseSync(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.file);
    try {
      const current = JSON.parse(fs.readFileSync(this.file, 'utf8')) as LockHolder;
      if (current.token === this.holder.token) fs.rmSync(this.file, { force: true });
    } catch {
      // already gone or replaced: nothing of ours to remove
    }
  }
}

async function readHolder(file: string): Promise<LockHolder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' && typeof holder.token === 'string'
      ? holder
      : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** A file being written by its creator this instant is not stale; one left unreadable for a while is. */
const unreadableGraceMs = 5_000;

async function isStale(file: string, holder: LockHolder | 'unreadable', options: FileLockOptions): Promise<boolean> {
  const age =
    Date.now() -
    (await fs.promises.stat(file).then(
      (stats) => stats.mtimeMs,
      () => Date.now(),
    ));
  if (holder === 'unreadable') return age > unreadableGraceMs;
  if (options.staleAfterMs !== undefined && age > options.staleAfterMs) return true;
  if (holder.host !== os.hostname()) return false;
  if (holder.pid === process.pid) {
    // This thread's own earlier lock it no longer holds is from a dead run that had our pid (a container's pid 1);
    // another thread's lock cannot be checked and counts as live.
    return holder.token.startsWith(`${threadId}-`) && heldHere.get(file) !== holder.token;
  }
  return !isAlive(holder.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
