import { ApiError } from '@rhizome/contracts/errors';
import { toolEndpoints as api } from '@rhizome/contracts/api/tools';
import { findSystemTool, systemToolDetail, systemToolSummary, systemTools } from '@rhizome/core/automation';
import { toolStats } from '@rhizome/core/automation';
import { createUserTool, deleteUserTool, getUserTool, listUserTools, updateUserTool } from '@rhizome/core/automation';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** System tools (the built-in catalogue), user tools of the active database and their call statistics. */
export function mountToolRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const db = async () => (await platform.databases.current()).db;

  routes.add(api.systemList, ({ query }) =>
    systemTools
      .map(systemToolSummary)
      .filter((tool) => (query.category === undefined || tool.category === query.category) && (query.is_active === undefined || tool.is_active === query.is_active)),
  );
  routes.add(api.systemGet, ({ params }) => {
    const tool = findSystemTool(params.tool_id);
    if (!tool) throw ApiError.notFound('system tool', params.tool_id);
    return systemToolDetail(tool);
  });
  routes.add(api.stats, async ({ params }) => {
    const stats = await toolStats(await db(), params.tool_type, params.tool_id);
    if (!stats) throw ApiError.notFound(`${params.tool_type} tool statistics`, params.tool_id);
    return stats;
  });
  routes.add(api.list, async ({ query }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const { items, total } = await listUserTools(await db(), { systemToolId: query.system_tool_id, isActive: query.is_active }, { offset: window.offset, limit: window.pageSize });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body }) => createUserTool(await db(), body));
  routes.add(api.get, async ({ params }) => getUserTool(await db(), params.tool_id));
  routes.add(api.update, async ({ params, body }) => updateUserTool(await db(), params.tool_id, body));
  routes.add(api.remove, async ({ params }) => {
    await deleteUserTool(await db(), params.tool_id);
  });
}
