import { searchEndpoints as api, searchLimitDefault, searchLimitMax } from '@rhizome/contracts/api/search';
import { hydrate } from '@rhizome/core/search';
import { runSearch } from '@rhizome/core/search';
import type { SearchContext, SearchScope } from '@rhizome/core/search';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** `source_ids` as comma-separated values, repeated parameters, or both; none given means every enabled source. */
export function sourceIdList(value: string | string[] | undefined): string[] | null {
  if (value === undefined) return null;
  const ids = [...new Set((Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((id) => id.trim()).filter(Boolean))];
  return ids.length ? ids : null;
}

/** GET /search (spec Part B "Search"): one mode's ranking, hydrated into SearchResult objects. */
export function mountSearchRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.search, async ({ query }) => {
    const { name, db } = await platform.databases.current();
    const context: SearchContext = { db, database: name, settings: platform.settings.get(), embeddings: platform.providers.embeddings };
    const scope: SearchScope = { sourceIds: sourceIdList(query.source_ids), templateId: query.template_id ?? null };
    const type = query.search_type ?? 'keyword';
    const limit = Math.min(query.limit ?? searchLimitDefault, searchLimitMax);
    const result = await runSearch(context, type, query.q, scope, limit);
    return {
      data: await hydrate(db, result.items.slice(0, limit)),
      type,
      fallback: result.fallback,
      ...(result.triples ? { triples: result.triples } : {}),
    };
  });
}
