import { searchIndexEndpoints as api } from '@rhizome/contracts/api/search-indexes';
import { searchModule } from '@rhizome/core/search';
import type { RouteTable } from '../http/route.ts';

/** Search index maintenance: stats, status, rebuild / re-embedding, node embeddings. */
export function mountSearchIndexRoutes(routes: RouteTable): void {
  routes.add(api.stats, async ({ scope }) => (await scope.service(searchModule)).stats());
  routes.add(api.status, async ({ scope }) => (await scope.service(searchModule)).status());
  routes.add(api.rebuild, async ({ res, scope }) => {
    const outcome = await (await scope.service(searchModule)).rebuild();
    // One endpoint, two answers: 200 after a full-text rebuild, 202 when re-embedding was queued.
    res.status(outcome.status).json(outcome.body);
  });
  routes.add(api.embeddings, async ({ scope }) => (await scope.service(searchModule)).embedNodes());
}
