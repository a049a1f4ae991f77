import path from 'node:path';
import type { Request, Response } from 'express';
import { registryEndpoints as api } from '@rhizome/contracts/api/registry';
import { ApiError } from '@rhizome/contracts/errors';
import { queueCcxImport } from '@rhizome/core/ccx';
import { RegistryService } from '@rhizome/core/registry';
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

/** The remote package registry (`/registry`, spec Part A). */
export function mountRegistryRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const registry = new RegistryService({ settings: () => platform.settings.get(), configDir: platform.configDir });

  routes.add(api.device, ({ body }) => registry.startDeviceLogin(body));
  routes.add(api.poll, ({ body }) => registry.pollDeviceLogin(body));
  routes.add(api.login, ({ body }) => registry.login(body));
  routes.add(api.token, ({ body }) => registry.saveToken(body));
  routes.add(api.logout, async () => {
    const result = registry.logout();
    // "All stored registry credentials": a token or credentials put into the settings go too.
    const { token, credentials } = platform.settings.get().registry;
    if (token !== null || credentials !== null) {
      platform.settings.patch({ registry: { token: null, credentials: null } });
      await platform.announceSettingsChanged();
    }
    return result;
  });
  routes.add(api.status, () => registry.status());
  routes.add(api.search, ({ query }) =>
    registry.search({
      query: query.query ?? '', page: query.page ?? 1, limit: query.limit ?? 50, sort_by: query.sort_by ?? 'downloads',
      is_public: query.is_public ?? null, owner_id: query.owner_id ?? null, package_type: query.package_type ?? null,
    }),
  );
  routes.add(api.info, ({ params }) => registry.info(params.owner, params.name));

  routes.add(api.import, async ({ body }) => {
    const version = body.version ?? 'latest';
    const database = platform.databases.currentName();
    const bytes = await registry.download(body.owner_username, body.repo_name, version);
    // Validated before anything is queued: a package the registry serves broken is a 400 naming the problem.
    const { task_id } = await queueCcxImport(platform, { bytes, merge: true, database });
    return {
      message: `Downloaded ${body.owner_username}/${body.repo_name}@${version} (${bytes.length} bytes); importing into '${database}' in the background`,
      task_id, status: 'queued' as const, owner_username: body.owner_username, repo_name: body.repo_name, version,
    };
  });

  routes.add(
    api.upload,
    async ({ req, query }) => {
      const file = (req as WithUpload)[uploadKey];
      if (!file) throw ApiError.validation([{ loc: ['body', 'file'], msg: 'A .ccx file is required (multipart field "file")', type: 'missing' }]);
      return registry.upload(file.path, { public: query.public ?? true, message: query.message ?? null, token: registryTokenOf(req) });
    },
    async (req: Request, res: Response) => {
      const [file] = await receiveUpload(req, res, {
        dir: path.join(platform.paths.root, 'tmp'), field: 'file', multiple: false, maxBytes: platform.settings.get().batching.max_upload_bytes, maxFiles: 1,
      });
      (req as WithUpload)[uploadKey] = file;
    },
  );
}
