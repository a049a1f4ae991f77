import type { Step } from '../automation-data.ts';

/**
 * The workflow's steps as the editor holds them before they are saved: one model that the canvas and the
 * table both read and change, through the pure functions below (each returns a new draft).
 */
export interface DraftStep {
  id: string;
  name: string;
  description: string | null;
  tool_type: Step['tool_type'];
  tool_id: string;
  configuration: Record<string, unknown>;
  depends_on: string[];
  condition: unknown;
  retry_on_failure: boolean;
  continue_on_error: boolean;
  thinking_mode: boolean;
  timeout_seconds: number | null;
}

/** In run order (step_number); the order is kept when saved. */
export type Draft = DraftStep[];

export type ToolType = DraftStep['tool_type'];

/** What a step runs: the tool's kind and id. */
export interface ToolRef {
  tool_type: ToolType;
  tool_id: string;
}

export function draftOf(steps: readonly Step[]): Draft {
  return [...steps]
    .sort((a, b) => a.step_number - b.step_number)
    .map((step) => ({
      id: step.id,
      name: step.name,
      description: step.description,
      tool_type: step.tool_type,
      tool_id: step.tool_id,
      configuration: step.configuration,
      depends_on: step.depends_on,
      condition: step.condition ?? null,
      retry_on_failure: step.retry_on_failure,
      continue_on_error: step.continue_on_error,
      thinking_mode: step.thinking_mode,
      timeout_seconds: step.timeout_seconds,
    }));
}

/** A step id from its name: "Look up node" → look_up_node (ids start with a letter). */
export const idFrom = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 64);

/** `base`, or `base_2`, `base_3`… when the draft has it already. */
export function freeId(draft: Draft, base: string): string {
  const start = base || 'step';
  const taken = new Set(draft.map((step) => step.id));
  if (!taken.has(start)) return start;
  for (let n = 2; ; n++) {
    const candidate = `${start.slice(0, 60)}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** `name`, or `name 2`, `name 3`… so that the steps on a canvas can be told apart. */
function freeName(draft: Draft, name: string): string {
  const taken = new Set(draft.map((step) => step.name));
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name} ${n}`)) return `${name} ${n}`;
}

/** A new step running `tool` with its default input, after `after` when given. */
export function newStep(
  draft: Draft,
  tool: ToolRef,
  name: string,
  configuration: Record<string, unknown>,
  after?: string,
) {
  const unique = freeName(draft, name);
  return {
    id: freeId(draft, idFrom(unique)),
    name: unique,
    description: null,
    ...tool,
    configuration,
    depends_on: after ? [after] : [],
    condition: null,
    retry_on_failure: false,
    continue_on_error: false,
    thinking_mode: false,
    timeout_seconds: null,
  } satisfies DraftStep;
}

export const addStep = (draft: Draft, step: DraftStep): Draft => [...draft, step];

export const updateStep = (draft: Draft, id: string, changes: Partial<Omit<DraftStep, 'id'>>): Draft =>
  draft.map((step) => (step.id === id ? { ...step, ...changes } : step));

/** Replaces a step whole (the table's form); a changed id is followed by the steps that run after it. */
export function replaceStep(draft: Draft, id: string, next: DraftStep): Draft {
  return draft.map((step) => {
    if (step.id === id) return next;
    if (next.id === id || !step.depends_on.includes(id)) return step;
    return { ...step, depends_on: step.depends_on.map((dependency) => (dependency === id ? next.id : dependency)) };
  });
}

/** Removes a step and every connection to it (its references stay, and validation names them). */
export const removeStep = (draft: Draft, id: string): Draft =>
  draft
    .filter((step) => step.id !== id)
    .map((step) =>
      step.depends_on.includes(id)
        ? { ...step, depends_on: step.depends_on.filter((dependency) => dependency !== id) }
        : step,
    );

/** `target` runs after `source`. */
export function connect(draft: Draft, source: string, target: string): Draft {
  if (source === target) return draft;
  return draft.map((step) =>
    step.id === target && !step.depends_on.includes(source)
      ? { ...step, depends_on: [...step.depends_on, source] }
      : step,
  );
}

export const disconnect = (draft: Draft, source: string, target: string): Draft =>
  draft.map((step) =>
    step.id === target ? { ...step, depends_on: step.depends_on.filter((dependency) => dependency !== source) } : step,
  );

/** A condition as one line of text: empty for none, a reference as is, anything else as JSON. */
export function conditionText(condition: unknown): string {
  if (condition === null || condition === undefined) return '';
  return typeof condition === 'string' ? condition : JSON.stringify(condition);
}

/** The condition typed as text: empty is none, JSON is parsed, other text (a reference) is kept as a string. */
export function conditionFrom(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return null;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return trimmed;
  }
}
