import { triggerEndpoints as api } from '@rhizome/contracts/api/triggers';
import { automationModule } from '@rhizome/core/automation';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** Event triggers of the active database; every change reloads the dispatchers' cache. */
export function mountTriggerRoutes(routes: RouteTable, _deps: CortexDeps): void {
  routes.add(api.list, async ({ query, scope }) => {
    const window = pageWindow(query, { default_page_size: 50, max_page_size: 1000 });
    const filter = { eventSource: query.event_source, enabled: query.enabled };
    const { items, total } = await (
      await scope.service(automationModule)
    ).listTriggers(filter, { offset: window.offset, limit: window.pageSize });
    return { data: items, pagination: pagination(total, window) };
  });
  routes.add(api.get, async ({ params, scope }) => (await scope.service(automationModule)).trigger(params.trigger_id));
  routes.add(api.stats, async ({ params, scope }) =>
    (await scope.service(automationModule)).triggerStats(params.trigger_id),
  );
  routes.add(api.create, async ({ body, scope }) => (await scope.service(automationModule)).createTrigger(body));
  routes.add(api.update, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).updateTrigger(params.trigger_id, body),
  );
  routes.add(api.fire, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).fireTrigger(params.trigger_id, body),
  );
  routes.add(api.remove, async ({ params, scope }) =>
    (await scope.service(automationModule)).deleteTrigger(params.trigger_id),
  );
}
