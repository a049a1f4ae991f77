import type { QueueService } from '@rhizome/queue';

export const executeWorkflowOperation = 'automation.execute_workflow';

/** What a task carries: the execution to run; a trigger-started one is written by the task itself. */
export interface ExecutionTaskData {
  database: string;
  execution_id: string;
  workflow_id: string;
  inputs: Record<string, unknown>;
  trigger_id: string | null;
}

/** Queues an execution at `priority` (0-100, higher first). */
export function submitExecution(queue: QueueService, data: ExecutionTaskData, priority: number) {
  return queue.submit({
    queue: 'operations',
    operation: executeWorkflowOperation,
    data: { ...data },
    priority,
    metadata: { database: data.database, execution_id: data.execution_id },
  });
}
