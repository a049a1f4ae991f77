/** Reads `a.b.0.c` out of nested objects and arrays; undefined when any part is missing. */
export function valueAtPath(root: unknown, path: string): unknown {
  let current = root;
  for (const part of path.split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(part)) return undefined;
      current = current[Number(part)];
    } else {
      if (!Object.hasOwn(current, part)) return undefined;
      current = (current as Record<string, unknown>)[part];
    }
  }
  return current;
}
