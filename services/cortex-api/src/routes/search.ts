import { searchEndpoints as api, searchLimitDefault, searchLimitMax } from '@rhizome/contracts/api/search';
import { searchModule } from '@rhizome/core/search';
import { queryList } from '../http/query-lists.ts';
import type { RouteTable } from '../http/route.ts';

/** GET /search: one mode's ranking, hydrated into SearchResult objects. */
export function mountSearchRoutes(routes: RouteTable): void {
  routes.add(api.search, async ({ query, scope }) => {
    const limit = Math.min(query.limit ?? searchLimitDefault, searchLimitMax);
    const within = { sourceIds: queryList(query.source_ids) ?? null, templateId: query.template_id ?? null };
    return (await scope.service(searchModule)).search(query.search_type ?? 'keyword', query.q, within, limit);
  });
}
