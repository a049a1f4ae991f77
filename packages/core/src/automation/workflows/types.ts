export const toolTypes = ['system_tool', 'user_tool', 'workflow'] as const;
export type StepToolType = (typeof toolTypes)[number];

/** A step as stored and returned. `depends_on` names step ids of the same workflow. */
export interface WorkflowStep {
  id: string;
  workflow_id: string;
  step_number: number;
  name: string;
  description: string | null;
  tool_type: StepToolType;
  tool_id: string;
  configuration: Record<string, unknown>;
  condition: unknown;
  retry_on_failure: boolean;
  timeout_seconds: number | null;
  depends_on: string[];
  continue_on_error: boolean;
  thinking_mode: boolean;
  created_at: string;
  updated_at: string;
}

/** What a client sends for a step (create, or the fields of an update). */
export interface StepInput {
  id?: string;
  step_number?: number;
  name: string;
  description?: string | null;
  tool_type: StepToolType;
  tool_id: string;
  configuration?: Record<string, unknown>;
  condition?: unknown;
  retry_on_failure?: boolean;
  timeout_seconds?: number | null;
  depends_on?: string[];
  continue_on_error?: boolean;
  thinking_mode?: boolean;
}

export interface Workflow {
  id: string;
  name: string;
  description: string | null;
  category: string;
  is_system: boolean;
  is_active: boolean;
  expose_as_ai_tool: boolean;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown> | null;
  allow_parallel_execution: boolean;
  timeout_seconds: number;
  max_retries: number;
  tags: string[] | null;
  icon: string | null;
  version: string;
  created_by: string | null;
  step_count: number;
  created_at: string;
  updated_at: string;
  last_executed_at: string | null;
}

export type WorkflowDetail = Workflow & { steps: WorkflowStep[] };

export interface WorkflowInput {
  name: string;
  description?: string | null;
  category?: string;
  is_active?: boolean;
  expose_as_ai_tool?: boolean;
  input_schema?: Record<string, unknown>;
  output_schema?: Record<string, unknown> | null;
  allow_parallel_execution?: boolean;
  timeout_seconds?: number;
  max_retries?: number;
  tags?: string[] | null;
  icon?: string | null;
  steps?: StepInput[];
}

export type WorkflowPatch = Partial<Omit<WorkflowInput, 'steps'>>;

export const defaultWorkflowTimeoutSeconds = 3600;
export const defaultWorkflowMaxRetries = 3;
export const emptyInputSchema = { type: 'object', properties: {} };
