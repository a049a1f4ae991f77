import { Invalid, NotFound, Conflict } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import type { Automation } from '../automation.ts';
import { schemaProblems } from '../json-schema.ts';
import { newId, now } from '../rows.ts';
import {
  executionDetail,
  findExecutionRow,
  finishedStatuses,
  insertExecution,
  moveExecution,
  toExecution,
} from './executions.ts';
import { requireWorkflowRow, toWorkflow } from './repo.ts';

export interface StartOptions {
  /** The trigger fired from outside that starts this execution. */
  triggerId?: string;
  /** Where the inputs sit in the request, for the 422 that names them. */
  inputsLoc?: string[];
}

/**
 * POST /workflows/{id}/executions and POST /triggers/{id}/fire: checks the inputs against the
 * workflow's input_schema, records the execution as queued and queues it.
 */
export async function startExecution(
  db: Db,
  database: string,
  automation: Pick<Automation, 'run'>,
  workflowId: string,
  inputs: Record<string, unknown>,
  options: StartOptions = {},
) {
  const workflow = toWorkflow(await requireWorkflowRow(db, workflowId), 0);
  if (!workflow.is_active) throw new Conflict(`workflow '${workflowId}' is inactive`);
  const problems = schemaProblems(workflow.input_schema, inputs);
  if (problems.length) {
    const loc = options.inputsLoc ?? ['body', 'inputs'];
    throw new Invalid(
      problems.map((problem) => ({ loc, msg: problem, type: 'value_error' })),
      `inputs do not match the workflow's input_schema: ${problems.join('; ')}`,
    );
  }
  const id = newId('exec');
  const triggerId = options.triggerId ?? null;
  await insertExecution(db, { id, workflowId, inputs, triggerId });
  try {
    const task = await automation.run({
      database,
      execution_id: id,
      workflow_id: workflowId,
      inputs,
      trigger_id: triggerId,
    });
    await db('workflow_executions').where({ id }).update({ task_id: task.task_id });
    return {
      execution_id: id,
      task_id: task.task_id,
      status: 'queued' as const,
      message: `Workflow '${workflow.name}' queued`,
    };
  } catch (error) {
    await db('workflow_executions').where({ id }).delete();
    throw error;
  }
}

/**
 * Cancels a queued or running execution: it is recorded as cancelled at once and its task is cancelled;
 * a running engine notices (task signal or its own poll) and stops its steps cooperatively.
 */
export async function cancelExecution(db: Db, executionId: string, cancelTask: (taskId: string) => Promise<unknown>) {
  const row = await findExecutionRow(db, executionId);
  if (!row) throw NotFound.resource('execution', executionId);
  if (finishedStatuses.includes(row.status))
    throw new Conflict(`execution '${executionId}' already ${row.status}`, { status: row.status });
  const at = now();
  const duration = row.started_at ? Date.parse(at) - Date.parse(row.started_at) : null;
  if (
    !(await moveExecution(db, executionId, ['queued', 'running'], {
      status: 'cancelled',
      completed_at: at,
      duration_ms: duration,
      error: 'cancelled by request',
    }))
  ) {
    const current = await executionDetail(db, executionId);
    throw new Conflict(`execution '${executionId}' already ${current.status}`, { status: current.status });
  }
  if (row.task_id) await cancelTask(row.task_id);
  return toExecution((await findExecutionRow(db, executionId))!);
}
