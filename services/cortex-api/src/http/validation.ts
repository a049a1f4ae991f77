import type { TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { ajvFor } from '@rhizome/contracts/ajv';
import { ApiError } from '@rhizome/contracts/errors';
import { validationIssues } from '@rhizome/contracts/validation-issues';

/** `form`: the text fields of a multipart body, strings coerced like query values, reported as `body`. */
export type Location = 'body' | 'form' | 'query' | 'path';

/** A compiled validator that returns the cleaned value or throws 422 VALIDATION_FAILED. */
export function compileValidator<T>(schema: TSchema, location: Location): (value: unknown) => T {
  const validate: ValidateFunction = ajvFor(location === 'body' ? 'requestBody' : 'requestQuery').compile(schema);
  return (value: unknown) => {
    // Multer's form fields come in an object without a prototype, which structuredClone keeps as-is: spread into a plain one.
    const copy =
      value === undefined
        ? location === 'body'
          ? undefined
          : {}
        : structuredClone(location === 'form' ? { ...(value as object) } : value);
    if (!validate(copy))
      throw ApiError.validation(validationIssues(validate.errors ?? [], [location === 'form' ? 'body' : location]));
    return copy as T;
  };
}
