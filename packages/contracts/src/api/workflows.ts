import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable, OneOf, Page, PageQuery, Timestamp } from './common.ts';
import { TriggerResponse } from './triggers.ts';

const tag = 'workflows';

export const stepToolTypes = ['system_tool', 'user_tool', 'workflow'] as const;
export const executionStatusNames = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const stepRunStatusNames = ['running', 'completed', 'failed', 'skipped', 'cancelled'] as const;
/** The statuses an execution list filters by: `pending` is the older name of `queued`. */
const executionStatusFilter = Type.Optional(OneOf([...executionStatusNames, 'pending']));

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const StepIdSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z][A-Za-z0-9_-]*$',
  description: 'unique within the workflow; what {{steps.<id>…}} references',
});
const Tags = Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }));
const Condition = Type.Unknown({
  description:
    'null (always run); a value judged by truthiness after interpolation, e.g. "{{steps.check.output.result}}"; or {value, operator, compare_to}',
});

/** The editable fields of a step (all of them optional in an update). */
const stepFields = {
  step_number: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    description: 'display and start order among ready steps; default: after the last',
  }),
  name: Name,
  description: Nullable(Type.String({ maxLength: 10_000 })),
  tool_type: OneOf(stepToolTypes),
  tool_id: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'a system tool id (ai.prompt), a user tool id, or a workflow id',
  }),
  configuration: Type.Record(Type.String(), Type.Unknown(), {
    description: 'the tool input; strings may hold {{inputs.x}} and {{steps.<id>.output.…}}',
  }),
  condition: Condition,
  retry_on_failure: Type.Boolean({
    description: "retried up to the workflow's max_retries, backing off 1 s ×2 up to 30 s",
  }),
  timeout_seconds: Nullable(Type.Integer({ minimum: 1, maximum: 86_400 })),
  depends_on: Type.Array(StepIdSchema, { maxItems: 200, uniqueItems: true }),
  continue_on_error: Type.Boolean(),
  thinking_mode: Type.Boolean(),
};

export const StepCreateBody = Body({
  id: Type.Optional(StepIdSchema),
  step_number: Type.Optional(stepFields.step_number),
  name: stepFields.name,
  description: Type.Optional(stepFields.description),
  tool_type: stepFields.tool_type,
  tool_id: stepFields.tool_id,
  configuration: Type.Optional(stepFields.configuration),
  condition: Type.Optional(Condition),
  retry_on_failure: Type.Optional(stepFields.retry_on_failure),
  timeout_seconds: Type.Optional(stepFields.timeout_seconds),
  depends_on: Type.Optional(stepFields.depends_on),
  continue_on_error: Type.Optional(stepFields.continue_on_error),
  thinking_mode: Type.Optional(stepFields.thinking_mode),
});

export const StepUpdateBody = Body(Type.Partial(Type.Object(stepFields)).properties);

export const StepResponse = Type.Object({
  id: Type.String(),
  workflow_id: Type.String(),
  ...stepFields,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const workflowFields = {
  name: Name,
  description: Nullable(Type.String({ maxLength: 10_000 })),
  category: Type.String({ minLength: 1, maxLength: 100 }),
  is_active: Type.Boolean(),
  expose_as_ai_tool: Type.Boolean(),
  input_schema: Type.Record(Type.String(), Type.Unknown(), {
    description: 'JSON schema of the inputs; declared properties are what {{inputs.x}} may reference',
  }),
  output_schema: Nullable(AnyObject),
  allow_parallel_execution: Type.Boolean({
    description: 'false: a new execution waits until the running one finished',
  }),
  timeout_seconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
  max_retries: Type.Integer({ minimum: 0, maximum: 10 }),
  tags: Tags,
  icon: Nullable(Type.String({ maxLength: 200 })),
};

const { name: _name, ...optionalWorkflowFields } = workflowFields;

export const WorkflowCreateBody = Body({
  name: workflowFields.name,
  ...Type.Partial(Type.Object(optionalWorkflowFields)).properties,
  steps: Type.Optional(Type.Array(StepCreateBody, { maxItems: 200 })),
});

export const WorkflowUpdateBody = Body(Type.Partial(Type.Object(workflowFields)).properties);

export const WorkflowSummary = Type.Object({
  id: Type.String(),
  database_name: Type.String({ description: 'the database the workflow belongs to' }),
  ...workflowFields,
  is_system: Type.Boolean(),
  version: Type.String({ description: 'the revision of the definition, counting up from "1" with every change' }),
  created_by: Nullable(Type.String()),
  step_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_executed_at: Nullable(Timestamp),
});

export type WorkflowSummaryBody = Static<typeof WorkflowSummary>;

export const WorkflowResponse = Type.Object({ ...WorkflowSummary.properties, steps: Type.Array(StepResponse) });

export const ExecutionSummary = Type.Object({
  id: Type.String(),
  workflow_id: Type.String(),
  task_id: Nullable(Type.String()),
  triggered_by: Type.String({ description: '"manual" or what the starter named, "trigger", "workflow" (nested)' }),
  trigger_id: Nullable(Type.String()),
  parent_execution_id: Nullable(Type.String()),
  depth: Type.Integer(),
  status: OneOf(executionStatusNames),
  inputs: AnyObject,
  outputs: Nullable(AnyObject),
  current_step_id: Nullable(Type.String({ description: 'a step running now' })),
  failed_step_id: Nullable(Type.String({ description: 'the step whose failure ended the execution' })),
  error: Nullable(Type.String()),
  error_message: Nullable(Type.String({ description: 'the same as error' })),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  completed_at: Nullable(Timestamp),
  duration_ms: Nullable(Type.Integer()),
});

export const StepRunResponse = Type.Object({
  step_id: Type.String(),
  step_number: Type.Integer(),
  name: Type.String(),
  tool_type: Type.String(),
  tool_id: Type.String(),
  status: OneOf(stepRunStatusNames),
  input: Type.Unknown({ description: 'the configuration the step ran with, interpolated' }),
  output: Type.Unknown(),
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  started_at: Nullable(Timestamp),
  completed_at: Nullable(Timestamp),
  duration_ms: Nullable(Type.Integer()),
});

/** A step run in the flat form: the run's row id, its execution, and inputs/outputs named as on the execution. */
export const StepExecutionResponse = Type.Object({
  id: Type.String(),
  execution_id: Type.String(),
  step_id: Type.String(),
  inputs: Type.Unknown(),
  outputs: Type.Unknown(),
  status: OneOf(stepRunStatusNames),
  error_message: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer()),
  created_at: Nullable(Timestamp),
  started_at: Nullable(Timestamp),
  completed_at: Nullable(Timestamp),
});

export const ExecutionResponse = Type.Object({
  ...ExecutionSummary.properties,
  steps: Type.Array(StepRunResponse),
  step_executions: Type.Array(StepExecutionResponse, { description: 'the same step runs as `steps`, flat' }),
  child_execution_ids: Type.Array(Type.String(), { description: 'executions of nested workflows' }),
});

export const ExecutionCancelled = Type.Object({
  ...ExecutionSummary.properties,
  success: Type.Literal(true),
  execution_id: Type.String(),
  message: Type.String(),
});

export const ExecutionQueued = Type.Object({
  execution_id: Type.String(),
  task_id: Type.String(),
  status: Type.Literal('queued'),
  message: Type.String(),
});

export const WorkflowStatsResponse = Type.Object({
  total_workflows: Type.Integer(),
  active_workflows: Type.Integer(),
  inactive_workflows: Type.Integer(),
  total_executions: Type.Integer(),
  successful_executions: Type.Integer(),
  failed_executions: Type.Integer(),
  cancelled_executions: Type.Integer(),
  pending_executions: Type.Integer(),
  success_rate: Type.Number(),
  average_duration_ms: Type.Integer(),
});

export const WorkflowExecutionStats = Type.Object({
  workflow_id: Type.String(),
  total_executions: Type.Integer(),
  successful_executions: Type.Integer(),
  failed_executions: Type.Integer(),
  cancelled_executions: Type.Integer(),
  success_rate: Type.Number({ description: 'completed among finished top-level executions, 0 to 1' }),
  avg_duration_ms: Type.Integer(),
  min_duration_ms: Nullable(Type.Integer()),
  max_duration_ms: Nullable(Type.Integer()),
  last_execution_at: Nullable(Timestamp),
  last_success_at: Nullable(Timestamp),
  last_failure_at: Nullable(Timestamp),
  updated_at: Timestamp,
});

/** A workflow definition as exported and imported: no ids but the steps' own (they are scoped to the workflow). */
export const WorkflowDefinition = Type.Object({
  format: Type.Literal('rhizome.workflow'),
  version: Type.Literal(1),
  workflow: Type.Object({
    id: Type.Optional(Type.String({ description: 'kept on import when no workflow has it yet' })),
    name: Name,
    description: Type.Optional(workflowFields.description),
    category: Type.Optional(workflowFields.category),
    is_active: Type.Optional(workflowFields.is_active),
    expose_as_ai_tool: Type.Optional(workflowFields.expose_as_ai_tool),
    input_schema: Type.Optional(workflowFields.input_schema),
    output_schema: Type.Optional(workflowFields.output_schema),
    allow_parallel_execution: Type.Optional(workflowFields.allow_parallel_execution),
    timeout_seconds: Type.Optional(workflowFields.timeout_seconds),
    max_retries: Type.Optional(workflowFields.max_retries),
    tags: Type.Optional(workflowFields.tags),
    icon: Type.Optional(workflowFields.icon),
  }),
  steps: Type.Array(StepCreateBody, { maxItems: 200 }),
});
export type WorkflowDefinitionBody = Static<typeof WorkflowDefinition>;

/**
 * A workflow as GET /workflows/{id}/export hands it out and POST /workflows/import takes it in
 * `workflow_data`: no workflow id; each step keeps its own `id`, which `depends_on` and
 * `{{steps.<id>…}}` name (a document without step ids gets `step_<n>`).
 */
export const WorkflowDocument = Type.Object({
  version: Type.Literal('1.0'),
  exported_at: Timestamp,
  workflow: Type.Object({
    ...workflowFields,
    is_system: Type.Boolean(),
    version: Type.String(),
  }),
  steps: Type.Array(Type.Object({ id: StepIdSchema, ...stepFields })),
});
export type WorkflowDocumentBody = Static<typeof WorkflowDocument>;

export const duplicateNamePolicies = ['fail', 'skip', 'rename'] as const;

export const WorkflowImportRequest = Body({
  workflow_data: Type.Record(Type.String(), Type.Unknown(), {
    description: 'an exported document; a malformed one is a 400 naming what is wrong',
  }),
  on_duplicate: Type.Optional(OneOf(duplicateNamePolicies)),
  new_name: Type.Optional(Nullable(Name)),
  import_as_inactive: Type.Optional(Type.Boolean()),
});
export type WorkflowImportRequestBody = Static<typeof WorkflowImportRequest>;

/** What an import or a duplication made (or, skipping, found): the workflow itself plus these three. */
export const WorkflowImported = Type.Object({
  workflow_id: Type.String(),
  message: Type.String(),
  was_existing: Type.Boolean({ description: 'true when a workflow of that name was answered instead (skip)' }),
  ...WorkflowResponse.properties,
});

const WorkflowId = Type.Object({ workflow_id: Type.String({ minLength: 1 }) });
const StepPath = Type.Object({ workflow_id: Type.String({ minLength: 1 }), step_id: Type.String({ minLength: 1 }) });
const ExecutionId = Type.Object({ execution_id: Type.String({ minLength: 1 }) });
const WorkflowExecutionPath = Type.Object({
  workflow_id: Type.String({ minLength: 1 }),
  execution_id: Type.String({ minLength: 1 }),
});

export const workflowEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/workflows',
    tag,
    status: 200,
    errors: [422],
    summary: 'Workflows, newest first',
    query: Type.Object({
      category: Type.Optional(Type.String()),
      is_active: Type.Optional(Type.Boolean()),
      is_system: Type.Optional(Type.Boolean()),
      expose_as_ai_tool: Type.Optional(Type.Boolean()),
      search: Type.Optional(Type.String({ description: 'part of the name' })),
      ...PageQuery,
    }),
    response: Page(WorkflowSummary),
  }),
  create: endpoint({
    method: 'POST',
    path: '/workflows',
    tag,
    status: 201,
    errors: [422],
    summary:
      'Create a workflow, optionally with its steps; an unknown tool, a cycle in depends_on or a bad {{…}} reference is refused naming the step',
    body: WorkflowCreateBody,
    response: WorkflowResponse,
  }),
  stats: endpoint({
    method: 'GET',
    path: '/workflows/stats',
    tag,
    status: 200,
    summary: 'Workflows and top-level executions by outcome',
    response: WorkflowStatsResponse,
  }),
  import: endpoint({
    method: 'POST',
    path: '/workflows/import',
    tag,
    status: 201,
    errors: [400, 409, 422],
    summary:
      'Create a workflow from an exported document ({workflow_data, on_duplicate, new_name, import_as_inactive}; a taken name: fail 409, skip answers the existing one, rename adds " (imported)", then " (imported) (2)"…) or from a rhizome.workflow definition',
    // The definition first: a body checked against the request's closed object first would lose its other keys.
    body: Type.Union([WorkflowDefinition, WorkflowImportRequest]),
    response: WorkflowImported,
  }),
  allExecutions: endpoint({
    method: 'GET',
    path: '/workflows/executions',
    tag,
    status: 200,
    errors: [422],
    summary: 'Executions of every workflow (or of one), newest first',
    query: Type.Object({
      workflow_id: Type.Optional(Type.String({ minLength: 1 })),
      status: executionStatusFilter,
      ...PageQuery,
    }),
    response: Page(ExecutionSummary),
  }),
  execution: endpoint({
    method: 'GET',
    path: '/workflows/executions/{execution_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One execution: status, inputs, outputs, error, timings and every step run',
    params: ExecutionId,
    response: ExecutionResponse,
  }),
  cancelExecution: endpoint({
    method: 'POST',
    path: '/workflows/executions/{execution_id}/cancel',
    tag,
    status: 200,
    errors: [400, 404],
    summary: 'Cancel a queued or running execution (running steps stop cooperatively); 400 once it finished',
    params: ExecutionId,
    response: ExecutionCancelled,
  }),
  get: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One workflow with its steps',
    params: WorkflowId,
    response: WorkflowResponse,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/workflows/{workflow_id}',
    tag,
    status: 200,
    errors: [400, 404, 422],
    summary: 'Update a workflow (system workflows: is_active only)',
    params: WorkflowId,
    body: WorkflowUpdateBody,
    response: WorkflowResponse,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/workflows/{workflow_id}',
    tag,
    status: 204,
    errors: [400, 404, 409],
    summary:
      'Delete a workflow with its steps, executions and triggers (refused while another workflow runs it as a step)',
    params: WorkflowId,
  }),
  duplicate: endpoint({
    method: 'POST',
    path: '/workflows/{workflow_id}/duplicate',
    tag,
    status: 201,
    errors: [404],
    summary: 'Copy a workflow with its steps as "<name> (imported)" (then "(imported) (2)"…)',
    params: WorkflowId,
    response: WorkflowImported,
  }),
  workflowStats: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}/stats',
    tag,
    status: 200,
    errors: [404],
    summary: "The workflow's top-level executions by outcome, with durations and the latest of each",
    params: WorkflowId,
    response: WorkflowExecutionStats,
  }),
  steps: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}/steps',
    tag,
    status: 200,
    errors: [404],
    summary: 'The steps of a workflow by step_number',
    params: WorkflowId,
    response: Type.Array(StepResponse),
  }),
  addStep: endpoint({
    method: 'POST',
    path: '/workflows/{workflow_id}/steps',
    tag,
    status: 201,
    errors: [400, 404, 409, 422],
    summary: 'Add a step',
    params: WorkflowId,
    body: StepCreateBody,
    response: StepResponse,
  }),
  reorderSteps: endpoint({
    method: 'PUT',
    path: '/workflows/{workflow_id}/steps/reorder',
    tag,
    status: 200,
    errors: [400, 404, 422],
    summary: 'Renumber the steps 1, 2, … in the order given (steps not named follow in their current order)',
    params: WorkflowId,
    body: Body({ step_order: Type.Array(Type.String({ minLength: 1 }), { maxItems: 200, uniqueItems: true }) }),
    response: Type.Array(StepResponse),
  }),
  step: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}/steps/{step_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One step',
    params: StepPath,
    response: StepResponse,
  }),
  updateStep: endpoint({
    method: 'PATCH',
    path: '/workflows/{workflow_id}/steps/{step_id}',
    tag,
    status: 200,
    errors: [400, 404, 422],
    summary: 'Update a step',
    params: StepPath,
    body: StepUpdateBody,
    response: StepResponse,
  }),
  removeStep: endpoint({
    method: 'DELETE',
    path: '/workflows/{workflow_id}/steps/{step_id}',
    tag,
    status: 204,
    errors: [400, 404, 422],
    summary: 'Delete a step (refused while other steps depend on or reference it)',
    params: StepPath,
  }),
  run: endpoint({
    method: 'POST',
    path: '/workflows/{workflow_id}/executions',
    tag,
    status: 202,
    errors: [400, 404, 409, 422, 503],
    summary:
      'Run the workflow with inputs (checked against its input_schema) on the operations queue; 400 while it is inactive, 409 while it runs already and allows no parallel executions',
    params: WorkflowId,
    body: Body({
      inputs: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { default: {} })),
      triggered_by: Type.Optional(Type.String({ minLength: 1, maxLength: 100, default: 'manual' })),
    }),
    response: ExecutionQueued,
  }),
  executions: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}/executions',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Executions of a workflow, newest first',
    params: WorkflowId,
    query: Type.Object({ status: executionStatusFilter, ...PageQuery }),
    response: Page(ExecutionSummary),
  }),
  workflowExecution: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}/executions/{execution_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One execution of this workflow with every step run',
    params: WorkflowExecutionPath,
    response: ExecutionResponse,
  }),
  cancelWorkflowExecution: endpoint({
    method: 'POST',
    path: '/workflows/{workflow_id}/executions/{execution_id}/cancel',
    tag,
    status: 200,
    errors: [400, 404],
    summary: 'Cancel a queued or running execution of this workflow; 400 once it finished',
    params: WorkflowExecutionPath,
    response: ExecutionCancelled,
  }),
  export: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}/export',
    tag,
    status: 200,
    errors: [404],
    summary: 'The workflow as a document for POST /workflows/import (workflow_data)',
    params: WorkflowId,
    response: Type.Object({ data: WorkflowDocument, message: Type.String() }),
  }),
  triggers: endpoint({
    method: 'GET',
    path: '/workflows/{workflow_id}/triggers',
    tag,
    status: 200,
    errors: [404],
    summary: 'The triggers that start this workflow',
    params: WorkflowId,
    response: Type.Array(TriggerResponse),
  }),
};
