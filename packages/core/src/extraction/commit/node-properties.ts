/** The properties of an extracted node: the entity's own, plus the extraction's bookkeeping. */
export type NodeProperties = Record<string, unknown> & { description?: string; aliases?: string[]; confidence?: number };

const descriptionMaxChars = 8000;
const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Two descriptions of one entity: the longer when they mostly say the same, both otherwise (capped). */
export function mergeDescriptions(a: string, b: string): string {
  if (!a) return b;
  if (!b || a === b) return a;
  const first = words(a);
  const second = words(b);
  let shared = 0;
  for (const word of second) if (first.has(word)) shared++;
  if (shared / Math.max(1, Math.min(first.size, second.size)) > 0.5) return a.length >= b.length ? a : b;
  return `${a} ${b}`.slice(0, descriptionMaxChars);
}

/**
 * What a node knows after another source names the same entity: aliases united (never the label
 * itself), descriptions merged, the higher confidence, and the new source's properties only where the
 * node has none — a second source adds to a node, it does not overwrite what the first said.
 */
export function mergeNodeProperties(current: NodeProperties, incoming: NodeProperties, label: string): NodeProperties {
  const labelKey = label.trim().toLowerCase();
  const aliases = [...new Set([...(current.aliases ?? []), ...(incoming.aliases ?? [])])].filter((alias) => alias.trim().toLowerCase() !== labelKey);
  return {
    ...incoming,
    ...current,
    aliases,
    description: mergeDescriptions(String(current.description ?? ''), String(incoming.description ?? '')),
    confidence: Math.max(Number(current.confidence ?? 0), Number(incoming.confidence ?? 0)),
  };
}
