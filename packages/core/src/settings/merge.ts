import { isPlainObject, type JsonObject } from './object-path.ts';

const freeFormGroup = 'custom_settings';

/**
 * Applies a PATCH body to settings: objects merge key by key, arrays and scalars replace.
 * Inside custom_settings, a free-form map, a null value removes the key (JSON merge patch),
 * since there is no other way to drop a key from it.
 */
export function mergeSettings(base: JsonObject, patch: JsonObject): JsonObject {
  const result = structuredClone(base);
  for (const [key, value] of ownEntries(patch)) {
    result[key] = mergeValue(result[key], value, key === freeFormGroup);
  }
  return result;
}

function mergeValue(base: unknown, patch: unknown, nullRemoves: boolean): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return structuredClone(patch);
  const result: JsonObject = { ...base };
  for (const [key, value] of ownEntries(patch)) {
    if (nullRemoves && value === null) delete result[key];
    else result[key] = mergeValue(base[key], value, nullRemoves);
  }
  return result;
}

// JSON.parse creates "__proto__" as an own key; assigning it would replace the prototype instead.
function ownEntries(object: JsonObject): [string, unknown][] {
  return Object.entries(object).filter(([key]) => key !== '__proto__');
}
