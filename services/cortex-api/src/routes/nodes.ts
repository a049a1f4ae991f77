import { submitDatabaseTask } from '@rhizome/core/tasks';
import { nodeEndpoints as api } from '@rhizome/contracts/api/graph-nodes';
import {
  createNode, deleteNode, getNode, listNodes, moveNode, nodeCitations, nodeConnections, textChanged, updateNode, type GraphScope,
} from '@rhizome/core/graph';
import { asList } from '@rhizome/core/graph';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { Platform } from '@rhizome/core/platform';
import type { CortexDeps } from '../deps.ts';

const citationPageCap = 100;

export function mountNodeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const scope = async (): Promise<GraphScope> => {
    const { name, db } = await platform.databases.current();
    return { db, database: name, events: platform.graphEvents };
  };
  const limits = () => platform.settings.get().pagination;

  routes.add(api.list, async ({ query }) => {
    const window = pageWindow(query, limits());
    const { items, total } = await listNodes((await scope()).db, {
      filter: { templateId: query.template_id, sourceIds: asList(query.source_ids) },
      window: { offset: window.offset, limit: window.pageSize },
      minimal: query.minimal,
      includeStats: query.include_stats,
    });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body }) => createNode(await scope(), body));
  routes.add(api.batch, ({ body }) => queueBatch(platform, 'graph.nodes_batch', 'node', body.operations));
  routes.add(api.get, async ({ params }) => getNode((await scope()).db, params.node_id));
  routes.add(api.update, async ({ params, body }) => {
    const where = await scope();
    const node = await updateNode(where, params.node_id, body);
    if (textChanged(body)) await platform.automation.reembedNode(where.database, params.node_id);
    return node;
  });
  routes.add(api.position, async ({ params, body }) => moveNode(await scope(), params.node_id, body.position));
  routes.add(api.remove, async ({ params }) => {
    await deleteNode(await scope(), params.node_id);
  });
  routes.add(api.connections, async ({ params, query }) => {
    const window = pageWindow(query, limits());
    const { rows, total } = await nodeConnections((await scope()).db, params.node_id, query.sort_by ?? 'edge_count', {
      offset: window.offset, limit: window.pageSize,
    });
    return { data: rows, pagination: pagination(total, window) };
  });
  routes.add(api.citations, async ({ params, query }) => {
    const { default_page_size, max_citation_page_size } = limits();
    const cap = Math.min(max_citation_page_size ?? citationPageCap, citationPageCap);
    const window = pageWindow(query, { default_page_size: Math.min(default_page_size, cap), max_page_size: cap });
    const { rows, total } = await nodeCitations((await scope()).db, params.node_id, { offset: window.offset, limit: window.pageSize });
    return { data: rows, pagination: pagination(total, window) };
  });
}

/** Queues a node or edge batch on the operations lane for the active database: 202 `{task_id, status, message}`. */
export async function queueBatch(platform: Platform, operation: 'graph.nodes_batch' | 'graph.edges_batch', entity: 'node' | 'edge', operations: unknown[]) {
  const task = await submitDatabaseTask(platform.queue, platform.databases.currentName(), operation, { operations });
  return {
    task_id: task.task_id,
    status: 'queued' as const,
    message: `${operations.length} ${entity} operation${operations.length === 1 ? '' : 's'} queued; results at /queue/tasks/${task.task_id}/result`,
  };
}
