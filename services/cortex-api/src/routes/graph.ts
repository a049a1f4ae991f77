import { submitDatabaseTask } from '@rhizome/core/tasks';
import { graphEndpoints as api } from '@rhizome/contracts/api/graph';
import { ApiError, describeError } from '@rhizome/contracts/errors';
import { canvasData } from '@rhizome/core/graph';
import {
  groundingEdges, groundingNeighbors, groundingNodeDetail, groundingNodes, neighborDirections, type NeighborDirection,
} from '@rhizome/core/graph';
import { cleanupOperation, requestSnapshotBuild } from '@rhizome/core/graph';
import { isSnapshotStale, readSnapshot } from '@rhizome/core/graph';
import { sourceGroups } from '@rhizome/core/graph';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountGraphRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const limits = () => platform.settings.get().pagination;
  const current = () => platform.databases.current();
  const snapshotBuild = (database: string, reuseRunning: boolean) =>
    requestSnapshotBuild({ queue: platform.queue, tasks: platform.tasks, database, reuseRunning });

  routes.add(api.cleanup, async () => {
    const name = platform.databases.currentName();
    const task = await submitDatabaseTask(platform.queue, name, cleanupOperation);
    return { task_id: task.task_id, status: 'queued' as const, operation_type: 'graph_cleanup' as const, message: `Graph cleanup of '${name}' queued` };
  });

  routes.add(api.sourceGroups, async () => sourceGroups((await current()).db));

  routes.add(api.canvas, async ({ query }) => {
    const { canvas_max_nodes, canvas_max_edges } = limits();
    const sourceIds = query.source_ids === undefined ? undefined : Array.isArray(query.source_ids) ? query.source_ids : [query.source_ids];
    return canvasData((await current()).db, { maxNodes: canvas_max_nodes, maxEdges: canvas_max_edges, sourceIds });
  });

  routes.add(api.snapshot, async ({ res }) => {
    const { name, db } = await current();
    const stored = await readSnapshot(db);
    if (!stored) {
      await snapshotBuild(name, true);
      res.status(204).end();
      return;
    }
    if (await isSnapshotStale(db, stored)) {
      // The stale breakdown is still the answer; a full or unreachable queue only delays the rebuild.
      await snapshotBuild(name, true).catch((error: unknown) => {
        platform.logger.warning(`graph snapshot rebuild of '${name}' not queued: ${describeError(error)}`);
      });
    }
    return stored.breakdown;
  });

  routes.add(api.refreshSnapshot, async () => {
    const { name } = await current();
    const { task_id } = await snapshotBuild(name, false);
    return { task_id, status: 'queued' as const, message: `Graph snapshot rebuild of '${name}' queued` };
  });

  routes.add(api.groundingNodes, async ({ query }) => {
    const window = pageWindow(query, limits());
    const { rows, total } = await groundingNodes((await current()).db, {
      templateId: query.template_id, q: query.q, window: { offset: window.offset, limit: window.pageSize },
    });
    return { data: rows, pagination: pagination(total, window) };
  });

  routes.add(api.groundingNode, async ({ params }) => groundingNodeDetail((await current()).db, params.node_id, limits().max_page_size));

  routes.add(api.groundingEdges, async ({ query }) => {
    const window = pageWindow(query, limits());
    const { rows, total } = await groundingEdges((await current()).db, {
      sourceNodeId: query.source_node_id, targetNodeId: query.target_node_id, window: { offset: window.offset, limit: window.pageSize },
    });
    return { data: rows, pagination: pagination(total, window) };
  });

  routes.add(api.groundingNeighbors, async ({ params, query }) => {
    const direction = query.direction ?? 'both';
    if (!(neighborDirections as readonly string[]).includes(direction)) {
      throw ApiError.badRequest(`direction must be one of ${neighborDirections.join(', ')}`, 'direction');
    }
    const limit = Math.min(query.limit ?? 50, limits().max_page_size);
    return groundingNeighbors((await current()).db, params.node_id, direction as NeighborDirection, limit);
  });
}
