import fs from 'node:fs';
import type { TaskStore } from '@rhizome/queue';
import { Conflict, NotFound } from '@rhizome/contracts/errors';
import { requireSources } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { submitDatabaseTask } from '../tasks/index.ts';
import { invalidPackage } from './errors.ts';
import type { ExportSwitches } from './writer.ts';
import { exportFile } from './files.ts';
import type { CcxHost } from './host.ts';
import { queueCcxImport } from './import-service.ts';
import { exportBySourcesOperation, exportGraphOperation } from './operation-names.ts';
import { defaultZipLimits } from './zip-reader.ts';

/** A finished export's package on disk, as the download endpoint sends it. */
export interface ExportedPackage {
  file: string;
  size: number;
  filename: string;
}

const exportOperations = new Set([exportGraphOperation, exportBySourcesOperation]);

/** CCX packages of one database: queued exports and imports, and the packages finished exports left. */
export class CcxService {
  constructor(
    private readonly platform: CcxHost,
    readonly database: string,
    private readonly db: Db,
  ) {}

  exportAll(switches: Partial<ExportSwitches>): Promise<{ task_id: string }> {
    return submitDatabaseTask(this.platform.queue, this.database, exportGraphOperation, { ...switches });
  }

  /** What the given sources brought; every id must name a source of the database. */
  async exportBySources(sourceIds: string[], switches: Partial<ExportSwitches>): Promise<{ task_id: string }> {
    await requireSources(this.db, sourceIds);
    return submitDatabaseTask(this.platform.queue, this.database, exportBySourcesOperation, {
      ...switches,
      source_ids: [...new Set(sourceIds)],
    });
  }

  /** Validates a received package file and queues its import (replacing the contents unless `merge`). */
  async importFile(file: { path: string; size: number }, merge: boolean): Promise<{ task_id: string }> {
    // Reading it whole is safe: no package within the archive caps can be larger than their total.
    const limit = defaultZipLimits.maxTotalBytes;
    if (file.size > limit)
      throw invalidPackage(`the file has ${file.size} bytes; packages of at most ${limit} are accepted`);
    return this.importBytes(await fs.promises.readFile(file.path), merge);
  }

  importBytes(bytes: Buffer, merge: boolean): Promise<{ task_id: string }> {
    return queueCcxImport(this.platform, { bytes, merge, database: this.database });
  }

  /** The package of a completed export task: 404 for no such export (or its file gone), 409 while it runs. */
  async exported(taskId: string): Promise<ExportedPackage> {
    const { tasks, paths } = this.platform;
    const task = await tasks.get(taskId);
    if (!task || !exportOperations.has(task.operation)) throw NotFound.resource('export', taskId);
    if (task.status !== 'completed')
      throw new Conflict(`The export task is ${task.status}; the package is available once it completed`, {
        status: task.status,
      });
    const file = exportFile(paths, task.task_id);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) throw NotFound.resource('export file', taskId);
    return {
      file,
      size: stat.size,
      filename: (await storedFilename(tasks, task.task_id)) ?? `knowledge_export_${task.task_id}.ccx`,
    };
  }
}

async function storedFilename(tasks: TaskStore, taskId: string): Promise<string | undefined> {
  const stored = (await tasks.result(taskId, Date.now())) as { result?: { filename?: string } } | null;
  return stored?.result?.filename;
}
