import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { backupEndpoints as api } from '@rhizome/contracts/api/backup';
import { ApiError } from '@rhizome/contracts/errors';
import { backupModule } from '@rhizome/core/backup';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { HandlerInput, RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** An ISO UTC time as YYYYMMDD_HHMMSS, the form backup names carry. */
function compactTime(iso: string): string {
  const [date, time] = iso.split('T');
  return `${date.replaceAll('-', '')}_${time.slice(0, 8).replaceAll(':', '')}`;
}

/** Operator backups of the active database (`/backup`). */
export function mountBackupRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.create, async ({ scope }) => (await scope.service(backupModule)).create());
  routes.add(api.list, async ({ query, scope }) => {
    const all = (await scope.service(backupModule)).list();
    const window = pageWindow(query, platform.settings.get().pagination);
    return {
      data: all.slice(window.offset, window.offset + window.pageSize),
      pagination: pagination(all.length, window),
      backups: all.map(({ filename, size, created_at }) => ({ filename, size, created_at: compactTime(created_at) })),
    };
  });
  const download = async ({ params, res, scope }: HandlerInput<typeof api.download>) => {
    const { path, info } = (await scope.service(backupModule)).locate(params.filename);
    // Opened before the headers go out, so a backup deleted meanwhile is still a clean 404.
    const stream = fs.createReadStream(path);
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject)).catch(
      () => {
        throw ApiError.notFound('backup', info.filename);
      },
    );
    res
      .status(200)
      .attachment(info.filename)
      .type('application/vnd.sqlite3')
      .setHeader('content-length', String(info.size));
    await pipeline(stream, res);
  };
  routes.add(api.download, download);
  routes.add(api.downloadAlias, download);
  routes.add(api.restore, async ({ params, scope }) => {
    const result = await (await scope.service(backupModule)).restore(params.filename);
    return {
      ...result,
      message: `Database '${result.database}' restored from ${result.restored_from}; its state before is kept as ${result.safety_backup.filename}`,
    };
  });
  routes.add(api.remove, async ({ params, scope }) => {
    await (await scope.service(backupModule)).remove(params.filename);
  });
}
