import type { PassItem } from './passes.ts';
import { foldText, snakeCase } from './text-match.ts';

/**
 * The entity pass's records as entities: each P line attached to the E line it numbers (the model's
 * own 0-based order of E lines, unreadable ones included), then E lines that name the same thing
 * (same name, ignoring case and diacritics) merged into the first of them.
 */

export interface RawEntity {
  name: string;
  type: string;
  aliases: string[];
  confidence: number;
  /** Sentence numbers the model cited (may point outside the group). */
  refs: number[];
  description: string;
  properties: Record<string, string>;
}

/** A repeated key keeps each distinct value, joined with "; ". */
function addProperty(properties: Record<string, string>, rawKey: string, rawValue: string): void {
  const key = snakeCase(rawKey);
  const value = rawValue.trim();
  if (!key || !value) return;
  const previous = properties[key];
  if (previous === undefined) properties[key] = value;
  else if (!previous.split('; ').some((item) => foldText(item) === foldText(value)))
    properties[key] = `${previous}; ${value}`;
}

function merge(into: RawEntity, from: RawEntity): void {
  into.refs = [...new Set([...into.refs, ...from.refs])].sort((a, b) => a - b);
  into.aliases = [...into.aliases, ...from.aliases];
  into.confidence = Math.max(into.confidence, from.confidence);
  if (from.description.length > into.description.length) into.description = from.description;
  for (const [key, value] of Object.entries(from.properties)) addProperty(into.properties, key, value);
}

export function collectEntities(items: readonly PassItem[]): RawEntity[] {
  const slots: (RawEntity | null)[] = [];
  for (const item of items) {
    if (item.kind === 'unreadable_entity') slots.push(null);
    else if (item.kind === 'entity') {
      slots.push({
        name: item.name.replace(/\s+/g, ' ').trim(),
        type: item.type.replace(/\s+/g, ' ').trim(),
        aliases: item.aliases.map((alias) => alias.replace(/\s+/g, ' ').trim()).filter(Boolean),
        confidence: Math.min(1, Math.max(0, item.confidence)),
        refs: [...item.sentenceRefs],
        description: item.description.trim(),
        properties: {},
      });
    } else if (item.kind === 'property') {
      const owner = slots[item.entityIndex];
      if (owner) addProperty(owner.properties, item.key, item.value);
    }
  }
  const byName = new Map<string, RawEntity>();
  for (const entity of slots) {
    if (!entity) continue;
    const key = foldText(entity.name);
    const first = byName.get(key);
    if (first) merge(first, entity);
    else byName.set(key, entity);
  }
  return [...byName.values()];
}
