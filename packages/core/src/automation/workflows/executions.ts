import { NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { fromJson, now } from '../rows.ts';

export const executionStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ExecutionStatus = (typeof executionStatuses)[number];
export type StepRunStatus = 'running' | 'completed' | 'failed' | 'skipped' | 'cancelled';
export const finishedStatuses: readonly ExecutionStatus[] = ['completed', 'failed', 'cancelled'];

export interface ExecutionRow {
  id: string;
  workflow_id: string;
  task_id: string | null;
  /** Null for executions recorded before it was kept: `originOf` reads it from the trigger and parent. */
  triggered_by: string | null;
  trigger_id: string | null;
  parent_execution_id: string | null;
  depth: number;
  status: ExecutionStatus;
  inputs: string;
  outputs: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
}

export interface StepRunRow {
  step_id: string;
  step_number: number;
  name: string;
  tool_type: string;
  tool_id: string;
  status: StepRunStatus;
  input: string | null;
  output: string | null;
  error: string | null;
  attempts: number;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
}

/** A step run as the API shows it: input and output parsed. */
export type StepRun = Omit<StepRunRow, 'input' | 'output'> & { input: unknown; output: unknown };

/** Who starts an execution when the starter does not say: its trigger, the workflow it is nested in, or a person. */
function originOf(execution: { trigger_id?: string | null; parent_execution_id?: string | null }): string {
  if (execution.trigger_id) return 'trigger';
  return execution.parent_execution_id ? 'workflow' : 'manual';
}

/** An execution row with the steps read alongside it: the one running now and the one that failed it. */
type ListedExecutionRow = ExecutionRow & { current_step_id: string | null; failed_step_id: string | null };

function listedColumns(db: Db) {
  const stepWith = (status: StepRunStatus) =>
    `(SELECT r.step_id FROM workflow_step_runs r WHERE r.execution_id = workflow_executions.id AND r.status = '${status}' ORDER BY r.step_number, r.id LIMIT 1)`;
  return [
    'workflow_executions.*',
    db.raw(`${stepWith('running')} AS current_step_id`),
    db.raw(`CASE WHEN workflow_executions.status = 'failed' THEN ${stepWith('failed')} END AS failed_step_id`),
  ];
}

function toExecution(row: ListedExecutionRow) {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    task_id: row.task_id,
    triggered_by: row.triggered_by ?? originOf(row),
    trigger_id: row.trigger_id,
    parent_execution_id: row.parent_execution_id,
    depth: row.depth,
    status: row.status,
    inputs: fromJson<Record<string, unknown>>(row.inputs, {}),
    outputs: fromJson<Record<string, unknown> | null>(row.outputs, null),
    current_step_id: row.current_step_id,
    failed_step_id: row.failed_step_id,
    error: row.error,
    error_message: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    duration_ms: row.duration_ms,
  };
}

const stepRunColumns = [
  'step_id',
  'step_number',
  'name',
  'tool_type',
  'tool_id',
  'status',
  'input',
  'output',
  'error',
  'attempts',
  'started_at',
  'completed_at',
  'duration_ms',
] satisfies (keyof StepRunRow)[];

function toStepRun(row: StepRunRow): StepRun {
  return { ...row, input: fromJson(row.input, null), output: fromJson(row.output, null) };
}

/** A step run in the flat form beside `steps`; a run is recorded when it starts, so that is when it was created. */
function toStepExecution(executionId: string, row: StepRunRow & { id: number }) {
  return {
    id: String(row.id),
    execution_id: executionId,
    step_id: row.step_id,
    inputs: fromJson(row.input, null),
    outputs: fromJson(row.output, null),
    status: row.status,
    error_message: row.error,
    duration_ms: row.duration_ms,
    created_at: row.started_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
  };
}

export interface NewExecution {
  id: string;
  workflowId: string;
  inputs: Record<string, unknown>;
  /** Who started it; by default read from the trigger and parent (`originOf`). */
  triggeredBy?: string;
  triggerId?: string | null;
  parentExecutionId?: string | null;
  depth?: number;
  taskId?: string | null;
}

/** Inserts a queued execution; a trigger-started one is written by its task, so an id already there is left alone. */
export async function insertExecution(db: Db, execution: NewExecution): Promise<void> {
  await db('workflow_executions')
    .insert({
      id: execution.id,
      workflow_id: execution.workflowId,
      task_id: execution.taskId ?? null,
      triggered_by:
        execution.triggeredBy ??
        originOf({ trigger_id: execution.triggerId, parent_execution_id: execution.parentExecutionId }),
      trigger_id: execution.triggerId ?? null,
      parent_execution_id: execution.parentExecutionId ?? null,
      depth: execution.depth ?? 0,
      status: 'queued',
      inputs: JSON.stringify(execution.inputs),
      created_at: now(),
    })
    .onConflict('id')
    .ignore();
}

export async function findExecutionRow(db: Db, id: string): Promise<ExecutionRow | undefined> {
  return db('workflow_executions').where({ id }).first();
}

/** One execution as the API shows it; 404 when there is none (or, given `workflowId`, none of that workflow). */
export async function execution(db: Db, id: string, workflowId?: string) {
  const row = (await db('workflow_executions')
    .where({ id, ...(workflowId === undefined ? {} : { workflow_id: workflowId }) })
    .first(...listedColumns(db))) as ListedExecutionRow | undefined;
  if (!row) throw NotFound.resource('execution', id);
  return toExecution(row);
}

export async function executionDetail(db: Db, id: string, workflowId?: string) {
  const summary = await execution(db, id, workflowId);
  const steps = (await db('workflow_step_runs')
    .where({ execution_id: id })
    .select([...stepRunColumns, 'id'])
    .orderBy([{ column: 'step_number' }, { column: 'id' }])) as (StepRunRow & { id: number })[];
  const children = await db('workflow_executions').where({ parent_execution_id: id }).orderBy('created_at').pluck('id');
  return {
    ...summary,
    steps: steps.map(({ id: _id, ...run }) => toStepRun(run)),
    step_executions: steps.map((run) => toStepExecution(id, run)),
    child_execution_ids: children,
  };
}

export async function listExecutions(
  db: Db,
  filter: { workflowId?: string; status?: ExecutionStatus },
  window: { offset: number; limit: number },
) {
  const query = db('workflow_executions');
  if (filter.workflowId) query.where({ workflow_id: filter.workflowId });
  if (filter.status) query.where({ status: filter.status });
  const [{ n }] = await query.clone().count({ n: '*' });
  const rows = (await query
    .select(...listedColumns(db))
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset(window.offset)
    .limit(window.limit)) as ListedExecutionRow[];
  return { items: rows.map(toExecution), total: Number(n) };
}

/** Moves an execution on, only from one of the `from` states; false when it was elsewhere (e.g. cancelled meanwhile). */
export async function moveExecution(
  db: Db,
  id: string,
  from: readonly ExecutionStatus[],
  changes: Partial<ExecutionRow>,
): Promise<boolean> {
  return (await db('workflow_executions').where({ id }).whereIn('status', from).update(changes)) > 0;
}

export async function finishExecution(
  db: Db,
  row: Pick<ExecutionRow, 'id' | 'started_at'>,
  status: ExecutionStatus,
  outputs: Record<string, unknown> | null,
  error: string | null,
): Promise<boolean> {
  const at = now();
  const duration = row.started_at ? Date.parse(at) - Date.parse(row.started_at) : null;
  return moveExecution(db, row.id, ['queued', 'running'], {
    status,
    outputs: outputs === null ? null : JSON.stringify(outputs),
    error,
    completed_at: at,
    duration_ms: duration,
  });
}

export async function saveStepRun(db: Db, executionId: string, run: StepRun): Promise<void> {
  await db.transaction(async (trx) => {
    // A replacing import removes user workflows with their executions, also one whose step is still running:
    // its step has nowhere left to be recorded.
    if (!(await trx('workflow_executions').where({ id: executionId }).first('id'))) return;
    await trx('workflow_step_runs')
      .insert({
        execution_id: executionId,
        ...run,
        input: JSON.stringify(run.input ?? null),
        output: JSON.stringify(run.output ?? null),
      })
      .onConflict(['execution_id', 'step_id'])
      .merge();
  });
}

/** Executions by outcome: for GET /workflows/stats, the dashboard and one trigger's stats. */
export async function executionOutcomes(db: Db, where: { trigger_id?: string; workflow_id?: string } = {}) {
  const row = (await db('workflow_executions')
    .where(where)
    .whereNull('parent_execution_id')
    .first(
      db.raw('COUNT(*) AS total'),
      db.raw("COUNT(*) FILTER (WHERE status = 'completed') AS completed"),
      db.raw("COUNT(*) FILTER (WHERE status = 'failed') AS failed"),
      db.raw("COUNT(*) FILTER (WHERE status = 'cancelled') AS cancelled"),
      db.raw("COUNT(*) FILTER (WHERE status IN ('queued', 'running')) AS pending"),
      db.raw("AVG(CASE WHEN status IN ('completed', 'failed') THEN duration_ms END) AS average_ms"),
    )) as {
    total: number;
    completed: number;
    failed: number;
    cancelled: number;
    pending: number;
    average_ms: number | null;
  };
  return {
    total: row.total,
    completed: row.completed,
    failed: row.failed,
    cancelled: row.cancelled,
    pending: row.pending,
    successRate: successRate(row),
    averageMs: Math.round(row.average_ms ?? 0),
  };
}

/** The share of finished executions that completed, to four places; 0 before any finished. */
export function successRate(row: { completed: number; failed: number; cancelled: number }): number {
  const finished = row.completed + row.failed + row.cancelled;
  return finished ? Math.round((row.completed / finished) * 10_000) / 10_000 : 0;
}
