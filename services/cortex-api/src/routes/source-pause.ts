import { sourcePauseEndpoints as api } from '@rhizome/contracts/api/queue';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** Per-source pause flags of the active database; workers skip a paused source's tasks. */
export function mountSourcePauseRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { processing, databases } = platform;
  const changed = async <T>(result: T) => {
    await platform.announceProcessingChanged();
    return result;
  };

  routes.add(api.pause, async ({ params, body }) => {
    await processing.pauseSources(databases.currentName(), [params.source_id], body.reason ?? null);
    return changed({ source_id: params.source_id, paused: true as const });
  });
  routes.add(api.resume, async ({ params }) => {
    await processing.resumeSources(databases.currentName(), [params.source_id]);
    return changed({ source_id: params.source_id, paused: false as const });
  });
  routes.add(api.pauseMany, async ({ body }) =>
    changed({ count: await processing.pauseSources(databases.currentName(), body.source_ids, body.reason ?? null) }),
  );
  routes.add(api.resumeMany, async ({ body }) => changed({ count: await processing.resumeSources(databases.currentName(), body.source_ids) }));
}
