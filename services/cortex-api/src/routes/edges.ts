import { edgeEndpoints as api } from '@rhizome/contracts/api/graph-nodes';
import { graphModule } from '@rhizome/core/graph';
import { queryList } from '../http/query-lists.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import { citationWindow, orderedWindow } from './nodes.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** GET /edges pages hold at most 1000 edges whatever max_page_size says. */
const edgePageCap = 1000;

export function mountEdgeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.list, async ({ query, scope }) => {
    const { default_page_size, max_page_size } = platform.settings.get().pagination;
    const cap = Math.min(max_page_size, edgePageCap);
    const window = pageWindow(query, { default_page_size: Math.min(default_page_size, cap), max_page_size: cap });
    const { items, total } = await (
      await scope.service(graphModule)
    ).listEdges({
      filter: { sourceNodeId: query.source_node_id, label: query.label, sourceIds: queryList(query.source_ids) },
      window: orderedWindow(window, query),
      minimal: query.minimal,
    });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body, scope }) => (await scope.service(graphModule)).createEdge(body));
  // Before the /edges/{edge_id} patterns.
  routes.add(api.batch, async ({ body, scope }) =>
    (await scope.service(graphModule)).queueBatch('edge', body.operations),
  );
  routes.add(api.labels, async ({ scope }) => ({ data: await (await scope.service(graphModule)).edgeLabels() }));
  routes.add(api.citations, async ({ params, query, scope }) => {
    const window = citationWindow(query, platform.settings.get().pagination);
    const { rows, total } = await (
      await scope.service(graphModule)
    ).edgeCitations(params.edge_id, { offset: window.offset, limit: window.pageSize });
    return { data: rows, pagination: pagination(total, window) };
  });
  routes.add(api.get, async ({ params, scope }) => (await scope.service(graphModule)).getEdge(params.edge_id));
  routes.add(api.update, async ({ params, body, scope }) =>
    (await scope.service(graphModule)).updateEdge(params.edge_id, body),
  );
  routes.add(api.remove, async ({ params, scope }) => {
    await (await scope.service(graphModule)).deleteEdge(params.edge_id);
  });
}
