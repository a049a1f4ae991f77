import { NotFound } from '@rhizome/contracts/errors';
import { caselessLike, containingPattern, type Db } from '../../storage/index.ts';
import { bool, fromJson, now, toJson, type Flag } from '../rows.ts';
import type { StepInput, Workflow, WorkflowDetail, WorkflowStep, StepToolType } from './types.ts';

export interface WorkflowRow {
  id: string;
  name: string;
  description: string | null;
  category: string;
  is_system: Flag;
  is_active: Flag;
  expose_as_ai_tool: Flag;
  input_schema: string;
  output_schema: string | null;
  allow_parallel_execution: Flag;
  timeout_seconds: number;
  max_retries: number;
  tags: string | null;
  icon: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface StepRow {
  workflow_id: string;
  id: string;
  step_number: number;
  name: string;
  description: string | null;
  tool_type: string;
  tool_id: string;
  configuration: string;
  condition: string | null;
  retry_on_failure: Flag;
  timeout_seconds: number | null;
  depends_on: string;
  continue_on_error: Flag;
  thinking_mode: Flag;
  created_at: string;
  updated_at: string;
}

/** A workflow row with what is counted from other tables alongside it (0 and null where not read). */
export type ListedWorkflowRow = WorkflowRow & { step_count?: number; last_executed_at?: string | null };

export function toWorkflow(row: ListedWorkflowRow): Workflow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    is_system: bool(row.is_system),
    is_active: bool(row.is_active),
    expose_as_ai_tool: bool(row.expose_as_ai_tool),
    input_schema: fromJson(row.input_schema, {}),
    output_schema: fromJson(row.output_schema, null),
    allow_parallel_execution: bool(row.allow_parallel_execution),
    timeout_seconds: row.timeout_seconds,
    max_retries: row.max_retries,
    tags: fromJson(row.tags, null),
    icon: row.icon,
    version: String(row.version),
    created_by: null,
    step_count: Number(row.step_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_executed_at: row.last_executed_at ?? null,
  };
}

export function toStep(row: StepRow): WorkflowStep {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    step_number: row.step_number,
    name: row.name,
    description: row.description,
    tool_type: row.tool_type as StepToolType,
    tool_id: row.tool_id,
    configuration: fromJson(row.configuration, {}),
    condition: fromJson(row.condition, null),
    retry_on_failure: bool(row.retry_on_failure),
    timeout_seconds: row.timeout_seconds,
    depends_on: fromJson(row.depends_on, []),
    continue_on_error: bool(row.continue_on_error),
    thinking_mode: bool(row.thinking_mode),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A step as it will be stored: client input with its id and number settled and defaults filled. */
export function stepFromInput(
  workflowId: string,
  input: StepInput & { id: string; step_number: number },
  at: string,
  createdAt = at,
): WorkflowStep {
  return {
    id: input.id,
    workflow_id: workflowId,
    step_number: input.step_number,
    name: input.name,
    description: input.description ?? null,
    tool_type: input.tool_type,
    tool_id: input.tool_id,
    configuration: input.configuration ?? {},
    condition: input.condition ?? null,
    retry_on_failure: input.retry_on_failure ?? false,
    timeout_seconds: input.timeout_seconds ?? null,
    depends_on: [...new Set(input.depends_on ?? [])],
    continue_on_error: input.continue_on_error ?? false,
    thinking_mode: input.thinking_mode ?? false,
    created_at: createdAt,
    updated_at: at,
  };
}

export function toStepRow(step: WorkflowStep): StepRow {
  return {
    ...step,
    configuration: JSON.stringify(step.configuration),
    condition: toJson(step.condition),
    retry_on_failure: step.retry_on_failure ? 1 : 0,
    depends_on: JSON.stringify(step.depends_on),
    continue_on_error: step.continue_on_error ? 1 : 0,
    thinking_mode: step.thinking_mode ? 1 : 0,
  };
}

/**
 * Settles ids and numbers of new steps: an id the client gave is kept, else `step_<n>`; a step number
 * the client gave is kept, else the next after the highest so far.
 */
export function numberSteps(
  inputs: StepInput[],
  existing: WorkflowStep[] = [],
): (StepInput & { id: string; step_number: number })[] {
  const taken = new Set(existing.map((step) => step.id));
  for (const input of inputs) if (input.id) taken.add(input.id);
  let highest = Math.max(
    0,
    ...existing.map((step) => step.step_number),
    ...inputs.map((input) => input.step_number ?? 0),
  );
  return inputs.map((input) => {
    const stepNumber = input.step_number ?? ++highest;
    let id = input.id;
    for (let n = stepNumber; !id; n++) if (!taken.has(`step_${n}`)) id = `step_${n}`;
    taken.add(id);
    return { ...input, id, step_number: stepNumber };
  });
}

export async function findWorkflowRow(db: Db, id: string): Promise<WorkflowRow | undefined> {
  return db('workflows').where({ id }).first();
}

export async function requireWorkflowRow(db: Db, id: string): Promise<WorkflowRow> {
  const row = await findWorkflowRow(db, id);
  if (!row) throw NotFound.resource('workflow', id);
  return row;
}

export async function workflowSteps(db: Db, workflowId: string): Promise<WorkflowStep[]> {
  const rows = await db('workflow_steps')
    .where({ workflow_id: workflowId })
    .orderBy([{ column: 'step_number' }, { column: 'id' }]);
  return rows.map(toStep);
}

/** Every column of `workflows` plus its step count and the time it last started an execution. */
function listedColumns(db: Db) {
  return [
    'workflows.*',
    db.raw('(SELECT COUNT(*) FROM workflow_steps s WHERE s.workflow_id = workflows.id) AS step_count'),
    db.raw(
      '(SELECT MAX(e.created_at) FROM workflow_executions e WHERE e.workflow_id = workflows.id) AS last_executed_at',
    ),
  ];
}

export async function workflowDetail(db: Db, id: string): Promise<WorkflowDetail> {
  const row = (await db('workflows')
    .where({ id })
    .first(...listedColumns(db))) as ListedWorkflowRow | undefined;
  if (!row) throw NotFound.resource('workflow', id);
  return { ...toWorkflow(row), steps: await workflowSteps(db, id) };
}

export interface WorkflowFilter {
  category?: string;
  isActive?: boolean;
  isSystem?: boolean;
  exposeAsAiTool?: boolean;
  search?: string;
}

export async function listWorkflows(db: Db, filter: WorkflowFilter, window: { offset: number; limit: number }) {
  const query = db('workflows');
  if (filter.category !== undefined) query.where({ category: filter.category });
  if (filter.isActive !== undefined) query.where({ is_active: filter.isActive });
  if (filter.isSystem !== undefined) query.where({ is_system: filter.isSystem });
  if (filter.exposeAsAiTool !== undefined) query.where({ expose_as_ai_tool: filter.exposeAsAiTool });
  if (filter.search) query.where(caselessLike(db, 'name', containingPattern(filter.search)));
  const [{ n }] = await query.clone().count({ n: '*' });
  const rows = (await query
    .select(...listedColumns(db))
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
    .offset(window.offset)
    .limit(window.limit)) as ListedWorkflowRow[];
  return { items: rows.map(toWorkflow), total: Number(n) };
}

export async function insertSteps(db: Db, steps: WorkflowStep[]): Promise<void> {
  for (let start = 0; start < steps.length; start += 50)
    await db('workflow_steps').insert(steps.slice(start, start + 50).map(toStepRow));
}

/** Every change to a workflow's definition bumps its version. */
export async function touchWorkflow(db: Db, id: string): Promise<void> {
  await db('workflows')
    .where({ id })
    .update({ updated_at: now(), version: db.raw('version + 1') });
}
