/** Whether every word typed appears in the label or one of the keywords (any case, any order). */
export function matches(query: string, label: string, keywords: readonly string[] = []): boolean {
  const haystack = [label, ...keywords].join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** The query for keyword search as a person types: the last word also matches words it begins. */
export function asTyped(query: string): string {
  const trimmed = query.trim();
  const last = trimmed.split(/\s+/).pop() ?? '';
  return last.length >= 2 && /^[\p{L}\p{N}]+$/u.test(last) ? `${trimmed}*` : trimmed;
}
