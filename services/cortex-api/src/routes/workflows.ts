import { workflowEndpoints as api } from '@rhizome/contracts/api/workflows';
import { automationModule } from '@rhizome/core/automation';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** Workflows, their steps and executions in the active database. */
/** `pending`, as older clients name it, is `queued` here. */
const executionStatus = <T extends string>(status: T | 'pending' | undefined) =>
  status === 'pending' ? 'queued' : status;

export function mountWorkflowRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const window = (query: { page?: number; page_size?: number }) =>
    pageWindow(query, platform.settings.get().pagination);
  const page = async <T>(
    query: { page?: number; page_size?: number },
    list: (window: { offset: number; limit: number }) => Promise<{ items: T[]; total: number }>,
  ) => {
    const at = window(query);
    const { items, total } = await list({ offset: at.offset, limit: at.pageSize });
    return { data: items, pagination: pagination(total, at) };
  };

  routes.add(api.list, async ({ query, scope }) => {
    const automation = await scope.service(automationModule);
    const filter = {
      category: query.category,
      isActive: query.is_active,
      isSystem: query.is_system,
      exposeAsAiTool: query.expose_as_ai_tool,
      search: query.search,
    };
    return page(query, (at) => automation.listWorkflows(filter, at));
  });
  routes.add(api.create, async ({ body, scope }) => (await scope.service(automationModule)).createWorkflow(body));
  routes.add(api.stats, async ({ scope }) => (await scope.service(automationModule)).workflowStats());
  routes.add(api.import, async ({ body, scope }) => (await scope.service(automationModule)).importWorkflow(body));
  routes.add(api.allExecutions, async ({ query, scope }) => {
    const automation = await scope.service(automationModule);
    return page(query, (at) =>
      automation.executions({ workflowId: query.workflow_id, status: executionStatus(query.status) }, at),
    );
  });
  routes.add(api.execution, async ({ params, scope }) =>
    (await scope.service(automationModule)).execution(params.execution_id),
  );
  routes.add(api.cancelExecution, async ({ params, scope }) =>
    (await scope.service(automationModule)).cancelExecution(params.execution_id),
  );
  routes.add(api.get, async ({ params, scope }) =>
    (await scope.service(automationModule)).workflow(params.workflow_id),
  );
  routes.add(api.update, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).updateWorkflow(params.workflow_id, body),
  );
  routes.add(api.remove, async ({ params, scope }) =>
    (await scope.service(automationModule)).deleteWorkflow(params.workflow_id),
  );
  routes.add(api.duplicate, async ({ params, scope }) =>
    (await scope.service(automationModule)).duplicateWorkflow(params.workflow_id),
  );
  routes.add(api.workflowStats, async ({ params, scope }) =>
    (await scope.service(automationModule)).workflowExecutionStats(params.workflow_id),
  );
  routes.add(api.steps, async ({ params, scope }) => (await scope.service(automationModule)).steps(params.workflow_id));
  routes.add(api.reorderSteps, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).reorderSteps(params.workflow_id, body.step_order),
  );
  routes.add(api.step, async ({ params, scope }) =>
    (await scope.service(automationModule)).step(params.workflow_id, params.step_id),
  );
  routes.add(api.addStep, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).addStep(params.workflow_id, body),
  );
  routes.add(api.updateStep, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).updateStep(params.workflow_id, params.step_id, body),
  );
  routes.add(api.removeStep, async ({ params, scope }) =>
    (await scope.service(automationModule)).deleteStep(params.workflow_id, params.step_id),
  );
  routes.add(api.run, async ({ params, body, scope }) =>
    (await scope.service(automationModule)).run(params.workflow_id, {
      inputs: body.inputs ?? {},
      triggeredBy: body.triggered_by,
    }),
  );
  routes.add(api.workflowExecution, async ({ params, scope }) =>
    (await scope.service(automationModule)).execution(params.execution_id, params.workflow_id),
  );
  routes.add(api.cancelWorkflowExecution, async ({ params, scope }) =>
    (await scope.service(automationModule)).cancelExecution(params.execution_id, params.workflow_id),
  );
  routes.add(api.executions, async ({ params, query, scope }) => {
    const automation = await scope.service(automationModule);
    return page(query, (at) => automation.workflowExecutions(params.workflow_id, executionStatus(query.status), at));
  });
  routes.add(api.export, async ({ params, scope }) =>
    (await scope.service(automationModule)).exportWorkflow(params.workflow_id),
  );
  routes.add(api.triggers, async ({ params, scope }) =>
    (await scope.service(automationModule)).workflowTriggers(params.workflow_id),
  );
}
