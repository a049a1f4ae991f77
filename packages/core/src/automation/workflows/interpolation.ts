import { valueAtPath } from '../tools/data-path.ts';

/**
 * `{{inputs.x}}`, `{{steps.<step_id>.output.a.0}}`, `{{steps.<step_id>.status}}` and `.error` in step
 * configurations and conditions. A reference that is the whole string keeps the
 * referenced value's type; inside mixed text it is written out (objects as JSON). An unresolvable
 * reference becomes null as a whole value, an empty string inside text.
 */

const reference = /\{\{\s*([^{}]+?)\s*\}\}/g;
const wholeReference = /^\{\{\s*([^{}]+?)\s*\}\}$/;

export const referenceRoots = ['inputs', 'steps'] as const;
export const stepReferenceFields = ['output', 'status', 'error'] as const;

/** What references resolve against while an execution runs. */
export interface InterpolationScope {
  inputs: Record<string, unknown>;
  steps: Record<string, { output: unknown; status: string; error: string | null }>;
}

export function interpolate(value: unknown, scope: InterpolationScope): unknown {
  if (typeof value === 'string') return interpolateText(value, scope);
  if (Array.isArray(value)) return value.map((item) => interpolate(item, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, scope)]));
  }
  return value;
}

function interpolateText(text: string, scope: InterpolationScope): unknown {
  const whole = wholeReference.exec(text);
  if (whole) return structuredClone(valueAtPath(scope, whole[1]) ?? null);
  return text.replace(reference, (_match, path: string) => written(valueAtPath(scope, path)));
}

function written(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Every reference path (`steps.a.output.x`) in a value, for validation. */
export function referencesIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(reference)].map((match) => match[1]);
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(referencesIn);
  return [];
}
