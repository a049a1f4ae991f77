import { qualityEndpoints as api } from '@rhizome/contracts/api/quality';
import type { Platform } from '@rhizome/core/platform';
import { QualityService } from '@rhizome/core/quality';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

async function qualityService(platform: Platform): Promise<QualityService> {
  const { db } = await platform.databases.current();
  return new QualityService({ db, settings: () => platform.settings.get() });
}

/** Quality scores of the current database's sources (spec Part C `/quality`). */
export function mountQualityRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.source, async ({ params, query }) => (await qualityService(platform)).sourceScore(params.source_id, query.force_recalculate));
  routes.add(api.details, async ({ params }) => (await qualityService(platform)).sourceDetails(params.source_id));
  routes.add(api.recalculate, async ({ body }) => (await qualityService(platform)).recalculate(body.domain));
  routes.add(api.outdated, async () => (await qualityService(platform)).outdated());
  routes.add(api.analyze, async ({ body }) => (await qualityService(platform)).analyze(
    { sourceIds: body.source_ids, domain: body.domain, minEntities: body.min_entities },
    { sortBy: 'total_score', direction: 'desc' },
  ));
  routes.add(api.analyzePage, async ({ query }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const result = await (await qualityService(platform)).analyze(
      { domain: query.domain, minEntities: query.min_entities },
      { sortBy: query.sort_by ?? 'total_score', direction: query.sort_order ?? 'desc' },
      { offset: window.offset, limit: window.pageSize },
    );
    return { ...result, pagination: pagination(result.total_sources, window) };
  });
  routes.add(api.domains, async () => (await qualityService(platform)).domains());
  routes.add(api.summary, async () => (await qualityService(platform)).summary());
}
