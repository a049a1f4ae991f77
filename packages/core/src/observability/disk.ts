import fs from 'node:fs/promises';
import type { SubsystemHealth } from '../module/index.ts';

const gib = 1024 ** 3;

/** Free space of the data directory's file system: degraded under 2 GiB, unavailable under 1 GiB. */
export async function diskHealth(dataDir: string): Promise<SubsystemHealth> {
  const stats = await fs.statfs(dataDir);
  const freeBytes = stats.bavail * stats.bsize;
  const totalBytes = stats.blocks * stats.bsize;
  const details = { free_bytes: freeBytes, total_bytes: totalBytes, path: dataDir };
  if (freeBytes < gib) return { status: 'unavailable', message: 'less than 1 GiB free', details };
  if (freeBytes < 2 * gib) return { status: 'degraded', message: 'less than 2 GiB free', details };
  return { status: 'ok', details };
}
