import type { Knex } from 'knex';
import type { Flag } from './rows.ts';
import type { UserToolRow } from './tools/user-tools.ts';
import type { TriggerRow } from './triggers/repo.ts';
import type { ExecutionRow, StepRunRow } from './workflows/executions.ts';
import type { StepRow, WorkflowRow } from './workflows/repo.ts';

/** A step run as stored: its rowid and its execution besides what the API shows. */
export type StoredStepRunRow = StepRunRow & { id: number; execution_id: string };

/** One call of a system or user tool, for the tools' statistics. */
export interface ToolCallRow {
  id: number;
  tool_type: string;
  tool_id: string;
  execution_id: string | null;
  success: Flag;
  duration_ms: number;
  error: string | null;
  called_at: string;
}

/** The automation feature's tables (migration 0009); only files of this folder query them. */
declare module 'knex/types/tables.js' {
  interface Tables {
    workflows: WorkflowRow;
    workflow_steps: StepRow;
    triggers: TriggerRow;
    workflow_executions: ExecutionRow;
    workflow_step_runs: Knex.CompositeTableType<StoredStepRunRow, Omit<StoredStepRunRow, 'id'>>;
    user_tools: UserToolRow;
    tool_calls: Knex.CompositeTableType<ToolCallRow, Omit<ToolCallRow, 'id'>>;
  }
}
