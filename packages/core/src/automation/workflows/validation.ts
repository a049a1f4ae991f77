import { Invalid, type ValidationIssue } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { schemaError } from '../json-schema.ts';
import { findSystemTool } from '../tools/catalogue.ts';
import { referenceRoots, referencesIn, stepReferenceFields } from './interpolation.ts';
import type { WorkflowStep } from './types.ts';

/**
 * Checks a workflow's whole step set before it is stored: every tool exists, `depends_on` names steps
 * of the workflow and has no cycle, and every `{{…}}` reference resolves: `inputs.<name>` to a declared
 * input (when the input schema declares properties), `steps.<id>.<output|status|error>` to a step this
 * one runs after (a dependency, directly or transitively; anything else would race). Refused with 422,
 * naming the step, quoting a bad reference and saying what to change. An issue is only `{loc, msg, type}`
 * (docs/api-conventions.md#request-validation), so the reference is in the message.
 */
export async function validateWorkflow(
  db: Db,
  workflowId: string,
  inputSchema: Record<string, unknown>,
  steps: WorkflowStep[],
): Promise<void> {
  const issues: ValidationIssue[] = [];
  const problem = (step: WorkflowStep, field: string, msg: string) =>
    issues.push({
      loc: ['steps', step.id, field],
      msg: `step '${step.id}' (${step.name}): ${msg}`,
      type: 'value_error',
    });

  const schemaProblem = schemaError(inputSchema);
  if (schemaProblem)
    issues.push({
      loc: ['input_schema'],
      msg: `input_schema is not a valid JSON schema: ${schemaProblem}`,
      type: 'value_error',
    });

  const byId = new Map<string, WorkflowStep>();
  for (const step of steps) {
    if (byId.has(step.id)) problem(step, 'id', 'another step has the same id');
    byId.set(step.id, step);
  }
  for (const step of steps) {
    const missing = await missingTool(db, workflowId, step);
    if (missing) problem(step, 'tool_id', missing);
    for (const dependency of step.depends_on) {
      if (dependency === step.id) problem(step, 'depends_on', 'a step cannot depend on itself');
      else if (!byId.has(dependency)) problem(step, 'depends_on', `depends on unknown step '${dependency}'`);
    }
  }
  const cycle = findCycle(steps, byId);
  if (cycle) problem(byId.get(cycle[0])!, 'depends_on', `depends_on forms a cycle: ${cycle.join(' → ')}`);
  else {
    const declared = declaredInputs(inputSchema);
    for (const step of steps) {
      const ancestors = ancestorsOf(step, byId);
      for (const [field, value] of [
        ['configuration', step.configuration],
        ['condition', step.condition],
      ] as const) {
        for (const path of referencesIn(value)) {
          const bad = badReference(path, step, ancestors, byId, declared);
          if (bad) problem(step, field, `the reference {{${path}}} ${bad}`);
        }
      }
    }
  }
  if (issues.length) throw new Invalid(issues, issues[0].msg);
}

async function missingTool(db: Db, workflowId: string, step: WorkflowStep): Promise<string | null> {
  switch (step.tool_type) {
    case 'system_tool':
      return findSystemTool(step.tool_id) ? null : `unknown system tool '${step.tool_id}'`;
    case 'user_tool':
      return (await db('user_tools').where({ id: step.tool_id }).first('id'))
        ? null
        : `unknown user tool '${step.tool_id}'`;
    case 'workflow':
      if (step.tool_id === workflowId) return 'a workflow cannot run itself as a step';
      return (await db('workflows').where({ id: step.tool_id }).first('id'))
        ? null
        : `unknown workflow '${step.tool_id}'`;
  }
}

/** The step ids of one cycle in `depends_on`, or null (depth-first search with colours). */
function findCycle(steps: WorkflowStep[], byId: Map<string, WorkflowStep>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const dependency of byId.get(id)?.depends_on ?? []) {
      if (!byId.has(dependency)) continue;
      const cycle = visit(dependency);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const step of steps) {
    const cycle = visit(step.id);
    if (cycle) return cycle;
  }
  return null;
}

function ancestorsOf(step: WorkflowStep, byId: Map<string, WorkflowStep>): Set<string> {
  const seen = new Set<string>();
  const pending = [...step.depends_on];
  while (pending.length) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(byId.get(id)?.depends_on ?? []));
  }
  return seen;
}

/** The input names the schema declares; null when it declares none (any input may be referenced). */
function declaredInputs(schema: Record<string, unknown>): Set<string> | null {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object' || !Object.keys(properties).length) return null;
  return new Set(Object.keys(properties));
}

/**
 * What is wrong with one `{{path}}` of `step` and what to change, in words following "the reference {{path}}";
 * null when it resolves.
 */
function badReference(
  path: string,
  step: WorkflowStep,
  ancestors: Set<string>,
  byId: Map<string, WorkflowStep>,
  declared: Set<string> | null,
): string | null {
  const [root, name, field] = path.split('.');
  if (!(referenceRoots as readonly string[]).includes(root)) return `must start with ${referenceRoots.join(' or ')}`;
  if (!name) return `names no ${root === 'inputs' ? 'input' : 'step'}`;
  if (root === 'inputs')
    return declared && !declared.has(name)
      ? `uses the input '${name}', which the workflow's input_schema does not declare: add it there or correct the name`
      : null;
  const source = byId.get(name);
  if (!source) return `uses the result of a step '${name}' that this workflow does not have: correct the step id`;
  if (name === step.id)
    return "reads this step's own result, which does not exist while it runs: use an earlier step's result";
  if (!ancestors.has(name))
    return `uses the result of step '${name}' (${source.name}), which may not have run yet: add '${name}' to Runs after (depends_on)`;
  if (field !== undefined && !(stepReferenceFields as readonly string[]).includes(field))
    return `reads '${field}'; a step's result has ${stepReferenceFields.join(', ')}`;
  return null;
}
