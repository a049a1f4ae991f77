import path from 'node:path';
import type { Request, Response } from 'express';
import { registryEndpoints as api } from '@rhizome/contracts/api/registry';
import { ApiError } from '@rhizome/contracts/errors';
import { ccxModule } from '@rhizome/core/ccx';
import { registryModule } from '@rhizome/core/registry';
import { receiveUpload, type UploadedFile } from '../http/upload.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

const uploadKey = Symbol('registry upload');
type WithUpload = Request & { [uploadKey]?: UploadedFile };

/** A bearer token meant for the registry; our own API keys (`cc_live_`) authenticate the caller, not the upload. */
function registryTokenOf(req: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match && !match[1].startsWith('cc_live_') ? match[1] : null;
}

/** The remote package registry (`/registry`, docs/api-conventions.md#package-registry). */
export function mountRegistryRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.device, async ({ body, scope }) => (await scope.service(registryModule)).startDeviceLogin(body));
  routes.add(api.poll, async ({ body, scope }) => (await scope.service(registryModule)).pollDeviceLogin(body));
  routes.add(api.login, async ({ body, scope }) => (await scope.service(registryModule)).login(body));
  routes.add(api.token, async ({ body, scope }) => (await scope.service(registryModule)).saveToken(body));
  routes.add(api.logout, async ({ scope }) => (await scope.service(registryModule)).logout());
  routes.add(api.status, async ({ scope }) => (await scope.service(registryModule)).status());
  routes.add(api.search, async ({ query, scope }) =>
    (await scope.service(registryModule)).search({
      query: query.query ?? '',
      page: query.page ?? 1,
      limit: query.limit ?? 50,
      sort_by: query.sort_by ?? 'downloads',
      is_public: query.is_public ?? null,
      owner_id: query.owner_id ?? null,
      package_type: query.package_type ?? null,
    }),
  );
  routes.add(api.info, async ({ params, scope }) =>
    (await scope.service(registryModule)).info(params.owner, params.name),
  );

  routes.add(api.download, async ({ params, query, res, scope }) => {
    const version = query.version ?? 'latest';
    const bytes = await (await scope.service(registryModule)).download(params.owner, params.name, version);
    const filename = `${params.name}-${version}.ccx`.replace(/[^\w.@-]/g, '_');
    res.status(200).type('application/zip').setHeader('content-length', String(bytes.length));
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    res.end(bytes);
  });

  routes.add(api.import, async ({ body, scope }) => {
    const version = body.version ?? 'latest';
    const ccx = await scope.service(ccxModule);
    const bytes = await (await scope.service(registryModule)).download(body.owner_username, body.repo_name, version);
    // Validated before anything is queued: a package the registry serves broken is a 400 naming the problem.
    const { task_id } = await ccx.importBytes(bytes, true);
    return {
      message: `Downloaded ${body.owner_username}/${body.repo_name}@${version} (${bytes.length} bytes); importing into '${ccx.database}' in the background`,
      task_id,
      status: 'queued' as const,
      owner_username: body.owner_username,
      repo_name: body.repo_name,
      version,
    };
  });

  routes.add(
    api.upload,
    async ({ req, query, scope }) => {
      const file = (req as WithUpload)[uploadKey];
      if (!file)
        throw ApiError.validation([
          { loc: ['body', 'file'], msg: 'A .ccx file is required (multipart field "file")', type: 'missing' },
        ]);
      return (await scope.service(registryModule)).upload(file.path, {
        public: query.public ?? true,
        message: query.message ?? null,
        token: registryTokenOf(req),
      });
    },
    async (req: Request, res: Response) => {
      const [file] = await receiveUpload(req, res, {
        dir: path.join(platform.paths.root, 'tmp'),
        field: 'file',
        multiple: false,
        maxBytes: platform.settings.get().batching.max_upload_bytes,
        maxFiles: 1,
      });
      (req as WithUpload)[uploadKey] = file;
    },
  );
}
