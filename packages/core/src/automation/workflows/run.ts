import { BadInput, Conflict, Invalid, NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import type { Automation } from '../automation.ts';
import { schemaProblems } from '../json-schema.ts';
import { newId, now } from '../rows.ts';
import { execution, findExecutionRow, finishedStatuses, insertExecution, moveExecution } from './executions.ts';
import { requireWorkflowRow, toWorkflow } from './repo.ts';

export interface StartOptions {
  /** The trigger fired from outside that starts this execution. */
  triggerId?: string;
  /** Who starts it, as the starter names itself ("manual" by default, "trigger" for a trigger). */
  triggeredBy?: string;
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
  const workflow = toWorkflow(await requireWorkflowRow(db, workflowId));
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
  await insertExecution(db, { id, workflowId, inputs, triggerId, triggeredBy: options.triggeredBy });
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
 * POST /workflows/{id}/executions: as `startExecution`, but an inactive workflow is a 400, and a workflow
 * that allows no parallel executions is a 409 while one of its executions is queued or running.
 */
export async function startRequestedExecution(
  db: Db,
  database: string,
  automation: Pick<Automation, 'run'>,
  workflowId: string,
  request: { inputs: Record<string, unknown>; triggeredBy?: string },
) {
  const workflow = toWorkflow(await requireWorkflowRow(db, workflowId));
  if (!workflow.is_active) throw BadInput.field(`workflow '${workflowId}' is inactive`);
  if (!workflow.allow_parallel_execution) {
    const active = await db('workflow_executions')
      .where({ workflow_id: workflowId })
      .whereIn('status', ['queued', 'running'])
      .first('id');
    if (active)
      throw new Conflict(`workflow '${workflowId}' is already running and allows no parallel executions`, {
        execution_id: active.id,
      });
  }
  return startExecution(db, database, automation, workflowId, request.inputs, {
    triggeredBy: request.triggeredBy ?? 'manual',
  });
}

/**
 * Cancels a queued or running execution: it is recorded as cancelled at once and its task is cancelled;
 * a running engine notices (task signal or its own poll) and stops its steps cooperatively.
 */
export async function cancelExecution(
  db: Db,
  executionId: string,
  cancelTask: (taskId: string) => Promise<unknown>,
  workflowId?: string,
) {
  const row = await findExecutionRow(db, executionId);
  if (!row || (workflowId !== undefined && row.workflow_id !== workflowId))
    throw NotFound.resource('execution', executionId);
  const alreadyFinished = (status: string) => new BadInput(`execution '${executionId}' already ${status}`, { status });
  if (finishedStatuses.includes(row.status)) throw alreadyFinished(row.status);
  const at = now();
  const duration = row.started_at ? Date.parse(at) - Date.parse(row.started_at) : null;
  if (
    !(await moveExecution(db, executionId, ['queued', 'running'], {
      status: 'cancelled',
      completed_at: at,
      duration_ms: duration,
      error: 'cancelled by request',
    }))
  )
    throw alreadyFinished((await execution(db, executionId)).status);
  if (row.task_id) await cancelTask(row.task_id);
  return {
    success: true as const,
    execution_id: executionId,
    message: `Execution '${executionId}' cancelled`,
    ...(await execution(db, executionId)),
  };
}
