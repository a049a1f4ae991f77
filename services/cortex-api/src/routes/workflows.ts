import { workflowEndpoints as api } from '@rhizome/contracts/api/workflows';
import { listTriggers, toTrigger } from '@rhizome/core/automation';
import { executionDetail, listExecutions, type ExecutionStatus } from '@rhizome/core/automation';
import { exportWorkflowDefinition, importWorkflowDefinition } from '@rhizome/core/automation';
import { listWorkflows, requireWorkflowRow, workflowDetail, workflowSteps } from '@rhizome/core/automation';
import { cancelExecution, startExecution } from '@rhizome/core/automation';
import { addStep, createWorkflow, deleteStep, deleteWorkflow, updateStep, updateWorkflow } from '@rhizome/core/automation';
import { workflowStats } from '@rhizome/core/automation';
import type { Db } from '@rhizome/core/storage';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** Workflows, their steps and executions in the active database. */
export function mountWorkflowRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const current = () => platform.databases.current();
  const db = async () => (await current()).db;
  const window = (query: { page?: number; page_size?: number }) => pageWindow(query, platform.settings.get().pagination);

  routes.add(api.list, async ({ query }) => {
    const page = window(query);
    const filter = { category: query.category, isActive: query.is_active, isSystem: query.is_system, search: query.search };
    const { items, total } = await listWorkflows(await db(), filter, { offset: page.offset, limit: page.pageSize });
    return { data: items, pagination: pagination(total, page) };
  });
  routes.add(api.create, async ({ body }) => createWorkflow(await db(), body));
  routes.add(api.stats, async () => workflowStats(await db()));
  routes.add(api.import, async ({ body }) => importWorkflowDefinition(await db(), body));
  const executionsPage = async (database: Db, filter: { workflowId?: string; status?: ExecutionStatus }, query: { page?: number; page_size?: number }) => {
    const page = window(query);
    const { items, total } = await listExecutions(database, filter, { offset: page.offset, limit: page.pageSize });
    return { data: items, pagination: pagination(total, page) };
  };

  routes.add(api.allExecutions, async ({ query }) => executionsPage(await db(), { workflowId: query.workflow_id, status: query.status }, query));
  routes.add(api.execution, async ({ params }) => executionDetail(await db(), params.execution_id));
  routes.add(api.cancelExecution, async ({ params }) => cancelExecution(await db(), params.execution_id, (taskId) => platform.tasks.cancel(taskId, Date.now())));
  routes.add(api.get, async ({ params }) => workflowDetail(await db(), params.workflow_id));
  routes.add(api.update, async ({ params, body }) => {
    const { name, db } = await current();
    const workflow = await updateWorkflow(db, params.workflow_id, body);
    // Triggers only fire for active workflows.
    if (body.is_active !== undefined) await platform.automation.triggersChanged(name);
    return workflow;
  });
  routes.add(api.remove, async ({ params }) => {
    const { name, db } = await current();
    await deleteWorkflow(db, params.workflow_id);
    await platform.automation.triggersChanged(name);
  });
  routes.add(api.steps, async ({ params }) => {
    const database = await db();
    await requireWorkflowRow(database, params.workflow_id);
    return workflowSteps(database, params.workflow_id);
  });
  routes.add(api.addStep, async ({ params, body }) => addStep(await db(), params.workflow_id, body));
  routes.add(api.updateStep, async ({ params, body }) => updateStep(await db(), params.workflow_id, params.step_id, body));
  routes.add(api.removeStep, async ({ params }) => {
    await deleteStep(await db(), params.workflow_id, params.step_id);
  });
  routes.add(api.run, async ({ params, body }) => {
    const { name, db } = await current();
    return startExecution(db, name, platform.automation, params.workflow_id, body.inputs ?? {});
  });
  routes.add(api.executions, async ({ params, query }) => {
    const database = await db();
    await requireWorkflowRow(database, params.workflow_id);
    return executionsPage(database, { workflowId: params.workflow_id, status: query.status }, query);
  });
  routes.add(api.export, async ({ params }) => exportWorkflowDefinition(await db(), params.workflow_id));
  routes.add(api.triggers, async ({ params }) => {
    const database = await db();
    await requireWorkflowRow(database, params.workflow_id);
    return (await listTriggers(database, { workflowId: params.workflow_id }, { offset: 0, limit: Number.MAX_SAFE_INTEGER })).rows.map(toTrigger);
  });
}
