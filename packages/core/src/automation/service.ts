import { NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../storage/index.ts';
import type { Automation } from './automation.ts';
import { toolStats, type ToolType } from './tools/stats.ts';
import {
  createUserTool,
  deleteUserTool,
  getUserTool,
  listUserTools,
  updateUserTool,
  type UserToolInput,
  type UserToolPatch,
} from './tools/user-tools.ts';
import { fireTrigger } from './triggers/fire.ts';
import {
  createTrigger,
  deleteTrigger,
  listTriggers,
  requireTriggerRow,
  toTrigger,
  toTriggerSummary,
  updateTrigger,
  type TriggerInput,
  type TriggerPatch,
} from './triggers/repo.ts';
import type { WorkflowImportRequestBody } from '@rhizome/contracts/api/workflows';
import {
  duplicateWorkflow,
  exportWorkflowDocument,
  importedDefinition,
  importWorkflowDocument,
} from './workflows/copies.ts';
import { executionDetail, executionOutcomes, listExecutions, type ExecutionStatus } from './workflows/executions.ts';
import { importWorkflowDefinition } from './workflows/portable.ts';
import {
  listWorkflows,
  requireWorkflowRow,
  workflowDetail,
  workflowSteps,
  type WorkflowFilter,
} from './workflows/repo.ts';
import { cancelExecution, startRequestedExecution } from './workflows/run.ts';
import {
  addStep,
  createWorkflow,
  deleteStep,
  deleteWorkflow,
  reorderSteps,
  updateStep,
  updateWorkflow,
  workflowStep,
  type StepPatch,
} from './workflows/service.ts';
import { workflowExecutionStats, workflowStats } from './workflows/stats.ts';
import type { Workflow } from './workflows/types.ts';
import type { StepInput, WorkflowInput, WorkflowPatch } from './workflows/types.ts';

export interface AutomationServiceDeps {
  db: Db;
  database: string;
  /** The process-wide part: runs executions and tells every process when triggers changed. */
  automation: Pick<Automation, 'run' | 'triggersChanged'>;
  /** Cancels the queued or running task of an execution. */
  cancelTask(taskId: string): Promise<unknown>;
}

export interface Window {
  offset: number;
  limit: number;
}

/**
 * Workflows, their steps and executions, triggers and user tools of one database, as the API serves
 * them. Every change that can alter which triggers fire (a trigger, a workflow's activity or existence)
 * makes every process reload its cached triggers.
 */
export class AutomationService {
  constructor(private readonly deps: AutomationServiceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  private async triggersChanged<T>(result: T): Promise<T> {
    await this.deps.automation.triggersChanged(this.deps.database);
    return result;
  }

  /** A workflow as the API shows it: with the database it belongs to. */
  private located<T extends Workflow>(workflow: T): T & { database_name: string } {
    return { ...workflow, database_name: this.deps.database };
  }

  async listWorkflows(filter: WorkflowFilter, window: Window) {
    const { items, total } = await listWorkflows(this.db, filter, window);
    return { items: items.map((workflow) => this.located(workflow)), total };
  }

  async workflow(id: string) {
    return this.located(await workflowDetail(this.db, id));
  }

  async createWorkflow(input: WorkflowInput) {
    return this.located(await createWorkflow(this.db, input));
  }

  async updateWorkflow(id: string, patch: WorkflowPatch) {
    const workflow = this.located(await updateWorkflow(this.db, id, patch));
    // Triggers only fire for active workflows.
    return patch.is_active === undefined ? workflow : this.triggersChanged(workflow);
  }

  async deleteWorkflow(id: string): Promise<void> {
    await deleteWorkflow(this.db, id);
    await this.triggersChanged(undefined);
  }

  workflowStats() {
    return workflowStats(this.db);
  }

  workflowExecutionStats(id: string) {
    return workflowExecutionStats(this.db, id);
  }

  /** An exported document in `workflow_data`, or a rhizome.workflow definition. */
  async importWorkflow(body: WorkflowImportRequestBody | Record<string, unknown>) {
    const made =
      'workflow_data' in body
        ? await importWorkflowDocument(this.db, body as WorkflowImportRequestBody)
        : importedDefinition(await importWorkflowDefinition(this.db, body));
    return this.located(made);
  }

  async duplicateWorkflow(id: string) {
    return this.located(await duplicateWorkflow(this.db, id));
  }

  async exportWorkflow(id: string) {
    return { data: await exportWorkflowDocument(this.db, id), message: 'Workflow exported successfully' };
  }

  async steps(workflowId: string) {
    await requireWorkflowRow(this.db, workflowId);
    return workflowSteps(this.db, workflowId);
  }

  step(workflowId: string, stepId: string) {
    return workflowStep(this.db, workflowId, stepId);
  }

  reorderSteps(workflowId: string, stepOrder: string[]) {
    return reorderSteps(this.db, workflowId, stepOrder);
  }

  addStep(workflowId: string, input: StepInput) {
    return addStep(this.db, workflowId, input);
  }

  updateStep(workflowId: string, stepId: string, patch: StepPatch) {
    return updateStep(this.db, workflowId, stepId, patch);
  }

  deleteStep(workflowId: string, stepId: string) {
    return deleteStep(this.db, workflowId, stepId);
  }

  run(workflowId: string, request: { inputs: Record<string, unknown>; triggeredBy?: string }) {
    return startRequestedExecution(this.db, this.deps.database, this.deps.automation, workflowId, request);
  }

  /** Executions, newest first. */
  executions(filter: { workflowId?: string; status?: ExecutionStatus }, window: Window) {
    return listExecutions(this.db, filter, window);
  }

  /** One workflow's executions, newest first; 404 when the workflow does not exist. */
  async workflowExecutions(workflowId: string, status: ExecutionStatus | undefined, window: Window) {
    await requireWorkflowRow(this.db, workflowId);
    return listExecutions(this.db, { workflowId, status }, window);
  }

  /** One execution; given `workflowId`, 404 unless it is an execution of that workflow. */
  execution(id: string, workflowId?: string) {
    return executionDetail(this.db, id, workflowId);
  }

  cancelExecution(id: string, workflowId?: string) {
    return cancelExecution(this.db, id, this.deps.cancelTask, workflowId);
  }

  async workflowTriggers(workflowId: string) {
    await requireWorkflowRow(this.db, workflowId);
    const { rows } = await listTriggers(this.db, { workflowId }, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return rows.map(toTrigger);
  }

  async listTriggers(filter: { eventSource?: string; enabled?: boolean }, window: Window) {
    const { rows, total } = await listTriggers(this.db, filter, window);
    return { items: rows.map(toTriggerSummary), total };
  }

  async trigger(id: string) {
    return toTrigger(await requireTriggerRow(this.db, id));
  }

  async createTrigger(input: TriggerInput) {
    return this.triggersChanged(toTrigger(await createTrigger(this.db, input)));
  }

  async updateTrigger(id: string, patch: TriggerPatch) {
    return this.triggersChanged(toTrigger(await updateTrigger(this.db, id, patch)));
  }

  async deleteTrigger(id: string): Promise<void> {
    await deleteTrigger(this.db, id);
    await this.triggersChanged(undefined);
  }

  fireTrigger(id: string, payload: Record<string, unknown>) {
    return fireTrigger(this.db, this.deps.database, this.deps.automation, id, payload);
  }

  /** The executions a trigger started, by outcome; the success rate counts finished ones only. */
  async triggerStats(id: string) {
    await requireTriggerRow(this.db, id);
    const outcomes = await executionOutcomes(this.db, { trigger_id: id });
    const finished = outcomes.completed + outcomes.failed;
    return {
      total_executions: outcomes.total,
      successful_executions: outcomes.completed,
      failed_executions: outcomes.failed,
      success_rate: finished ? Math.round((outcomes.completed / finished) * 10_000) / 10_000 : 0,
      average_duration_ms: outcomes.averageMs,
    };
  }

  listUserTools(filter: { systemToolId?: string; isActive?: boolean }, window: Window) {
    return listUserTools(this.db, filter, window);
  }

  userTool(id: string) {
    return getUserTool(this.db, id);
  }

  createUserTool(input: UserToolInput) {
    return createUserTool(this.db, input);
  }

  updateUserTool(id: string, patch: UserToolPatch) {
    return updateUserTool(this.db, id, patch);
  }

  deleteUserTool(id: string) {
    return deleteUserTool(this.db, id);
  }

  /** A tool's call statistics; 404 when it was never called. */
  async toolStats(toolType: ToolType, toolId: string) {
    const stats = await toolStats(this.db, toolType, toolId);
    if (!stats) throw NotFound.resource(`${toolType} tool statistics`, toolId);
    return stats;
  }
}
