/**
 * A list-valued query parameter such as `source_ids`, given comma-separated (`?source_ids=a,b`), repeated
 * (`?source_ids=a&source_ids=b`) or both: the distinct non-empty values in order, or undefined when none
 * is given (docs/api-conventions.md#query-lists).
 */
export function queryList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = (Array.isArray(value) ? value : [value])
    .flatMap((part) => part.split(','))
    .map((id) => id.trim())
    .filter(Boolean);
  return ids.length ? [...new Set(ids)] : undefined;
}
