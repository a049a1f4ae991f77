import { BadInput, NotFound, Conflict } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { newId, now, toJson } from '../rows.ts';
import {
  insertSteps,
  numberSteps,
  requireWorkflowRow,
  stepFromInput,
  toStepRow,
  touchWorkflow,
  workflowDetail,
  workflowSteps,
  type WorkflowRow,
} from './repo.ts';
import {
  defaultWorkflowMaxRetries,
  defaultWorkflowTimeoutSeconds,
  emptyInputSchema,
  type StepInput,
  type WorkflowDetail,
  type WorkflowInput,
  type WorkflowPatch,
  type WorkflowStep,
} from './types.ts';
import { validateWorkflow } from './validation.ts';

/** Workflows and their steps: every change is validated as a whole step set before it is written. */

export async function createWorkflow(
  db: Db,
  input: WorkflowInput,
  options: { id?: string; isSystem?: boolean } = {},
): Promise<WorkflowDetail> {
  const id = options.id ?? newId('wf');
  const at = now();
  const inputSchema = input.input_schema ?? emptyInputSchema;
  const steps = numberSteps(input.steps ?? []).map((step) => stepFromInput(id, step, at));
  await db.transaction(async (trx) => {
    await validateWorkflow(trx, id, inputSchema, steps);
    const row: WorkflowRow = {
      id,
      name: input.name,
      description: input.description ?? null,
      category: input.category ?? 'general',
      is_system: options.isSystem ? 1 : 0,
      is_active: input.is_active === false ? 0 : 1,
      expose_as_ai_tool: input.expose_as_ai_tool ? 1 : 0,
      input_schema: JSON.stringify(inputSchema),
      output_schema: toJson(input.output_schema),
      allow_parallel_execution: input.allow_parallel_execution === false ? 0 : 1,
      timeout_seconds: input.timeout_seconds ?? defaultWorkflowTimeoutSeconds,
      max_retries: input.max_retries ?? defaultWorkflowMaxRetries,
      tags: toJson(input.tags),
      icon: input.icon ?? null,
      version: 1,
      created_at: at,
      updated_at: at,
    };
    await trx('workflows').insert(row);
    await insertSteps(trx, steps);
  });
  return workflowDetail(db, id);
}

/** System workflows keep their definition: only switching them on and off is allowed. */
function refuseSystemChange(row: WorkflowRow, what: string): void {
  if (row.is_system) throw BadInput.field(`workflow '${row.id}' is a system workflow: ${what}`);
}

export async function updateWorkflow(db: Db, id: string, patch: WorkflowPatch): Promise<WorkflowDetail> {
  await db.transaction(async (trx) => {
    const row = await requireWorkflowRow(trx, id);
    const changed = Object.keys(patch).filter((key) => patch[key as keyof WorkflowPatch] !== undefined);
    if (changed.some((key) => key !== 'is_active')) refuseSystemChange(row, 'only is_active can be changed');
    if (patch.input_schema !== undefined)
      await validateWorkflow(trx, id, patch.input_schema, await workflowSteps(trx, id));
    const changes: Partial<WorkflowRow> = {};
    const copy = <K extends keyof WorkflowPatch>(
      key: K,
      store: (value: NonNullable<WorkflowPatch[K]> | null) => unknown,
    ) => {
      if (patch[key] !== undefined) (changes as Record<string, unknown>)[key] = store(patch[key] ?? null);
    };
    const flag = (value: boolean | null) => (value ? 1 : 0);
    copy('name', (value) => value);
    copy('description', (value) => value);
    copy('category', (value) => value);
    copy('is_active', flag);
    copy('expose_as_ai_tool', flag);
    copy('input_schema', (value) => JSON.stringify(value));
    copy('output_schema', toJson);
    copy('allow_parallel_execution', flag);
    copy('timeout_seconds', (value) => value);
    copy('max_retries', (value) => value);
    copy('tags', toJson);
    copy('icon', (value) => value);
    if (Object.keys(changes).length) await trx('workflows').where({ id }).update(changes);
    await touchWorkflow(trx, id);
  });
  return workflowDetail(db, id);
}

/** Deletes the workflow with its steps, executions and triggers; refused while another workflow runs it as a step. */
export async function deleteWorkflow(db: Db, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    refuseSystemChange(await requireWorkflowRow(trx, id), 'it cannot be deleted (disable it instead)');
    const users = await trx('workflow_steps').where({ tool_type: 'workflow', tool_id: id }).distinct('workflow_id');
    if (users.length) {
      throw new Conflict(
        `workflow '${id}' runs as a step of ${users.map((user) => `'${user.workflow_id}'`).join(', ')}`,
        { workflow_ids: users.map((user) => user.workflow_id) },
      );
    }
    await trx('workflows').where({ id }).delete();
  });
}

export async function addStep(db: Db, workflowId: string, input: StepInput): Promise<WorkflowStep> {
  return db.transaction(async (trx) => {
    const row = await requireWorkflowRow(trx, workflowId);
    refuseSystemChange(row, 'its steps cannot be changed');
    const existing = await workflowSteps(trx, workflowId);
    if (input.id && existing.some((step) => step.id === input.id))
      throw new Conflict(`step '${input.id}' already exists in workflow '${workflowId}'`);
    const [numbered] = numberSteps([input], existing);
    const step = stepFromInput(workflowId, numbered, now());
    await validateWorkflow(trx, workflowId, JSON.parse(row.input_schema) as Record<string, unknown>, [
      ...existing,
      step,
    ]);
    await insertSteps(trx, [step]);
    await touchWorkflow(trx, workflowId);
    return step;
  });
}

export type StepPatch = Partial<Omit<StepInput, 'id'>>;

export async function updateStep(db: Db, workflowId: string, stepId: string, patch: StepPatch): Promise<WorkflowStep> {
  return db.transaction(async (trx) => {
    const row = await requireWorkflowRow(trx, workflowId);
    const existing = await workflowSteps(trx, workflowId);
    const current = existing.find((step) => step.id === stepId);
    if (!current) throw NotFound.resource('step', stepId);
    refuseSystemChange(row, 'its steps cannot be changed');
    const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const next = stepFromInput(workflowId, { ...current, ...defined }, now(), current.created_at);
    await validateWorkflow(
      trx,
      workflowId,
      JSON.parse(row.input_schema) as Record<string, unknown>,
      existing.map((step) => (step.id === stepId ? next : step)),
    );
    const { workflow_id: _workflow, id: _id, created_at: _created, ...changes } = toStepRow(next);
    await trx('workflow_steps').where({ workflow_id: workflowId, id: stepId }).update(changes);
    await touchWorkflow(trx, workflowId);
    return next;
  });
}

/** Deleting a step other steps depend on or reference is refused (422 naming them): the rest must stay valid. */
export async function deleteStep(db: Db, workflowId: string, stepId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await requireWorkflowRow(trx, workflowId);
    const existing = await workflowSteps(trx, workflowId);
    if (!existing.some((step) => step.id === stepId)) throw NotFound.resource('step', stepId);
    refuseSystemChange(row, 'its steps cannot be changed');
    await validateWorkflow(
      trx,
      workflowId,
      JSON.parse(row.input_schema) as Record<string, unknown>,
      existing.filter((step) => step.id !== stepId),
    );
    await trx('workflow_steps').where({ workflow_id: workflowId, id: stepId }).delete();
    await touchWorkflow(trx, workflowId);
  });
}

/**
 * Renumbers the steps 1, 2, … in the order of `stepOrder`; steps it leaves out follow in their current
 * order. The numbers only order display and the start among ready steps, so the set stays valid.
 */
export async function reorderSteps(db: Db, workflowId: string, stepOrder: string[]): Promise<WorkflowStep[]> {
  return db.transaction(async (trx) => {
    refuseSystemChange(await requireWorkflowRow(trx, workflowId), 'its steps cannot be changed');
    const existing = await workflowSteps(trx, workflowId);
    const known = new Set(existing.map((step) => step.id));
    const unknown = stepOrder.filter((id) => !known.has(id));
    if (unknown.length)
      throw new BadInput(`workflow '${workflowId}' has no step ${unknown.map((id) => `'${id}'`).join(', ')}`, {
        field: 'step_order',
        step_ids: unknown,
      });
    const order = [...stepOrder, ...existing.map((step) => step.id).filter((id) => !stepOrder.includes(id))];
    const at = now();
    for (const [index, id] of order.entries())
      await trx('workflow_steps')
        .where({ workflow_id: workflowId, id })
        .update({ step_number: index + 1, updated_at: at });
    await touchWorkflow(trx, workflowId);
    return workflowSteps(trx, workflowId);
  });
}

export async function workflowStep(db: Db, workflowId: string, stepId: string): Promise<WorkflowStep> {
  await requireWorkflowRow(db, workflowId);
  const step = (await workflowSteps(db, workflowId)).find((candidate) => candidate.id === stepId);
  if (!step) throw NotFound.resource('step', stepId);
  return step;
}
