import { Invalid } from '@rhizome/contracts/errors';
import { WorkflowDefinition, type WorkflowDefinitionBody } from '@rhizome/contracts/api/workflows';
import type { Db } from '../../storage/index.ts';
import { schemaProblems, type JsonSchema } from '../json-schema.ts';
import { findWorkflowRow, workflowDetail } from './repo.ts';
import { createWorkflow } from './service.ts';
import type { WorkflowDetail } from './types.ts';

export type { WorkflowDefinitionBody as WorkflowDefinition } from '@rhizome/contracts/api/workflows';

/**
 * A workflow as a portable JSON definition (GET /workflows/{id}/export, the CCX exporter): the workflow's
 * settings and its steps with their own ids, which are scoped to the workflow and so travel unchanged
 * with the `{{steps.<id>…}}` references. Timestamps, version and the system flag stay behind.
 */
export async function exportWorkflowDefinition(db: Db, workflowId: string): Promise<WorkflowDefinitionBody> {
  const {
    id,
    name,
    description,
    category,
    is_active,
    expose_as_ai_tool,
    input_schema,
    output_schema,
    allow_parallel_execution,
    timeout_seconds,
    max_retries,
    tags,
    icon,
    steps,
  } = await workflowDetail(db, workflowId);
  return {
    format: 'rhizome.workflow',
    version: 1,
    workflow: {
      id,
      name,
      description,
      category,
      is_active,
      expose_as_ai_tool,
      input_schema,
      output_schema,
      allow_parallel_execution,
      timeout_seconds,
      max_retries,
      tags,
      icon,
    },
    steps: steps.map((step) => ({
      id: step.id,
      step_number: step.step_number,
      name: step.name,
      description: step.description,
      tool_type: step.tool_type,
      tool_id: step.tool_id,
      configuration: step.configuration,
      condition: step.condition,
      retry_on_failure: step.retry_on_failure,
      timeout_seconds: step.timeout_seconds,
      depends_on: step.depends_on,
      continue_on_error: step.continue_on_error,
      thinking_mode: step.thinking_mode,
    })),
  };
}

/**
 * Creates a workflow from a definition (POST /workflows/import, the CCX importer). The definition's
 * workflow id is kept when no workflow has it yet (so nested-workflow steps of a package still point at
 * each other), otherwise a new one is given. Validated like any new workflow: 422 naming the step.
 */
export async function importWorkflowDefinition(db: Db, definition: unknown): Promise<WorkflowDetail> {
  const copy = structuredClone(definition);
  const problems = schemaProblems(WorkflowDefinition as unknown as JsonSchema, copy);
  if (problems.length) {
    throw new Invalid(
      problems.map((problem) => ({ loc: ['body'], msg: problem, type: 'value_error' })),
      `not a workflow definition: ${problems.join('; ')}`,
    );
  }
  const { workflow, steps } = copy as WorkflowDefinitionBody;
  const { id, ...fields } = workflow;
  const keepId = id !== undefined && !(await findWorkflowRow(db, id));
  return createWorkflow(db, { ...fields, steps }, keepId ? { id } : {});
}
