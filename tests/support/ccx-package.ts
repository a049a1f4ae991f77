import fs from 'node:fs';
import { exportFile, exportGraphOperation } from '@rhizome/core/ccx';
import type { Platform } from '@rhizome/core/platform';
import { submitDatabaseTask } from '@rhizome/core/tasks';
import { finishedTaskStatuses, until } from './wait.ts';

/** The package the export task writes for a database (the active one by default), as bytes. */
export async function exportedPackage(
  platform: Platform,
  options: { database?: string; include_embeddings?: boolean } = {},
): Promise<Buffer> {
  const database = options.database ?? platform.databases.currentName();
  const { task_id } = await submitDatabaseTask(platform.queue, database, exportGraphOperation, {
    include_embeddings: options.include_embeddings ?? false,
  });
  const task = await until(
    async () => {
      const current = await platform.tasks.get(task_id);
      return current && finishedTaskStatuses.includes(current.status) ? current : undefined;
    },
    { timeoutMs: 30_000, what: `export task ${task_id}` },
  );
  if (task.status !== 'completed') throw new Error(`export task ${task_id} is ${task.status}: ${task.error ?? ''}`);
  return fs.promises.readFile(exportFile(platform.paths, task_id));
}

/** Submits a package to `POST /exports/import`, asking to merge in the form and the query; the import task's id. */
export async function submitMergeImport(
  base: string,
  cookie: string,
  bytes: Uint8Array<ArrayBuffer>,
  filename: string,
): Promise<string> {
  const form = new FormData();
  form.append('merge', 'true');
  form.append('file', new Blob([bytes]), filename);
  const submitted = await fetch(`${base}/exports/import?merge=true`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  const text = await submitted.text();
  if (submitted.status !== 202) throw new Error(`import refused: ${submitted.status} ${text}`);
  return (JSON.parse(text) as { task_id: string }).task_id;
}
