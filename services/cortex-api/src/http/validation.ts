import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError } from '@rhizome/contracts/errors';
import { validationIssues } from '@rhizome/contracts/validation-issues';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** `form`: the text fields of a multipart body, strings coerced like query values, reported as `body`. */
export type Location = 'body' | 'form' | 'query' | 'path';

// Bodies: unknown fields dropped (schemas say additionalProperties false), defaults filled, no coercion.
const bodyAjv = addFormats(new Ajv({ allErrors: true, removeAdditional: true, useDefaults: true, strict: false }));
// Query and path values arrive as strings: coerce them to the schema's types.
const queryAjv = addFormats(new Ajv({ allErrors: true, removeAdditional: true, useDefaults: true, coerceTypes: true, strict: false }));

/** A compiled validator that returns the cleaned value or throws 422 VALIDATION_FAILED. */
export function compileValidator<T>(schema: TSchema, location: Location): (value: unknown) => T {
  const validate: ValidateFunction = (location === 'body' ? bodyAjv : queryAjv).compile(schema);
  return (value: unknown) => {
    // Multer's form fields come in an object without a prototype, which structuredClone keeps as-is: spread into a plain one.
    const copy = value === undefined ? (location === 'body' ? undefined : {}) : structuredClone(location === 'form' ? { ...(value as object) } : value);
    if (!validate(copy)) throw ApiError.validation(validationIssues(validate.errors ?? [], [location === 'form' ? 'body' : location]));
    return copy as T;
  };
}
