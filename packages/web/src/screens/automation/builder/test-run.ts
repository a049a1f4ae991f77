import { useState } from 'react';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { api } from '../../../lib/api.ts';
import { useEndpoint } from '../../../lib/data/use-endpoint.ts';
import type { ExecutionDetail } from '../automation-data.ts';

/** What one step did in the test run, shown on its node. */
export interface TestRunStep {
  status: string;
  output: unknown;
  error: string | null;
}

const finished = (execution: ExecutionDetail | undefined) =>
  execution !== undefined && !['queued', 'running'].includes(execution.status);

/**
 * A test run: the saved workflow run for real with sample inputs (marked `triggered_by: "test run"`), read
 * back while it runs so each step's output appears as soon as it has one.
 */
export function useTestRun(workflowId: string) {
  const [executionId, setExecutionId] = useState<string | null>(null);
  const execution = useEndpoint(
    workflowEndpoints.execution,
    executionId ? { params: { execution_id: executionId } } : null,
    { refreshMs: (data) => (finished(data) ? false : 1000), keepPrevious: false },
  );
  async function start(inputs: Record<string, unknown>) {
    const queued = await api.call(workflowEndpoints.run, {
      params: { workflow_id: workflowId },
      body: { inputs, triggered_by: 'test run' },
    });
    setExecutionId(queued.execution_id);
  }
  const steps = new Map<string, TestRunStep>(
    (execution.data?.steps ?? []).map((step) => [
      step.step_id,
      { status: step.status, output: step.output, error: step.error },
    ]),
  );
  return {
    execution: execution.data,
    steps,
    start,
    clear: () => setExecutionId(null),
    running: executionId !== null && !finished(execution.data),
  };
}
