import { duplicateEndpoints as api } from '@rhizome/contracts/api/duplicates';
import { graphModule } from '@rhizome/core/graph';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

const defaultPageSize = 20;
const defaultMinScore = 0.5;

/** GET /graph/duplicates and rejecting a proposal; accepting one is the node merge (routes/node-merge.ts). */
export function mountDuplicateRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.list, async ({ query, scope }) => {
    const limits = platform.settings.get().pagination;
    const window = pageWindow(query, { ...limits, default_page_size: defaultPageSize });
    const { items, total } = await (
      await scope.service(graphModule)
    ).duplicateProposals(query.min_score ?? defaultMinScore, { offset: window.offset, limit: window.pageSize });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.reject, async ({ params, scope }) =>
    (await scope.service(graphModule)).rejectDuplicate(params.proposal_id),
  );
}
