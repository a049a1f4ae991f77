import { isDeepStrictEqual } from 'node:util';

export type FilterVerdict = { matches: true } | { matches: false; absentKey?: string };

/**
 * Trigger filters: every filter key must exist at the top level of the payload and
 * equal its value literally; an empty filter matches every event. A key the payload lacks never matches
 * and is reported, so the dispatcher can warn about a filter that can never fire.
 */
export function matchFilters(filters: Record<string, unknown>, payload: Record<string, unknown>): FilterVerdict {
  for (const [key, expected] of Object.entries(filters)) {
    if (!Object.hasOwn(payload, key)) return { matches: false, absentKey: key };
    if (!isDeepStrictEqual(payload[key], expected)) return { matches: false };
  }
  return { matches: true };
}

/** What a triggered execution receives: the event's payload, with the trigger's own workflow_inputs winning. */
export function executionInputs(
  payload: Record<string, unknown>,
  workflowInputs: Record<string, unknown> | null,
): Record<string, unknown> {
  return { ...payload, ...workflowInputs };
}
