import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError, type ValidationIssue } from '@rhizome/contracts/errors';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type Location = 'body' | 'query' | 'path';

// Bodies: unknown fields dropped (schemas say additionalProperties false), defaults filled, no coercion.
const bodyAjv = addFormats(new Ajv({ allErrors: true, removeAdditional: true, useDefaults: true, strict: false }));
// Query and path values arrive as strings: coerce them to the schema's types.
const queryAjv = addFormats(new Ajv({ allErrors: true, removeAdditional: true, useDefaults: true, coerceTypes: true, strict: false }));

/** A compiled validator that returns the cleaned value or throws 422 VALIDATION_FAILED. */
export function compileValidator<T>(schema: TSchema, location: Location): (value: unknown) => T {
  const validate: ValidateFunction = (location === 'body' ? bodyAjv : queryAjv).compile(schema);
  return (value: unknown) => {
    const copy = value === undefined ? (location === 'body' ? undefined : {}) : structuredClone(value);
    if (!validate(copy)) throw ApiError.validation(toIssues(validate.errors ?? [], location));
    return copy as T;
  };
}

export function toIssues(errors: ErrorObject[], location: Location): ValidationIssue[] {
  return errors.map((error) => {
    const loc: (string | number)[] = [location, ...pointerSegments(error.instancePath)];
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
