import { qualityEndpoints as api } from '@rhizome/contracts/api/quality';
import { qualityModule } from '@rhizome/core/quality';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** Quality scores of the current database's sources. */
export function mountQualityRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.source, async ({ params, query, scope }) =>
    (await scope.service(qualityModule)).sourceScore(params.source_id, query.force_recalculate),
  );
  routes.add(api.details, async ({ params, scope }) =>
    (await scope.service(qualityModule)).sourceDetails(params.source_id),
  );
  routes.add(api.recalculate, async ({ body, scope }) => (await scope.service(qualityModule)).recalculate(body.domain));
  routes.add(api.outdated, async ({ scope }) => (await scope.service(qualityModule)).outdated());
  routes.add(api.analyze, async ({ body, scope }) =>
    (await scope.service(qualityModule)).analyze(
      { sourceIds: body.source_ids, domain: body.domain, minEntities: body.min_entities },
      { sortBy: 'total_score', direction: 'desc' },
    ),
  );
  routes.add(api.analyzePage, async ({ query, scope }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const result = await (
      await scope.service(qualityModule)
    ).analyze(
      { domain: query.domain, minEntities: query.min_entities },
      { sortBy: query.sort_by ?? 'total_score', direction: query.sort_order ?? 'desc' },
      { offset: window.offset, limit: window.pageSize },
    );
    return { ...result, pagination: pagination(result.total_sources, window) };
  });
  routes.add(api.domains, async ({ scope }) => (await scope.service(qualityModule)).domains());
  routes.add(api.summary, async ({ scope }) => (await scope.service(qualityModule)).summary());
}
