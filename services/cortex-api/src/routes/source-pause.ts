import { sourcePauseEndpoints as api } from '@rhizome/contracts/api/queue';
import { sourcesModule } from '@rhizome/core/sources';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** Per-source pause flags of the active database; workers skip a paused source's tasks, and a resume re-queues unfinished work. */
export function mountSourcePauseRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { processing } = platform;
  const changed = async <T>(result: T) => {
    await platform.announceProcessingChanged();
    return result;
  };

  routes.add(api.pause, async ({ params, body, scope }) => {
    await (await scope.service(sourcesModule)).require(params.source_id);
    await processing.pauseSources((await scope.database()).name, [params.source_id], body.reason ?? null);
    return changed({ source_id: params.source_id, paused: true as const });
  });
  routes.add(api.resume, async ({ params, scope }) => {
    const service = await scope.service(sourcesModule);
    await service.require(params.source_id);
    await processing.resumeSources((await scope.database()).name, [params.source_id]);
    const result = await changed({ source_id: params.source_id, paused: false as const });
    await service.recover(params.source_id);
    return result;
  });
  routes.add(api.pauseMany, async ({ body, scope }) =>
    changed({
      count: await processing.pauseSources((await scope.database()).name, body.source_ids, body.reason ?? null),
    }),
  );
  routes.add(api.resumeMany, async ({ body, scope }) => {
    const result = await changed({
      count: await processing.resumeSources((await scope.database()).name, body.source_ids),
    });
    const service = await scope.service(sourcesModule);
    for (const sourceId of body.source_ids) await service.recover(sourceId).catch(() => false);
    return result;
  });
}
