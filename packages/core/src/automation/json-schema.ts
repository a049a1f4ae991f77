import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajvFor } from '@rhizome/contracts/ajv';
import { describeError } from '@rhizome/contracts/errors';

/** A JSON Schema object as tools and workflows declare their inputs and outputs. */
export type JsonSchema = Record<string, unknown>;

const ajv = ajvFor('userSchema');
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** The problems of `value` against `schema` as `path: message` lines; empty when it is valid. Fills the schema's defaults in. */
export function schemaProblems(schema: JsonSchema, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map(describe);
}

/** The same schema without `required` at its top level: a partial configuration a step completes later. */
export function partialSchema(schema: JsonSchema): JsonSchema {
  const { required: _required, ...rest } = schema;
  return rest;
}

/** Whether `schema` can be compiled at all (a workflow's declared input schema). */
export function schemaError(schema: JsonSchema): string | null {
  try {
    ajv.compile(schema);
    return null;
  } catch (error) {
    return describeError(error);
  }
}

function describe(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '(root)';
  const missing = error.keyword === 'required' ? ` '${String(error.params.missingProperty)}'` : '';
  return `${where}: ${error.message ?? 'is invalid'}${missing}`;
}
