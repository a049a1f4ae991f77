/** `?, ?, ?` for n bound values. */
export function placeholders(count: number): string {
  return new Array(count).fill('?').join(', ');
}

/** A JSON object column, or null when empty, malformed or not an object. */
export function parseJsonObject(text: string | null | undefined): Record<string, unknown> | null {
  const value = parseJson(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A JSON array column, or null when empty, malformed or not an array. */
export function parseJsonArray(text: string | null | undefined): unknown[] | null {
  const value = parseJson(text);
  return Array.isArray(value) ? value : null;
}

function parseJson(text: string | null | undefined): unknown {
  if (text === null || text === undefined || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
