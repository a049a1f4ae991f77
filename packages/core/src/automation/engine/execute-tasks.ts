import type { Settings } from '@rhizome/contracts/settings';
import type { TaskRegistrar } from '../../module/index.ts';
import { taskDatabaseFor } from '../../databases/index.ts';
import type { DatabaseManager } from '../../databases/index.ts';
import type { EmbeddingService } from '../../providers/index.ts';
import type { LlmService } from '../../providers/index.ts';
import type { VectorSink } from '../../search/index.ts';
import { findExecutionRow, insertExecution } from '../workflows/executions.ts';
import { findWorkflowRow } from '../workflows/repo.ts';
import { executeWorkflowOperation, type ExecutionTaskData } from './operation.ts';
import { runExecution } from './run-execution.ts';

export interface AutomationOperationDeps {
  databases: DatabaseManager;
  settings(): Settings;
  llm: LlmService;
  embeddings: EmbeddingService;
  nodeVectors(database: string): VectorSink;
}

/**
 * `automation.execute_workflow` on the operations lane. The engine owns step retries, so the task is
 * not retried; a task restarted after a worker crash finds its execution running and starts it over.
 */
export function defineAutomationOperations(registry: TaskRegistrar, deps: AutomationOperationDeps): void {
  registry.define(
    executeWorkflowOperation,
    { queue: 'operations', retryOnTransient: false },
    async ({ task, signal, logger }) => {
      const data = task.data as unknown as ExecutionTaskData;
      const { name, db } = await taskDatabaseFor(deps.databases, data.database);
      // Queued before its workflow went (deleted, or replaced by an import without it): nothing to run.
      if (!(await findWorkflowRow(db, data.workflow_id))) {
        logger.info(`execution ${data.execution_id}: workflow '${data.workflow_id}' no longer exists, nothing run`);
        return {
          execution_id: data.execution_id,
          status: 'skipped',
          error: `workflow '${data.workflow_id}' no longer exists`,
        };
      }
      // A trigger deleted since it fired leaves its executions without one, as deleting it does to those already recorded.
      const triggerId =
        data.trigger_id && (await db('triggers').where({ id: data.trigger_id }).first('id')) ? data.trigger_id : null;
      await insertExecution(db, {
        id: data.execution_id,
        workflowId: data.workflow_id,
        inputs: data.inputs ?? {},
        triggerId,
        taskId: task.task_id,
      });
      const existing = await findExecutionRow(db, data.execution_id);
      if (existing?.status === 'running') {
        await db('workflow_step_runs').where({ execution_id: data.execution_id }).delete();
        await db('workflow_executions').where({ id: data.execution_id }).update({ status: 'queued', started_at: null });
      }
      const context = {
        db,
        database: name,
        settings: deps.settings(),
        llm: deps.llm,
        embeddings: deps.embeddings,
        nodeVectors: deps.nodeVectors(name),
        logger,
      };
      const result = await runExecution(context, data.execution_id, signal);
      return { execution_id: data.execution_id, status: result.status, error: result.error };
    },
  );
}
