import { schemaProperties } from '../../../components/JsonSchemaFields.tsx';
import { requiredInputs, toolKey, type ToolInfo } from './tool-info.ts';
import type { Draft, DraftStep } from './workflow-draft.ts';

/**
 * The checks the server makes before it stores a step set, made on the draft as it is edited so the canvas
 * can show them on the steps: a known tool, `depends_on` without cycles or unknown steps, every `{{…}}`
 * reference resolving (inputs the workflow declares; results of steps this one runs after), and, beyond
 * the server, the tool's required inputs being given.
 */

export interface Problem {
  /** The step field it is about: configuration, condition, depends_on, tool_id. */
  field: string;
  message: string;
  /** The input a missing-input problem is about. */
  input?: string;
  /** Whether the server refuses the step set for it; a missing input only fails when the step runs. */
  blocking: boolean;
}

const reference = /\{\{\s*([^{}]+?)\s*\}\}/g;
const stepFields = ['output', 'status', 'error'];

/** Every reference path (`steps.a.output.x`) in a value. */
export function referencesIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(reference)].map((match) => match[1]);
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(referencesIn);
  return [];
}

/** The steps `step` runs after, directly or through others. */
export function ancestorsOf(draft: Draft, id: string): Set<string> {
  const byId = new Map(draft.map((step) => [step.id, step]));
  const seen = new Set<string>();
  const pending = [...(byId.get(id)?.depends_on ?? [])];
  while (pending.length) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(byId.get(next)?.depends_on ?? []));
  }
  return seen;
}

/** The step ids that lie on a cycle of `depends_on`. */
export function stepsInCycles(draft: Draft): Set<string> {
  return new Set(draft.filter((step) => ancestorsOf(draft, step.id).has(step.id)).map((step) => step.id));
}

/** The input names the workflow declares; null when it declares none (then any input may be referenced). */
export function declaredInputs(inputSchema: unknown): string[] | null {
  const names = schemaProperties(inputSchema).map(([name]) => name);
  return names.length ? names : null;
}

/** What is wrong with `{{path}}` in `step`, or null when it resolves. */
function badReference(
  path: string,
  step: DraftStep,
  draft: Draft,
  ancestors: Set<string>,
  inputs: string[] | null,
): string | null {
  const [root, name, field] = path.split('.');
  if (root !== 'inputs' && root !== 'steps') return 'must start with inputs or steps';
  if (!name) return `names no ${root === 'inputs' ? 'input' : 'step'}`;
  if (root === 'inputs')
    return inputs && !inputs.includes(name) ? `uses an input '${name}' the workflow does not declare` : null;
  const source = draft.find((candidate) => candidate.id === name);
  if (!source) return `uses a step '${name}' the workflow does not have`;
  if (name === step.id) return "reads this step's own result";
  if (!ancestors.has(name))
    return `uses step '${name}' (${source.name}), which it does not run after: connect them (Runs after)`;
  if (field !== undefined && !stepFields.includes(field))
    return `reads '${field}'; a step's result has ${stepFields.join(', ')}`;
  return null;
}

const isGiven = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Each step's problems, by step id (steps without problems are left out). */
export function draftProblems(draft: Draft, tools: Map<string, ToolInfo> | undefined, inputSchema: unknown) {
  const found = new Map<string, Problem[]>();
  const add = (step: DraftStep, field: string, message: string, more: Partial<Problem> = {}) =>
    found.set(step.id, [...(found.get(step.id) ?? []), { field, message, blocking: true, ...more }]);
  const ids = new Set(draft.map((step) => step.id));
  const cyclic = stepsInCycles(draft);
  const inputs = declaredInputs(inputSchema);
  for (const step of draft) {
    const tool = tools?.get(toolKey(step.tool_type, step.tool_id));
    if (tools && !tool) add(step, 'tool_id', `runs a tool that no longer exists (${step.tool_id})`);
    for (const name of tool ? requiredInputs(tool) : [])
      if (!isGiven(step.configuration[name]))
        add(step, 'configuration', `needs the input “${name}”`, { blocking: false, input: name });
    for (const dependency of step.depends_on)
      if (!ids.has(dependency)) add(step, 'depends_on', `runs after a step '${dependency}' that is gone`);
    if (cyclic.has(step.id)) add(step, 'depends_on', 'is part of a loop: a step cannot run after itself');
    const ancestors = ancestorsOf(draft, step.id);
    for (const [field, value] of [
      ['configuration', step.configuration],
      ['condition', step.condition],
    ] as const)
      for (const path of referencesIn(value)) {
        const bad = badReference(path, step, draft, ancestors, inputs);
        if (bad) add(step, field, `{{${path}}} ${bad}`);
      }
  }
  return found;
}

/** The references a step may use: the declared inputs, and the results of the steps it runs after. */
export function referencesFor(
  draft: Draft,
  id: string,
  tools: Map<string, ToolInfo> | undefined,
  inputSchema: unknown,
) {
  const ancestors = ancestorsOf(draft, id);
  const fromInputs = (declaredInputs(inputSchema) ?? []).map((name) => `{{inputs.${name}}}`);
  const fromSteps = draft
    .filter((step) => ancestors.has(step.id) && step.id !== id)
    .flatMap((step) => {
      const outputs = schemaProperties(tools?.get(toolKey(step.tool_type, step.tool_id))?.outputSchema);
      return [
        `{{steps.${step.id}.output}}`,
        ...outputs.map(([name]) => `{{steps.${step.id}.output.${name}}}`),
        `{{steps.${step.id}.status}}`,
      ];
    });
  return [...fromInputs, ...fromSteps];
}
