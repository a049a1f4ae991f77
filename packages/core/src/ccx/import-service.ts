import fs from 'node:fs';
import path from 'node:path';
import type { CcxHost } from './host.ts';
import { newImportFile } from './files.ts';
import { importCcxOperation } from './operation-names.ts';
import { validateCcxPackage } from './read-in-thread.ts';

/** Validates the package, stores it under the data directory and queues its import (operations lane). */
export async function queueCcxImport(
  platform: Pick<CcxHost, 'databases' | 'paths' | 'queue' | 'settings'>,
  input: { bytes: Buffer; merge: boolean; database?: string },
): Promise<{ task_id: string }> {
  const validated = await validateCcxPackage(input.bytes);
  const database = input.database ?? platform.databases.currentName();
  platform.databases.info(database);
  const file = newImportFile(platform.paths);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await fs.promises.writeFile(file, input.bytes);
  try {
    const task = await platform.queue.submit({
      queue: 'operations',
      operation: importCcxOperation,
      priority: platform.settings.get().priorities.background,
      data: { database, file, merge: input.merge },
      metadata: {
        database,
        operation_type: importCcxOperation,
        package_name: validated.name,
        package_version: validated.package_version,
      },
    });
    return { task_id: task.task_id };
  } catch (error) {
    await fs.promises.rm(file, { force: true });
    throw error;
  }
}
