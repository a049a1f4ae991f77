import { BadInput, Conflict, Invalid } from '@rhizome/contracts/errors';
import {
  WorkflowCreateBody,
  type WorkflowDocumentBody,
  type WorkflowImportRequestBody,
} from '@rhizome/contracts/api/workflows';
import type { Db } from '../../storage/index.ts';
import { schemaProblems, type JsonSchema } from '../json-schema.ts';
import { now } from '../rows.ts';
import { workflowDetail } from './repo.ts';
import { createWorkflow } from './service.ts';
import type { StepInput, WorkflowDetail, WorkflowInput } from './types.ts';

/**
 * Workflows made from other workflows: the exported document (GET /workflows/{id}/export), its import
 * (POST /workflows/import with `workflow_data`) and duplication. Each answers the workflow together
 * with `{workflow_id, message, was_existing}`.
 */

const workflowKeys = [
  'name',
  'description',
  'category',
  'is_active',
  'expose_as_ai_tool',
  'input_schema',
  'output_schema',
  'allow_parallel_execution',
  'timeout_seconds',
  'max_retries',
  'tags',
  'icon',
] as const;

const stepKeys = [
  'id',
  'step_number',
  'name',
  'description',
  'tool_type',
  'tool_id',
  'configuration',
  'condition',
  'retry_on_failure',
  'timeout_seconds',
  'depends_on',
  'continue_on_error',
  'thinking_mode',
] as const;

function pick(source: object, keys: readonly string[]): Record<string, unknown> {
  const fields = source as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]]));
}

/** Fields a document may leave null where Rhizome takes its default instead. */
const defaultedWhenNull = new Set([
  'category',
  'is_active',
  'expose_as_ai_tool',
  'allow_parallel_execution',
  'timeout_seconds',
  'max_retries',
  'step_number',
  'retry_on_failure',
  'depends_on',
  'continue_on_error',
  'thinking_mode',
]);

/** The known fields of a document's workflow or step, nulls that stand for a default dropped. */
function documentFields(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const fields = pick(source, keys);
  for (const key of Object.keys(fields)) if (fields[key] === null && defaultedWhenNull.has(key)) delete fields[key];
  return fields;
}

export async function exportWorkflowDocument(db: Db, workflowId: string): Promise<WorkflowDocumentBody> {
  const workflow = await workflowDetail(db, workflowId);
  return {
    version: '1.0',
    exported_at: now(),
    workflow: {
      ...(pick(workflow, workflowKeys) as Omit<WorkflowDocumentBody['workflow'], 'is_system' | 'version'>),
      is_system: workflow.is_system,
      version: workflow.version,
    },
    steps: workflow.steps.map((step) => pick(step, stepKeys) as WorkflowDocumentBody['steps'][number]),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The workflow a document describes, as a create body: what is wrong with the document is a 400 naming
 * it. Keys it does not know (an `exported_at`, the source's `is_system` and `version`) are left behind; a
 * textual `thinking_mode` (a level) asks for thinking.
 */
function documentWorkflow(document: Record<string, unknown>): WorkflowInput {
  for (const key of ['version', 'workflow', 'steps'])
    if (document[key] === undefined) throw BadInput.field(`workflow_data lacks '${key}'`, `workflow_data.${key}`);
  if (document.version !== '1.0')
    throw BadInput.field(
      `workflow_data version ${JSON.stringify(document.version)} is not supported (only "1.0")`,
      'workflow_data.version',
    );
  const { workflow, steps } = document;
  if (!isObject(workflow)) throw BadInput.field('workflow_data.workflow is not an object', 'workflow_data.workflow');
  if (!Array.isArray(steps)) throw BadInput.field('workflow_data.steps is not a list', 'workflow_data.steps');
  for (const key of ['name', 'input_schema', 'output_schema'])
    if (!(key in workflow))
      throw BadInput.field(`workflow_data.workflow lacks '${key}'`, `workflow_data.workflow.${key}`);
  const body = {
    ...documentFields(workflow, workflowKeys),
    steps: steps.map((step) => {
      if (!isObject(step)) return step;
      const fields = documentFields(step, stepKeys);
      if (typeof fields.thinking_mode === 'string') fields.thinking_mode = true;
      return fields;
    }),
  };
  const problems = schemaProblems(WorkflowCreateBody as unknown as JsonSchema, body);
  if (problems.length)
    throw new BadInput(`workflow_data is not a valid workflow: ${problems.join('; ')}`, { problems });
  return body as WorkflowInput;
}

/** `<name> (imported)`, then `<name> (imported) (2)` and on: the first no workflow is named yet. */
async function freeCopyName(db: Db, name: string): Promise<string> {
  const base = `${name} (imported)`;
  const taken = new Set<string>(
    await db('workflows')
      .where({ name: base })
      .orWhereRaw("name LIKE ? ESCAPE '\\'", [`${base.replace(/[\\%_]/g, (c) => `\\${c}`)} (%)`])
      .pluck('name'),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`)) return `${base} (${n})`;
}

const nameTaken = async (db: Db, name: string) => (await db('workflows').where({ name }).first('id'))?.id;

function made(workflow: WorkflowDetail, message: string, wasExisting = false) {
  return { workflow_id: workflow.id, message, was_existing: wasExisting, ...workflow };
}

/** A new workflow from `definition`; a step the engine cannot run (an unknown tool, a bad reference) is a 400. */
async function createFromDocument(db: Db, definition: WorkflowInput): Promise<WorkflowDetail> {
  try {
    return await createWorkflow(db, definition);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw new BadInput(error.message, { errors: error.issues });
  }
}

export async function importWorkflowDocument(db: Db, request: WorkflowImportRequestBody) {
  const definition = documentWorkflow(request.workflow_data);
  const name = request.new_name ?? definition.name;
  const existing = await nameTaken(db, name);
  let finalName = name;
  if (existing) {
    const policy = request.on_duplicate ?? 'fail';
    if (policy === 'fail') throw new Conflict(`a workflow named '${name}' exists`, { workflow_id: existing });
    if (policy === 'skip')
      return made(await workflowDetail(db, existing), `Workflow '${name}' exists already: nothing imported`, true);
    finalName = await freeCopyName(db, name);
  }
  const workflow = await createFromDocument(db, {
    ...definition,
    name: finalName,
    ...(request.import_as_inactive ? { is_active: false } : {}),
  });
  return made(workflow, `Workflow '${finalName}' imported`);
}

/** A user workflow copying `workflowId` (a system one too) with its steps, under a free "(imported)" name. */
export async function duplicateWorkflow(db: Db, workflowId: string) {
  const source = await workflowDetail(db, workflowId);
  const name = await freeCopyName(db, source.name);
  const copy = await createWorkflow(db, {
    ...(pick(source, workflowKeys) as Omit<WorkflowInput, 'name'>),
    name,
    steps: source.steps.map((step) => pick(step, stepKeys) as unknown as StepInput),
  });
  return made(copy, `Workflow '${source.name}' duplicated as '${name}'`);
}

/** The answer to an import of a rhizome.workflow definition, in the same form as the other imports. */
export function importedDefinition(workflow: WorkflowDetail) {
  return made(workflow, `Workflow '${workflow.name}' imported`);
}
