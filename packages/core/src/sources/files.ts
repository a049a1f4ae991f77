import fs from 'node:fs';
import path from 'node:path';
import type { DataPaths } from '../paths.ts';

/** Where a source's uploaded original lives: `databases/<name>/sources/<source_id>/original<ext>`. */
export function sourceDir(paths: DataPaths, database: string, sourceId: string): string {
  return path.join(paths.databaseDir(database), 'sources', sourceId);
}

export function originalPath(paths: DataPaths, database: string, sourceId: string, storedFilename: string): string {
  return path.join(sourceDir(paths, database, sourceId), storedFilename);
}

/** Uploads land here first (same file system as their final place, so the move is a rename). */
export function incomingDir(paths: DataPaths, database: string): string {
  return path.join(paths.databaseDir(database), 'sources', '.incoming');
}

/** Moves a received upload into the source's directory; the stored name keeps only a safe extension. */
export async function storeOriginal(
  paths: DataPaths,
  database: string,
  sourceId: string,
  received: string,
  filename: string,
): Promise<string> {
  const extension = path
    .extname(filename)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '')
    .slice(0, 12);
  const storedFilename = `original${extension}`;
  const target = originalPath(paths, database, sourceId, storedFilename);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  await fs.promises.rename(received, target);
  return storedFilename;
}

export async function removeSourceFiles(paths: DataPaths, database: string, sourceId: string): Promise<void> {
  await fs.promises.rm(sourceDir(paths, database, sourceId), { recursive: true, force: true });
}
