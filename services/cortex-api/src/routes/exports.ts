import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { exportEndpoints as api } from '@rhizome/contracts/api/exports';
import { ApiError } from '@rhizome/contracts/errors';
import { ccxModule } from '@rhizome/core/ccx';
import { receiveUpload, type UploadedFile } from '../http/upload.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

const receivedKey = Symbol('received package');
type WithPackage = Request & { [receivedKey]?: UploadedFile };

const queued = (taskId: string, message: string) => ({ task_id: taskId, status: 'queued' as const, message });

/** `merge` as the form field and the query parameter give it (either counts); undefined when neither does. */
function requestedMerge(form: boolean | undefined, query: boolean | undefined): boolean | undefined {
  if (form !== undefined && query !== undefined && form !== query)
    throw ApiError.validation([
      {
        loc: ['query', 'merge'],
        msg: `merge=${query} in the query contradicts merge=${form} in the form; give one value`,
        type: 'conflict',
      },
    ]);
  return form ?? query;
}

/** CCX export and import of the active database (docs/api-conventions.md#ccx-packages). */
export function mountExportRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.exportAll, async ({ query, scope }) => {
    const ccx = await scope.service(ccxModule);
    const { task_id } = await ccx.exportAll(query);
    return queued(
      task_id,
      `Exporting '${ccx.database}'; fetch the package from the task result or /api/v1/exports/${task_id}/download`,
    );
  });

  routes.add(api.exportBySources, async ({ body, query, scope }) => {
    const ccx = await scope.service(ccxModule);
    const { task_id } = await ccx.exportBySources(body, query);
    return queued(task_id, `Exporting what ${body.length} source(s) of '${ccx.database}' brought`);
  });

  routes.add(
    api.import,
    async ({ req, body, query, scope }) => {
      const file = (req as WithPackage)[receivedKey];
      if (!file)
        throw ApiError.validation([
          { loc: ['body', 'file'], msg: 'A .ccx file is required (multipart field "file")', type: 'missing' },
        ]);
      const merge = requestedMerge(body.merge, query.merge);
      const ccx = await scope.service(ccxModule);
      const { task_id } = await ccx.importFile(file, merge ?? false);
      const mode = merge
        ? `merging with the contents of '${ccx.database}'`
        : `replacing the contents of '${ccx.database}'${merge === undefined ? ', as merge was not given' : ''}; a safety backup is taken first`;
      return queued(task_id, `Importing '${file.filename}' (${mode})`);
    },
    async (req: Request, res: Response) => {
      const [file] = await receiveUpload(req, res, {
        dir: path.join(platform.paths.root, 'imports', 'incoming'),
        field: 'file',
        multiple: false,
        maxBytes: platform.settings.get().batching.max_upload_bytes,
        maxFiles: 1,
      });
      (req as WithPackage)[receivedKey] = file;
    },
  );

  routes.add(api.download, async ({ params, res, scope }) => {
    const { file, size, filename } = await (await scope.service(ccxModule)).exported(params.task_id);
    res.status(200).type('application/zip').setHeader('content-length', String(size));
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    await pipeline(fs.createReadStream(file), res);
  });
}
