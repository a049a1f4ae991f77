import { searchEndpoints as api, searchLimitDefault, searchLimitMax } from '@rhizome/contracts/api/search';
import { searchModule } from '@rhizome/core/search';
import type { RouteTable } from '../http/route.ts';

/** `source_ids` as comma-separated values, repeated parameters, or both; none given means every enabled source. */
function sourceIdList(value: string | string[] | undefined): string[] | null {
  if (value === undefined) return null;
  const ids = [
    ...new Set(
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  return ids.length ? ids : null;
}

/** GET /search: one mode's ranking, hydrated into SearchResult objects. */
export function mountSearchRoutes(routes: RouteTable): void {
  routes.add(api.search, async ({ query, scope }) => {
    const limit = Math.min(query.limit ?? searchLimitDefault, searchLimitMax);
    const within = { sourceIds: sourceIdList(query.source_ids), templateId: query.template_id ?? null };
    return (await scope.service(searchModule)).search(query.search_type ?? 'keyword', query.q, within, limit);
  });
}
