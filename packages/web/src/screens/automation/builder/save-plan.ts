import { sameValue } from './same-value.ts';
import type { Draft, DraftStep } from './workflow-draft.ts';

/**
 * How a draft is written with the step endpoints, which check the whole step set after every call (no
 * cycle, no dependency on a missing step, every reference to a step run before). Each call below leaves
 * a valid set:
 * 1. steps whose upstream changes (a dependency rewired or deleted) are cleared first, downstream first:
 *    no dependencies, no input, no condition (nothing then relies on what they ran after);
 * 2. deleted steps go, downstream first;
 * 3. every new or changed step is written whole in the draft's dependency order, so all it runs after
 *    is final when it is written;
 * 4. the steps are renumbered in the draft's order when the server's differs.
 */
export type SaveOperation =
  | { kind: 'clear'; id: string }
  | { kind: 'remove'; id: string }
  | { kind: 'add'; step: DraftStep }
  | { kind: 'update'; id: string; changes: Partial<DraftStep> }
  | { kind: 'reorder'; order: string[] };

const editable = [
  'name',
  'description',
  'tool_type',
  'tool_id',
  'configuration',
  'depends_on',
  'condition',
  'retry_on_failure',
  'continue_on_error',
  'thinking_mode',
  'timeout_seconds',
] as const satisfies readonly (keyof DraftStep)[];

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item));

/** The fields of `next` that differ from `before`. */
export function changedFields(before: DraftStep, next: DraftStep): Partial<DraftStep> {
  const changes: Partial<DraftStep> = {};
  for (const field of editable) {
    const same =
      field === 'depends_on' ? sameSet(before.depends_on, next.depends_on) : sameValue(before[field], next[field]);
    if (!same) Object.assign(changes, { [field]: next[field] });
  }
  return changes;
}

/** Whether the draft differs from what is saved (order included). */
export function draftChanged(saved: Draft, draft: Draft): boolean {
  if (saved.length !== draft.length) return true;
  return saved.some(
    (step, index) => step.id !== draft[index].id || Object.keys(changedFields(step, draft[index])).length > 0,
  );
}

/** The steps in an order where each comes after all it depends on (ties keep the draft's order). */
function dependencyOrder(steps: Draft): DraftStep[] {
  const ids = new Set(steps.map((step) => step.id));
  const placed = new Set<string>();
  const order: DraftStep[] = [];
  while (order.length < steps.length) {
    const next = steps.find(
      (step) =>
        !placed.has(step.id) && step.depends_on.every((dependency) => placed.has(dependency) || !ids.has(dependency)),
    );
    // A cycle is refused before saving; its remaining steps keep their order here.
    const step = next ?? steps.find((candidate) => !placed.has(candidate.id))!;
    placed.add(step.id);
    order.push(step);
  }
  return order;
}

export function planSave(saved: Draft, draft: Draft): SaveOperation[] {
  const savedById = new Map(saved.map((step) => [step.id, step]));
  const draftById = new Map(draft.map((step) => [step.id, step]));
  const removed = new Set(saved.filter((step) => !draftById.has(step.id)).map((step) => step.id));
  const rewired = saved.filter(
    (step) => draftById.has(step.id) && !sameSet(step.depends_on, draftById.get(step.id)!.depends_on),
  );
  // Whatever runs after a rewired or removed step relies on a past that changes: it is cleared first.
  const changedUpstream = new Set([...removed, ...rewired.map((step) => step.id)]);
  const cleared = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const step of saved) {
      if (cleared.has(step.id) || removed.has(step.id)) continue;
      if (step.depends_on.some((dependency) => changedUpstream.has(dependency) || cleared.has(dependency))) {
        cleared.add(step.id);
        grew = true;
      }
    }
  }
  const downstreamFirst = dependencyOrder(saved).reverse();
  const operations: SaveOperation[] = [
    ...downstreamFirst.filter((step) => cleared.has(step.id)).map((step) => ({ kind: 'clear' as const, id: step.id })),
    ...downstreamFirst.filter((step) => removed.has(step.id)).map((step) => ({ kind: 'remove' as const, id: step.id })),
  ];
  const serverOrder = saved.filter((step) => !removed.has(step.id)).map((step) => step.id);
  for (const step of dependencyOrder(draft)) {
    const before = savedById.get(step.id);
    if (!before) {
      operations.push({ kind: 'add', step });
      serverOrder.push(step.id);
      continue;
    }
    const base = cleared.has(step.id) ? { ...before, depends_on: [], configuration: {}, condition: null } : before;
    const changes = changedFields(base, step);
    if (Object.keys(changes).length) operations.push({ kind: 'update', id: step.id, changes });
  }
  const order = draft.map((step) => step.id);
  if (order.some((id, index) => serverOrder[index] !== id)) operations.push({ kind: 'reorder', order });
  return operations;
}
