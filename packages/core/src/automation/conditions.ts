import { isDeepStrictEqual } from 'node:util';

export const conditionOperators = [
  'equals',
  'not_equals',
  'greater_than',
  'less_than',
  'contains',
  'exists',
  'truthy',
  'falsy',
] as const;
export type ConditionOperator = (typeof conditionOperators)[number];

/** A comparison after interpolation: `value <operator> compare_to`. */
export interface Comparison {
  value: unknown;
  operator: ConditionOperator;
  compare_to?: unknown;
}

/**
 * Truthiness as a workflow author means it: besides JavaScript's falsy values, an empty list and the
 * texts `false` and `0` (what a reference inside mixed text turns false and 0 into) are false.
 */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'string') return !['', 'false', '0'].includes(value.trim().toLowerCase());
  return Boolean(value);
}

export function compare({ value, operator, compare_to: other }: Comparison): boolean {
  switch (operator) {
    case 'equals':
      return isDeepStrictEqual(value, other);
    case 'not_equals':
      return !isDeepStrictEqual(value, other);
    case 'greater_than':
      return ordered(value, other) > 0;
    case 'less_than':
      return ordered(value, other) < 0;
    case 'contains':
      if (typeof value === 'string') return typeof other === 'string' && value.includes(other);
      if (Array.isArray(value)) return value.some((item) => isDeepStrictEqual(item, other));
      return value !== null && typeof value === 'object' && typeof other === 'string' && Object.hasOwn(value, other);
    case 'exists':
      return value !== null && value !== undefined;
    case 'truthy':
      return isTruthy(value);
    case 'falsy':
      return !isTruthy(value);
  }
}

/** Numbers (and numeric text) compare as numbers, other strings alphabetically; anything else is unordered (NaN). */
function ordered(left: unknown, right: unknown): number {
  const a = Number(left);
  const b = Number(right);
  if (left !== '' && right !== '' && left !== null && right !== null && !Number.isNaN(a) && !Number.isNaN(b))
    return a - b;
  if (typeof left === 'string' && typeof right === 'string') return left.localeCompare(right);
  return Number.NaN;
}

/** A step's condition after interpolation: a comparison object, or any value judged by its truthiness. */
export function conditionHolds(condition: unknown): boolean {
  if (condition !== null && typeof condition === 'object' && !Array.isArray(condition) && 'operator' in condition)
    return compare(condition as Comparison);
  return isTruthy(condition);
}
