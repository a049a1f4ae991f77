import { edgeEndpoints as api } from '@rhizome/contracts/api/graph-nodes';
import { createEdge, deleteEdge, getEdge, listEdges, updateEdge } from '@rhizome/core/graph';
import type { GraphScope } from '@rhizome/core/graph';
import { asList } from '@rhizome/core/graph';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';
import { queueBatch } from './nodes.ts';

/** GET /edges pages hold at most 1000 edges whatever max_page_size says (spec Part B "Edges"). */
const edgePageCap = 1000;

export function mountEdgeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const scope = async (): Promise<GraphScope> => {
    const { name, db } = await platform.databases.current();
    return { db, database: name, events: platform.graphEvents };
  };

  routes.add(api.list, async ({ query }) => {
    const { default_page_size, max_page_size } = platform.settings.get().pagination;
    const cap = Math.min(max_page_size, edgePageCap);
    const window = pageWindow(query, { default_page_size: Math.min(default_page_size, cap), max_page_size: cap });
    const { items, total } = await listEdges((await scope()).db, {
      filter: { sourceNodeId: query.source_node_id, sourceIds: asList(query.source_ids) },
      window: { offset: window.offset, limit: window.pageSize },
      minimal: query.minimal,
    });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body }) => createEdge(await scope(), body));
  // Before the /edges/{edge_id} patterns.
  routes.add(api.batch, ({ body }) => queueBatch(platform, 'graph.edges_batch', 'edge', body.operations));
  routes.add(api.get, async ({ params }) => getEdge((await scope()).db, params.edge_id));
  routes.add(api.update, async ({ params, body }) => updateEdge(await scope(), params.edge_id, body));
  routes.add(api.remove, async ({ params }) => {
    await deleteEdge(await scope(), params.edge_id);
  });
}
