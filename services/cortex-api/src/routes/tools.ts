import { NotFound } from '@rhizome/contracts/errors';
import { toolEndpoints as api } from '@rhizome/contracts/api/tools';
import {
  automationModule,
  findSystemTool,
  systemToolDetail,
  systemToolSummary,
  systemTools,
} from '@rhizome/core/automation';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** System tools (the built-in catalogue), user tools of the active database and their call statistics. */
export function mountToolRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.systemList, ({ query }) =>
    systemTools
      .map(systemToolSummary)
      .filter(
        (tool) =>
          (query.category === undefined || tool.category === query.category) &&
          (query.is_active === undefined || tool.is_active === query.is_active),
      ),
  );
  routes.add(api.systemGet, ({ params }) => {
    const tool = findSystemTool(params.tool_id);
    if (!tool) throw NotFound.resource('system tool', params.tool_id);
    return systemToolDetail(tool);
  });
  routes.add(api.stats, async ({ params, scope }) =>
    (await scope.service(automationModule)).toolStats(params.tool_type, params.tool_id),
  );
  routes.add(api.list, async ({ query, scope }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const filter = { systemToolId: query.system_tool_id, isActive: query.is_active };
    const { items, total } = await (
      await scope.service(automationModule)
    ).listUserTools(filter, { offset: window.offset, limit: window.pageSize });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body, scope }) => (await scope.service(automationModule)).createUserTool(body));
  routes.add(api.get, async ({ params, scope }) => (await scope.service(automationModule)).userTool(params.tool_id));
  routes.add(api.update, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).updateUserTool(params.tool_id, body),
  );
  routes.add(api.remove, async ({ params, scope }) =>
    (await scope.service(automationModule)).deleteUserTool(params.tool_id),
  );
}
