import { nodeMergeEndpoints as api } from '@rhizome/contracts/api/node-merge';
import { graphModule } from '@rhizome/core/graph';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/**
 * POST /nodes/{node_id}/merge: the kept node answers with what moved and the merge's id; it is embedded again
 * when its text changed. The merges list, and undoing one within source_processing.merge_undo_retention_days.
 */
export function mountNodeMergeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const settings = () => platform.settings.get();
  routes.add(api.merge, async ({ params, body, scope }) => {
    const graph = await scope.service(graphModule);
    const retentionDays = settings().source_processing.merge_undo_retention_days;
    const { needsEmbedding, ...outcome } = await graph.mergeNodes(params.node_id, body.node_ids, retentionDays);
    if (needsEmbedding) await platform.automation.reembedNode(graph.database, params.node_id);
    return outcome;
  });
  routes.add(api.merges, async ({ query, scope }) => {
    const window = pageWindow(query, settings().pagination);
    const { items, total } = await (
      await scope.service(graphModule)
    ).listMerges({ offset: window.offset, limit: window.pageSize });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.undo, async ({ params, scope }) => (await scope.service(graphModule)).undoMerge(params.merge_id));
}
