import { processingEndpoints as api } from '@rhizome/contracts/api/queue';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountProcessingRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { processing } = platform;
  routes.add(api.pause, async ({ body }) => {
    await processing.pause(body.reason ?? null);
    await platform.announceProcessingChanged();
    return { paused: true as const };
  });
  routes.add(api.resume, async () => {
    await processing.resume();
    await platform.announceProcessingChanged();
    return { paused: false as const };
  });
  routes.add(api.status, () => processing.status());
  routes.add(api.events, ({ query }) => processing.events({ type: query.event_type, limit: query.limit ?? 50 }));
  routes.add(api.clearEvents, async () => ({ deleted: await processing.clearEvents() }));
}
