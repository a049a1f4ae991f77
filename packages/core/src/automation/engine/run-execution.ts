import { conditionHolds } from '../conditions.ts';
import { schemaProblems } from '../json-schema.ts';
import { newId, now } from '../rows.ts';
import { ToolInputError } from '../tools/types.ts';
import {
  findExecutionRow,
  finishExecution,
  insertExecution,
  moveExecution,
  saveStepRun,
  type ExecutionRow,
  type ExecutionStatus,
  type StepRun,
  type StepRunStatus,
} from '../workflows/executions.ts';
import { interpolate, type InterpolationScope } from '../workflows/interpolation.ts';
import { findWorkflowRow, toWorkflow, workflowSteps } from '../workflows/repo.ts';
import type { Workflow, WorkflowStep } from '../workflows/types.ts';
import { sleep } from '../../providers/index.ts';
import { ExecutionCancelledError, messageOf } from './attempts.ts';
import { cancelPollMs, maxNestingDepth, type EngineContext } from './context.ts';
import { runStep, type StepRunner } from './run-step.ts';

export interface ExecutionResult {
  status: ExecutionStatus;
  outputs: Record<string, unknown> | null;
  error: string | null;
}

/**
 * Runs a queued execution to its end and records it: the workflow's steps as a DAG from `depends_on`
 * (a step starts once all its dependencies settled: fan-out and AND-joins), each step's condition and
 * configuration interpolated from the inputs and the outputs so far. A step that fails for good stops
 * the execution (nothing new starts, running steps finish, the rest is recorded as skipped) unless it
 * has `continue_on_error`. Cancellation (the task's signal, or a cancel recorded through the API) stops
 * it cooperatively; the workflow's `timeout_seconds` bounds the whole run.
 */
export async function runExecution(
  context: EngineContext,
  executionId: string,
  signal: AbortSignal,
): Promise<ExecutionResult> {
  const row = await findExecutionRow(context.db, executionId);
  if (!row) return { status: 'failed', outputs: null, error: `execution '${executionId}' not found` };
  if (row.status !== 'queued') return { status: row.status, outputs: null, error: row.error };
  const workflowRow = await findWorkflowRow(context.db, row.workflow_id);
  const refusal = !workflowRow
    ? `workflow '${row.workflow_id}' no longer exists`
    : !workflowRow.is_active
      ? `workflow '${row.workflow_id}' is inactive`
      : null;
  const workflow = workflowRow && toWorkflow(workflowRow);
  const inputs = JSON.parse(row.inputs) as Record<string, unknown>;
  const inputProblems = workflow ? schemaProblems(workflow.input_schema, inputs) : [];
  const early =
    refusal ??
    (inputProblems.length ? `inputs do not match the workflow's input_schema: ${inputProblems.join('; ')}` : null);
  if (early || !workflow) {
    await finishExecution(context.db, { id: row.id, started_at: null }, 'failed', null, early);
    return { status: 'failed', outputs: null, error: early };
  }

  const started = await claim(context, row, workflow, signal);
  if (!started) return { status: 'cancelled', outputs: null, error: null };
  const cancelled = new AbortController();
  const deadline = AbortSignal.timeout(workflow.timeout_seconds * 1000);
  const runSignal = AbortSignal.any([signal, cancelled.signal, deadline]);
  const poll = setInterval(() => {
    void findExecutionRow(context.db, row.id).then(
      (current) => {
        if (current?.status === 'cancelled') cancelled.abort();
      },
      () => undefined,
    );
  }, cancelPollMs);
  try {
    const outcome = await runGraph(
      context,
      { ...row, inputs: JSON.stringify(inputs) },
      workflow,
      await workflowSteps(context.db, workflow.id),
      runSignal,
    );
    const result: ExecutionResult =
      deadline.aborted && outcome.status !== 'completed'
        ? {
            status: 'failed',
            outputs: outcome.outputs,
            error: `the execution took longer than the workflow's ${workflow.timeout_seconds} s timeout`,
          }
        : outcome;
    await finishExecution(context.db, { id: row.id, started_at: started }, result.status, result.outputs, result.error);
    return result;
  } finally {
    clearInterval(poll);
  }
}

/**
 * Moves the execution to running; returns its start time, or null when it was cancelled meanwhile. A
 * workflow that disallows parallel executions waits here until no other top-level one of it runs.
 */
async function claim(
  context: EngineContext,
  row: ExecutionRow,
  workflow: Workflow,
  signal: AbortSignal,
): Promise<string | null> {
  for (;;) {
    const at = now();
    const claimed = await context.db.transaction(async (trx) => {
      if (!workflow.allow_parallel_execution && row.depth === 0) {
        const busy = await trx('workflow_executions')
          .where({ workflow_id: workflow.id, status: 'running', depth: 0 })
          .whereNot({ id: row.id })
          .first('id');
        if (busy) return 'wait';
      }
      return (await moveExecution(trx, row.id, ['queued'], { status: 'running', started_at: at })) ? 'started' : 'gone';
    });
    if (claimed === 'started') return at;
    if (claimed === 'gone') return null;
    try {
      await sleep(cancelPollMs, signal);
    } catch {
      await finishExecution(context.db, { id: row.id, started_at: null }, 'cancelled', null, null);
      return null;
    }
  }
}

interface StepState {
  status: 'pending' | StepRunStatus;
}

async function runGraph(
  context: EngineContext,
  row: ExecutionRow,
  workflow: Workflow,
  steps: WorkflowStep[],
  signal: AbortSignal,
): Promise<ExecutionResult> {
  const scope: InterpolationScope = { inputs: JSON.parse(row.inputs) as Record<string, unknown>, steps: {} };
  const states = new Map<string, StepState>(steps.map((step) => [step.id, { status: 'pending' }]));
  const running = new Map<string, Promise<void>>();
  let failure: string | null = null;
  const runner: StepRunner = {
    context,
    executionId: row.id,
    signal,
    maxRetries: workflow.max_retries,
    runWorkflow: (workflowId, inputs) => runNested(context, row, workflowId, inputs, signal),
  };
  const settled = (id: string) => !['pending', 'running'].includes(states.get(id)?.status ?? 'completed');
  const save = (step: WorkflowStep, run: Partial<StepRun> & { status: StepRunStatus }) => {
    states.get(step.id)!.status = run.status;
    return saveStepRun(context.db, row.id, {
      step_id: step.id,
      step_number: step.step_number,
      name: step.name,
      tool_type: step.tool_type,
      tool_id: step.tool_id,
      input: null,
      output: null,
      error: null,
      attempts: 0,
      started_at: null,
      completed_at: null,
      duration_ms: null,
      ...run,
    });
  };

  const launch = (step: WorkflowStep) => {
    const startedAt = now();
    const begun = performance.now();
    states.get(step.id)!.status = 'running';
    const finish = (run: Partial<StepRun> & { status: StepRunStatus }) => {
      scope.steps[step.id] = { output: run.output ?? null, status: run.status, error: run.error ?? null };
      return save(step, {
        started_at: startedAt,
        completed_at: now(),
        duration_ms: Math.round(performance.now() - begun),
        ...run,
      });
    };
    const work = (async () => {
      await save(step, { status: 'running', started_at: startedAt });
      if (step.condition !== null && !conditionHolds(interpolate(step.condition, scope)))
        return finish({ status: 'skipped', error: 'condition not met' });
      const configuration = interpolate(step.configuration, scope) as Record<string, unknown>;
      const outcome = await runStep(runner, step, configuration);
      if (!outcome.ok && !step.continue_on_error)
        failure ??= `step '${step.id}' (${step.name}) failed: ${outcome.error}`;
      await finish({
        status: outcome.ok ? 'completed' : 'failed',
        input: outcome.input,
        output: outcome.output,
        error: outcome.error,
        attempts: outcome.attempts,
      });
    })()
      .catch((error: unknown) =>
        finish({
          status: signal.aborted ? 'cancelled' : 'failed',
          error: signal.aborted ? 'cancelled' : messageOf(error),
        }),
      )
      .catch((error: unknown) => {
        context.logger.error(`execution ${row.id}: recording step '${step.id}': ${messageOf(error)}`);
      })
      .finally(() => running.delete(step.id));
    running.set(step.id, work);
  };

  for (;;) {
    if (!failure && !signal.aborted) {
      for (const step of steps)
        if (states.get(step.id)!.status === 'pending' && step.depends_on.every(settled)) launch(step);
    }
    if (!running.size) break;
    await Promise.race(running.values());
  }
  const leftOver = signal.aborted ? 'cancelled' : 'skipped';
  for (const step of steps) {
    if (states.get(step.id)!.status === 'pending')
      await save(step, { status: leftOver, error: failure ? 'not run: an earlier step failed' : 'not run' });
  }
  const outputs = leafOutputs(steps, scope);
  if (signal.aborted) return { status: 'cancelled', outputs, error: failure };
  return failure ? { status: 'failed', outputs, error: failure } : { status: 'completed', outputs, error: null };
}

/** The execution's outputs: those of the steps nothing depends on (the ends of the graph) that completed. */
function leafOutputs(steps: WorkflowStep[], scope: InterpolationScope): Record<string, unknown> {
  const dependedOn = new Set(steps.flatMap((step) => step.depends_on));
  return Object.fromEntries(
    steps
      .filter((step) => !dependedOn.has(step.id) && scope.steps[step.id]?.status === 'completed')
      .map((step) => [step.id, scope.steps[step.id].output]),
  );
}

/** A workflow run as a step (or by logic.loop): its own execution record, below the parent's. */
async function runNested(
  context: EngineContext,
  parent: ExecutionRow,
  workflowId: string,
  inputs: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  if (parent.depth + 1 > maxNestingDepth)
    throw new ToolInputError(`nested workflows may go at most ${maxNestingDepth} levels deep`);
  const id = newId('exec');
  await insertExecution(context.db, {
    id,
    workflowId,
    inputs,
    parentExecutionId: parent.id,
    depth: parent.depth + 1,
    triggerId: null,
  });
  const result = await runExecution(context, id, signal);
  if (signal.aborted) throw new ExecutionCancelledError();
  if (result.status !== 'completed')
    throw new Error(`nested workflow '${workflowId}' ${result.status}: ${result.error}`);
  return result.outputs ?? {};
}
