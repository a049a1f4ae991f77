/**
 * Alias cleanup before any dedup. An alias is a name an entity goes by; pronouns and descriptors ("he",
 * "the physicist", "her husband") are not, and would make unrelated entities look alike to the
 * name↔alias rule and the shared-alias bonus.
 */
import { normalizeNameKey } from './names.ts';

const PRONOUNS: ReadonlySet<string> = new Set([
  'he',
  'she',
  'it',
  'they',
  'him',
  'her',
  'them',
  'his',
  'hers',
  'its',
  'their',
  'theirs',
  'we',
  'us',
  'our',
  'i',
  'me',
  'my',
  'you',
  'your',
  'himself',
  'herself',
  'itself',
  'themselves',
  'this',
  'that',
  'these',
  'those',
]);
const DETERMINERS = /^(?:the|a|an|this|that|these|those|his|her|its|their|our|my|your)\s+/i;

/** "the physicist", "her husband": a determiner followed only by lower-case words. */
function isDescriptor(alias: string): boolean {
  const match = DETERMINERS.exec(alias);
  if (!match) return false;
  const rest = alias.slice(match[0].length);
  return rest === rest.toLowerCase();
}

/**
 * An entity's usable aliases: trimmed, not its own name, not a pronoun or descriptor, at least
 * `minLength` characters (the preset's `minAliasLength`), one per key, first spelling kept.
 */
export function cleanAliases(name: string, aliases: readonly string[], minLength: number): string[] {
  const seen = new Set([normalizeNameKey(name)]);
  const out: string[] = [];
  for (const raw of aliases) {
    const alias = raw.trim().replace(/\s+/g, ' ');
    const key = normalizeNameKey(alias);
    if (key.length === 0 || key.length < minLength || seen.has(key) || PRONOUNS.has(key) || isDescriptor(alias))
      continue;
    seen.add(key);
    out.push(alias);
  }
  return out;
}
