import { schemaProblems } from '../json-schema.ts';
import { findSystemTool } from '../tools/catalogue.ts';
import { recordToolCalls, type ToolCall } from '../tools/stats.ts';
import { ToolInputError, type SystemToolDefinition, type ToolContext } from '../tools/types.ts';
import { findUserToolRow } from '../tools/user-tools.ts';
import { fromJson } from '../rows.ts';
import type { WorkflowStep } from '../workflows/types.ts';
import { sleep } from '../../providers/index.ts';
import { attemptWithin, isRetryable, messageOf, retryDelayMs } from './attempts.ts';
import type { EngineContext } from './context.ts';

export interface StepOutcome {
  ok: boolean;
  output: unknown;
  error: string | null;
  attempts: number;
  /** The configuration the tool ran with, after interpolation and merging. */
  input: unknown;
}

export interface StepRunner {
  context: EngineContext;
  executionId: string;
  signal: AbortSignal;
  maxRetries: number;
  runWorkflow(workflowId: string, inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A step's callable: the tool with its final input, or a nested workflow. */
interface Callable {
  input: Record<string, unknown>;
  calls: Omit<ToolCall, 'success' | 'durationMs' | 'error'>[];
  invoke(signal: AbortSignal): Promise<unknown>;
}

/**
 * Runs one step with its resolved configuration: retried (1 s, ×2, ≤ 30 s) up to the workflow's
 * `max_retries` when `retry_on_failure`, each attempt under the step's timeout; bad input is not retried.
 * Every attempt of a tool is recorded as a tool call.
 */
export async function runStep(
  runner: StepRunner,
  step: WorkflowStep,
  configuration: Record<string, unknown>,
): Promise<StepOutcome> {
  let callable: Callable;
  try {
    callable = await resolveCallable(runner, step, configuration);
  } catch (error) {
    return { ok: false, output: null, error: messageOf(error), attempts: 0, input: configuration };
  }
  const tries = step.retry_on_failure ? 1 + runner.maxRetries : 1;
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    try {
      const output = await attemptWithin((signal) => callable.invoke(signal), step.timeout_seconds, runner.signal);
      await record(runner, callable, { success: true, durationMs: performance.now() - started, error: null });
      return { ok: true, output, error: null, attempts: attempt, input: callable.input };
    } catch (error) {
      const message = messageOf(error);
      await record(runner, callable, { success: false, durationMs: performance.now() - started, error: message });
      if (runner.signal.aborted) throw error;
      if (attempt >= tries || !isRetryable(error))
        return { ok: false, output: null, error: message, attempts: attempt, input: callable.input };
      runner.context.logger.warning(
        `execution ${runner.executionId}: step '${step.id}' attempt ${attempt} failed (${message}); retrying`,
      );
      await sleep(retryDelayMs(attempt), runner.signal);
    }
  }
}

async function record(
  runner: StepRunner,
  callable: Callable,
  result: Pick<ToolCall, 'success' | 'durationMs' | 'error'>,
): Promise<void> {
  await recordToolCalls(
    runner.context.db,
    callable.calls.map((call) => ({ ...call, ...result })),
  ).catch((error: unknown) => runner.context.logger.warning(`tool statistics: ${messageOf(error)}`));
}

async function resolveCallable(
  runner: StepRunner,
  step: WorkflowStep,
  configuration: Record<string, unknown>,
): Promise<Callable> {
  const executionId = runner.executionId;
  if (step.tool_type === 'workflow') {
    return { input: configuration, calls: [], invoke: () => runner.runWorkflow(step.tool_id, configuration) };
  }
  if (step.tool_type === 'system_tool') {
    const tool = findSystemTool(step.tool_id);
    if (!tool) throw new ToolInputError(`unknown system tool '${step.tool_id}'`);
    return toolCallable(runner, step, tool, configuration, [{ toolType: 'system', toolId: tool.id, executionId }]);
  }
  const userTool = await findUserToolRow(runner.context.db, step.tool_id);
  if (!userTool) throw new ToolInputError(`unknown user tool '${step.tool_id}'`);
  if (!userTool.is_active) throw new ToolInputError(`user tool '${step.tool_id}' is inactive`);
  const tool = findSystemTool(userTool.system_tool_id);
  if (!tool)
    throw new ToolInputError(`user tool '${step.tool_id}' wraps unknown system tool '${userTool.system_tool_id}'`);
  const merged = { ...fromJson<Record<string, unknown>>(userTool.configuration, {}), ...configuration };
  return toolCallable(runner, step, tool, merged, [
    { toolType: 'user', toolId: userTool.id, executionId },
    { toolType: 'system', toolId: tool.id, executionId },
  ]);
}

function toolCallable(
  runner: StepRunner,
  step: WorkflowStep,
  tool: SystemToolDefinition,
  configuration: Record<string, unknown>,
  calls: Callable['calls'],
): Callable {
  const input = structuredClone(configuration);
  const problems = schemaProblems(tool.inputSchema, input);
  if (problems.length)
    throw new ToolInputError(`input does not match ${tool.id}'s input schema: ${problems.join('; ')}`);
  return {
    input,
    calls,
    invoke: (signal) => {
      const { db, database, settings, llm, embeddings, nodeVectors } = runner.context;
      const context: ToolContext = {
        db,
        database,
        settings,
        llm,
        embeddings,
        nodeVectors,
        signal,
        executionId: runner.executionId,
        runWorkflow: runner.runWorkflow,
        thinking: step.thinking_mode,
      };
      return tool.run(structuredClone(input), context);
    },
  };
}
