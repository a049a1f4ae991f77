export type JsonObject = Record<string, unknown>;
export type FieldPath = readonly (string | number)[];

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getAt(root: unknown, path: FieldPath): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** Sets the value at `path`, creating plain objects for missing intermediate keys. */
export function setAt(root: JsonObject, path: FieldPath, value: unknown): void {
  let node: Record<string | number, unknown> = root;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment];
    if (typeof next !== 'object' || next === null) node[segment] = {};
    node = node[segment] as Record<string | number, unknown>;
  }
  node[path[path.length - 1]] = value;
}

export function formatPath(path: FieldPath): string {
  return path.join('.');
}
