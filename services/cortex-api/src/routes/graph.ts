import { graphEndpoints as api } from '@rhizome/contracts/api/graph';
import { ApiError } from '@rhizome/contracts/errors';
import { graphModule, neighborDirections, type NeighborDirection } from '@rhizome/core/graph';
import { queryList } from '../http/query-lists.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountGraphRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const limits = () => platform.settings.get().pagination;

  routes.add(api.cleanup, async ({ scope }) => ({
    ...(await (await scope.service(graphModule)).queueCleanup()),
    operation_type: 'graph_cleanup' as const,
  }));

  routes.add(api.sourceGroups, async ({ scope }) => (await scope.service(graphModule)).sourceGroups());

  routes.add(api.canvas, async ({ query, scope }) => {
    const { canvas_max_nodes, canvas_max_edges } = limits();
    return (await scope.service(graphModule)).canvas({
      maxNodes: canvas_max_nodes,
      maxEdges: canvas_max_edges,
      sourceIds: queryList(query.source_ids),
    });
  });

  routes.add(api.snapshot, async ({ res, scope }) => {
    const breakdown = await (await scope.service(graphModule)).snapshot();
    // None built yet: one is queued, and 204 says so.
    if (!breakdown) res.status(204).end();
    return breakdown ?? undefined;
  });

  routes.add(api.refreshSnapshot, async ({ scope }) => (await scope.service(graphModule)).refreshSnapshot());

  routes.add(api.groundingNodes, async ({ query, scope }) => {
    const window = pageWindow(query, limits());
    const { rows, total } = await (
      await scope.service(graphModule)
    ).groundingNodes({
      templateId: query.template_id,
      q: query.q,
      window: { offset: window.offset, limit: window.pageSize },
    });
    return { data: rows, pagination: pagination(total, window) };
  });

  routes.add(api.groundingNode, async ({ params, scope }) =>
    (await scope.service(graphModule)).groundingNodeDetail(params.node_id, limits().max_page_size),
  );

  routes.add(api.groundingEdges, async ({ query, scope }) => {
    const window = pageWindow(query, limits());
    const { rows, total } = await (
      await scope.service(graphModule)
    ).groundingEdges({
      sourceNodeId: query.source_node_id,
      targetNodeId: query.target_node_id,
      window: { offset: window.offset, limit: window.pageSize },
    });
    return { data: rows, pagination: pagination(total, window) };
  });

  routes.add(api.groundingNeighbors, async ({ params, query, scope }) => {
    const direction = query.direction ?? 'both';
    if (!(neighborDirections as readonly string[]).includes(direction)) {
      throw ApiError.badRequest(`direction must be one of ${neighborDirections.join(', ')}`, 'direction');
    }
    const limit = Math.min(query.limit ?? 50, limits().max_page_size);
    return (await scope.service(graphModule)).groundingNeighbors(params.node_id, direction as NeighborDirection, limit);
  });
}
