import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The JSON Schema validators of the code base, one per purpose; every one reports all errors at once.
 * - `requestBody`: API bodies. Unknown fields dropped (our schemas say additionalProperties false), defaults
 *   filled, no coercion, string formats checked.
 * - `requestQuery`: query and path values, which arrive as strings: as `requestBody`, coerced to the schema's types.
 * - `batchItem`: items of a batch request validated one by one inside the task, as bodies minus the formats.
 * - `userSchema`: schemas operators write (tool and workflow inputs): extra fields kept, defaults filled.
 * - `settings`: the settings file, whose schema is ours and strict; unions of types allowed.
 * - `definition`: other strict schemas of ours (e.g. a source-domain definition).
 */
const optionsByPurpose = {
  requestBody: { allErrors: true, removeAdditional: true, useDefaults: true, strict: false },
  requestQuery: { allErrors: true, removeAdditional: true, useDefaults: true, coerceTypes: true, strict: false },
  batchItem: { allErrors: true, removeAdditional: true, useDefaults: true, strict: false },
  userSchema: { allErrors: true, useDefaults: true, strict: false },
  settings: { allErrors: true, removeAdditional: true, useDefaults: true, allowUnionTypes: true, strict: true },
  definition: { allErrors: true, removeAdditional: true, useDefaults: true, strict: true },
} satisfies Record<string, Options>;

export type AjvPurpose = keyof typeof optionsByPurpose;

const withFormats: ReadonlySet<AjvPurpose> = new Set(['requestBody', 'requestQuery']);
const instances = new Map<AjvPurpose, Ajv>();

/** The shared validator for `purpose` (compiled schemas are cached per instance, so sharing it saves work). */
export function ajvFor(purpose: AjvPurpose): Ajv {
  let ajv = instances.get(purpose);
  if (!ajv) {
    ajv = new Ajv(optionsByPurpose[purpose]);
    if (withFormats.has(purpose)) addFormats(ajv);
    instances.set(purpose, ajv);
  }
  return ajv;
}
