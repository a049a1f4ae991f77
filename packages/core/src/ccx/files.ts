import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DataPaths } from '../paths.ts';

/** Finished export packages, one per export task, served by the download endpoint. */
export function exportFile(paths: DataPaths, taskId: string): string {
  if (!/^[\w-]+$/.test(taskId)) throw new Error(`not a task id: ${taskId}`);
  return path.join(paths.root, 'exports', `${taskId}.ccx`);
}

/** A validated package waiting for its import task. */
export function newImportFile(paths: DataPaths): string {
  return path.join(importsDir(paths), `${randomBytes(12).toString('hex')}.ccx`);
}

/** Whether a task's file is one `newImportFile` named (the task removes it when done). */
export function isImportFile(paths: DataPaths, file: string): boolean {
  return path.dirname(file) === importsDir(paths) && /^[0-9a-f]{24}\.ccx$/.test(path.basename(file));
}

function importsDir(paths: DataPaths): string {
  return path.join(paths.root, 'imports');
}

/** `knowledge_export_YYYYMMDD_HHMMSS.ccx` (UTC); by sources `sources_export_<N>_knowledge_export_….ccx`. */
export function exportFilename(date: Date, sourceCount: number | null): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  const name = `knowledge_export_${stamp}.ccx`;
  return sourceCount === null ? name : `sources_export_${sourceCount}_${name}`;
}

/** Export packages live as long as their task results (timeouts.operations_result_ttl); older ones are removed. */
export async function pruneExports(paths: DataPaths, maxAgeMs: number, now = Date.now()): Promise<void> {
  const dir = path.join(paths.root, 'exports');
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile() && now - stat.mtimeMs > maxAgeMs) await fs.promises.rm(file, { force: true });
  }
}
