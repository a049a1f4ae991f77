import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from './errors.ts';

/** ajv's errors as `details.errors[{loc, msg, type}]` (docs/api-conventions.md#request-validation), `loc` from `prefix`. */
export function validationIssues(errors: ErrorObject[], prefix: (string | number)[]): ValidationIssue[] {
  return errors.map((error) => {
    const loc: (string | number)[] = [...prefix, ...pointerSegments(error.instancePath)];
    if (error.keyword === 'required') {
      loc.push(String((error.params as { missingProperty: string }).missingProperty));
      return { loc, msg: 'Field required', type: 'missing' };
    }
    return { loc, msg: error.message ?? 'Invalid value', type: error.keyword };
  });
}

function pointerSegments(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}
