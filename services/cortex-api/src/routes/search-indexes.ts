import { searchIndexEndpoints as api } from '@rhizome/contracts/api/search-indexes';
import { SearchMaintenance } from '@rhizome/core/search';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** Search index maintenance (spec Part B "Search"): stats, status, rebuild / re-embedding, node embeddings. */
export function mountSearchIndexRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const maintenance = new SearchMaintenance({
    settings: () => platform.settings.get(),
    embeddings: platform.providers.embeddings,
    queue: platform.queue,
    writers: platform.vectorWriters,
  });
  const current = () => platform.databases.current();

  routes.add(api.stats, async () => maintenance.stats((await current()).db));
  routes.add(api.status, async () => maintenance.status((await current()).db));
  routes.add(api.rebuild, async ({ res }) => {
    const { name, db } = await current();
    const outcome = await maintenance.rebuild(name, db);
    // One endpoint, two answers (spec): 200 after a full-text rebuild, 202 when re-embedding was queued.
    res.status(outcome.status).json(outcome.body);
  });
  routes.add(api.embeddings, async () => {
    const { name, db } = await current();
    return maintenance.embedNodes(name, db);
  });
}
