import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { exportEndpoints as api } from '@rhizome/contracts/api/exports';
import { ApiError } from '@rhizome/contracts/errors';
import { invalidPackage } from '@rhizome/core/ccx';
import { exportFile } from '@rhizome/core/ccx';
import { queueCcxImport } from '@rhizome/core/ccx';
import { exportBySourcesOperation, exportGraphOperation } from '@rhizome/core/ccx';
import { defaultZipLimits } from '@rhizome/core/ccx';
import { submitDatabaseTask } from '@rhizome/core/tasks';
import { requireSources } from '@rhizome/core/sources';
import { receiveUpload, type UploadedFile } from '../http/upload.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

const receivedKey = Symbol('received package');
type WithPackage = Request & { [receivedKey]?: UploadedFile };

const queued = (taskId: string, message: string) => ({ task_id: taskId, status: 'queued' as const, message });

/** CCX export and import of the active database (spec Part C "Exports"). */
export function mountExportRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.exportAll, async ({ query }) => {
    const database = platform.databases.currentName();
    const task = await submitDatabaseTask(platform.queue, database, exportGraphOperation, { ...query });
    return queued(task.task_id, `Exporting '${database}'; fetch the package from the task result or ${`/api/v1/exports/${task.task_id}/download`}`);
  });

  routes.add(api.exportBySources, async ({ body, query }) => {
    const { name: database, db } = await platform.databases.current();
    await requireSources(db, body);
    const task = await submitDatabaseTask(platform.queue, database, exportBySourcesOperation, { ...query, source_ids: [...new Set(body)] });
    return queued(task.task_id, `Exporting what ${body.length} source(s) of '${database}' brought`);
  });

  routes.add(api.import, async ({ req, body, query }) => {
    const file = (req as WithPackage)[receivedKey];
    if (!file) throw ApiError.validation([{ loc: ['body', 'file'], msg: 'A .ccx file is required (multipart field "file")', type: 'missing' }]);
    // Reading it whole is safe: no package within the archive caps can be larger than their total.
    if (file.size > defaultZipLimits.maxTotalBytes) throw invalidPackage(`the file has ${file.size} bytes; packages of at most ${defaultZipLimits.maxTotalBytes} are accepted`);
    const merge = body.merge ?? query.merge ?? false;
    const { task_id } = await queueCcxImport(platform, { bytes: await fs.promises.readFile(file.path), merge });
    return queued(task_id, `Importing '${file.filename}' (${merge ? 'merging with' : 'replacing'} the contents of '${platform.databases.currentName()}')`);
  }, async (req: Request, res: Response) => {
    const [file] = await receiveUpload(req, res, {
      dir: path.join(platform.paths.root, 'imports', 'incoming'), field: 'file', multiple: false, maxBytes: platform.settings.get().batching.max_upload_bytes, maxFiles: 1,
    });
    (req as WithPackage)[receivedKey] = file;
  });

  routes.add(api.download, async ({ params, res }) => {
    const task = await platform.tasks.get(params.task_id);
    if (!task || (task.operation !== exportGraphOperation && task.operation !== exportBySourcesOperation)) throw ApiError.notFound('export', params.task_id);
    if (task.status !== 'completed') throw ApiError.conflict(`The export task is ${task.status}; the package is available once it completed`, { status: task.status });
    const file = exportFile(platform.paths, task.task_id);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) throw ApiError.notFound('export file', params.task_id);
    const stored = (await platform.tasks.result(task.task_id, Date.now())) as { result?: { filename?: string } } | null;
    const filename = stored?.result?.filename ?? `knowledge_export_${task.task_id}.ccx`;
    res.status(200).type('application/zip').setHeader('content-length', String(stat.size));
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    await pipeline(fs.createReadStream(file), res);
  });
}
