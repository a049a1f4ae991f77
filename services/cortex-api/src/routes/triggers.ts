import { triggerEndpoints as api } from '@rhizome/contracts/api/triggers';
import { fireTrigger } from '@rhizome/core/automation';
import { executionOutcomes } from '@rhizome/core/automation';
import { createTrigger, deleteTrigger, listTriggers, requireTriggerRow, toTrigger, toTriggerSummary, updateTrigger } from '@rhizome/core/automation';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** Event triggers of the active database (spec Part C, Triggers); every change reloads the dispatchers' cache. */
export function mountTriggerRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const current = () => platform.databases.current();
  const changed = async <T>(name: string, result: T): Promise<T> => {
    await platform.automation.triggersChanged(name);
    return result;
  };

  routes.add(api.list, async ({ query }) => {
    const window = pageWindow(query, { default_page_size: 50, max_page_size: 1000 });
    const { rows, total } = await listTriggers((await current()).db, { eventSource: query.event_source, enabled: query.enabled }, { offset: window.offset, limit: window.pageSize });
    return { data: rows.map(toTriggerSummary), pagination: pagination(total, window) };
  });
  routes.add(api.get, async ({ params }) => toTrigger(await requireTriggerRow((await current()).db, params.trigger_id)));
  routes.add(api.stats, async ({ params }) => {
    const { db } = await current();
    await requireTriggerRow(db, params.trigger_id);
    const outcomes = await executionOutcomes(db, { trigger_id: params.trigger_id });
    const finished = outcomes.completed + outcomes.failed;
    return {
      total_executions: outcomes.total,
      successful_executions: outcomes.completed,
      failed_executions: outcomes.failed,
      success_rate: finished ? Math.round((outcomes.completed / finished) * 10_000) / 10_000 : 0,
      average_duration_ms: outcomes.averageMs,
    };
  });
  routes.add(api.create, async ({ body }) => {
    const { name, db } = await current();
    return changed(name, toTrigger(await createTrigger(db, body)));
  });
  routes.add(api.update, async ({ params, body }) => {
    const { name, db } = await current();
    return changed(name, toTrigger(await updateTrigger(db, params.trigger_id, body)));
  });
  routes.add(api.fire, async ({ params, body }) => {
    const { name, db } = await current();
    return fireTrigger(db, name, platform.automation, params.trigger_id, body);
  });
  routes.add(api.remove, async ({ params }) => {
    const { name, db } = await current();
    await deleteTrigger(db, params.trigger_id);
    await changed(name, undefined);
  });
}
