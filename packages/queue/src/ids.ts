import { randomBytes } from 'node:crypto';
import os from 'node:os';

export function newTaskId(): string {
  return `task_${randomBytes(12).toString('hex')}`;
}

/** `host:pid:random`: lets a reconciler on the same host tell a dead worker process at once. */
export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** True when `workerId` names a process on this host that no longer exists. */
export function isDeadLocalWorker(workerId: string): boolean {
  const [host, pidText] = workerId.split(':');
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}
