import { batchResult } from '@rhizome/contracts/api/batch';
import { nodeEndpoints as api, nodeTagEndpoints as tagApi } from '@rhizome/contracts/api/graph-nodes';
import { graphModule, textChanged } from '@rhizome/core/graph';
import { queryList } from '../http/query-lists.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { PageWindow } from '../http/pagination.ts';
import type { RequestScope } from '../http/request-scope.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

const citationPageCap = 100;

/**
 * The rows of a page and the order they are paged in, for GET /nodes and GET /edges. Built apart from the
 * list call: the graph's page type names only offset and limit, and the order travels along with them.
 */
export function orderedWindow<By extends string>(
  window: PageWindow,
  query: { sort_by?: By; sort_order?: 'asc' | 'desc' },
): { offset: number; limit: number } {
  const ordered = {
    offset: window.offset,
    limit: window.pageSize,
    order: { by: query.sort_by ?? 'created_at', direction: query.sort_order },
  };
  return ordered;
}

/** The page of a citation list: the settings' sizes, capped at 100 whatever they say. */
export function citationWindow(
  query: { page?: number; page_size?: number },
  { default_page_size, max_citation_page_size }: { default_page_size: number; max_citation_page_size?: number },
): PageWindow {
  const cap = Math.min(max_citation_page_size ?? citationPageCap, citationPageCap);
  return pageWindow(query, { default_page_size: Math.min(default_page_size, cap), max_page_size: cap });
}

export function mountNodeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const limits = () => platform.settings.get().pagination;

  routes.add(api.list, async ({ query, scope }) => {
    const window = pageWindow(query, limits());
    const { items, total } = await (
      await scope.service(graphModule)
    ).listNodes({
      filter: { templateId: query.template_id, sourceIds: queryList(query.source_ids), tagId: query.tag_id },
      window: orderedWindow(window, query),
      minimal: query.minimal,
      includeStats: query.include_stats,
    });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body, scope }) => (await scope.service(graphModule)).createNode(body));
  routes.add(api.batch, async ({ body, scope }) =>
    (await scope.service(graphModule)).queueBatch('node', body.operations),
  );
  routes.add(api.get, async ({ params, scope }) => (await scope.service(graphModule)).getNode(params.node_id));
  routes.add(api.update, async ({ params, body, scope }) => {
    const graph = await scope.service(graphModule);
    const node = await graph.updateNode(params.node_id, body);
    if (textChanged(body)) await platform.automation.reembedNode(graph.database, params.node_id);
    return node;
  });
  routes.add(api.position, async ({ params, body, scope }) =>
    (await scope.service(graphModule)).moveNode(params.node_id, body.position),
  );
  routes.add(api.remove, async ({ params, scope }) => {
    await (await scope.service(graphModule)).deleteNode(params.node_id);
  });
  routes.add(api.connections, async ({ params, query, scope }) => {
    const window = pageWindow(query, limits());
    const { rows, total } = await (
      await scope.service(graphModule)
    ).nodeConnections(params.node_id, query.sort_by ?? 'edge_count', {
      offset: window.offset,
      limit: window.pageSize,
    });
    return { data: rows, pagination: pagination(total, window) };
  });
  const tags = async (scope: RequestScope) => (await scope.service(graphModule)).tags;
  routes.add(tagApi.list, async ({ scope }) => (await tags(scope)).list());
  routes.add(tagApi.create, async ({ body, scope }) =>
    (await tags(scope)).create(body.name, body.color ?? null, body.description ?? null),
  );
  routes.add(tagApi.update, async ({ params, body, scope }) => (await tags(scope)).update(params.tag_id, body));
  routes.add(tagApi.remove, async ({ params, scope }) => (await tags(scope)).delete(params.tag_id));
  routes.add(tagApi.tagMany, async ({ params, body, scope }) => {
    const outcomes = await (await tags(scope)).attachMany(params.tag_id, body.node_ids);
    return batchResult(outcomes.map((outcome) => ({ ...outcome, operation: 'tag' })));
  });
  routes.add(tagApi.assign, async ({ params, scope }) => (await tags(scope)).attach(params.node_id, params.tag_id));
  routes.add(tagApi.unassign, async ({ params, scope }) => (await tags(scope)).detach(params.node_id, params.tag_id));
  routes.add(api.citations, async ({ params, query, scope }) => {
    const window = citationWindow(query, limits());
    const { rows, total } = await (
      await scope.service(graphModule)
    ).nodeCitations(params.node_id, { offset: window.offset, limit: window.pageSize });
    return { data: rows, pagination: pagination(total, window) };
  });
}
