import type { EntityRecord } from '../line-grammar.ts';
import { nodeTypeFor, type EntityKind } from './kinds.ts';
import { nameKey, properNounSpans, type BuiltinNlp, type NamedKind } from './nlp.ts';

/**
 * The entity pass without a model: proper-noun spans from wink-nlp, typed by what compromise
 * recognises, merged across sentences.
 *
 * Confidence says how the span was recognised: 0.9 when compromise names exactly this span, 0.8 when
 * it names a name containing it or contained in it, 0.7 for an untyped multi-word proper noun, 0.6 for
 * an untyped single word; +0.05 when the entity is mentioned in more than one sentence.
 */

interface Group {
  key: string;
  name: string;
  kind: EntityKind;
  confidence: number;
  refs: Set<number>;
  aliases: Set<string>;
  /** Sentence and token position of the first mention, for output order. */
  firstSeen: [number, number];
}

/** Words that join two names into a third ("University of Paris"), unlike particles such as "van". */
const joiningWords = new Set(['of', 'the', 'and', '&', 'for']);

function containsWords(longer: string, shorter: string): boolean {
  return ` ${longer} `.includes(` ${shorter} `);
}

/** Containment only counts without "of": "Paris" is not a kind of "University of Paris". */
function classify(key: string, named: Map<string, NamedKind>): { kind: EntityKind; confidence: number } {
  const exact = named.get(key);
  if (exact) return { kind: exact, confidence: 0.9 };
  if (!containsWords(key, 'of')) {
    for (const [name, kind] of named) {
      if (!containsWords(name, 'of') && (containsWords(name, key) || containsWords(key, name))) return { kind, confidence: 0.8 };
    }
  }
  return { kind: 'generic', confidence: key.includes(' ') ? 0.7 : 0.6 };
}

function compatible(a: EntityKind, b: EntityKind): boolean {
  return a === b || a === 'generic' || b === 'generic';
}

/**
 * The longer name a shorter one abbreviates, if exactly one qualifies: the shorter is its first or
 * last words ("Curie" of "Marie Curie"), not cut at a connector ("Paris" of "University of Paris"),
 * and the kinds agree. An ambiguous short name ("Curie" with Marie and Pierre Curie) has no owner.
 */
function ownerOf(short: Group, groups: Iterable<Group>): Group | null | 'ambiguous' {
  const shortWords = short.key.split(' ');
  const owners: Group[] = [];
  for (const long of groups) {
    const longWords = long.key.split(' ');
    if (longWords.length <= shortWords.length || !compatible(short.kind, long.kind)) continue;
    const n = shortWords.length;
    const prefix = longWords.slice(0, n).join(' ') === short.key && !joiningWords.has(longWords[n]);
    const suffix = longWords.slice(-n).join(' ') === short.key && !joiningWords.has(longWords[longWords.length - n - 1]);
    if (prefix || suffix) owners.push(long);
  }
  if (owners.length > 1) return 'ambiguous';
  return owners[0] ?? null;
}

function collectMentions(nlp: BuiltinNlp, sentences: readonly string[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  sentences.forEach((sentence, index) => {
    const named = nlp.namedMentions(sentence);
    const knownNames = [...named.keys()].map((name) => nlp.tokens(name).map((token) => token.key));
    for (const span of properNounSpans(nlp.tokens(sentence), knownNames)) {
      const key = nameKey(span.text);
      if (!key) continue;
      const { kind, confidence } = classify(key, named);
      const group = groups.get(key);
      if (!group) {
        groups.set(key, { key, name: span.text, kind, confidence, refs: new Set([index + 1]), aliases: new Set(), firstSeen: [index, span.from] });
        continue;
      }
      group.refs.add(index + 1);
      if (confidence > group.confidence) Object.assign(group, { kind, confidence });
    }
  });
  return groups;
}

function compareFirstSeen(a: Group, b: Group): number {
  return a.firstSeen[0] - b.firstSeen[0] || a.firstSeen[1] - b.firstSeen[1];
}

function mergeShortNames(groups: Map<string, Group>): void {
  const byLength = [...groups.values()].sort((a, b) => a.key.split(' ').length - b.key.split(' ').length);
  for (const short of byLength) {
    const owner = ownerOf(short, groups.values());
    if (owner === null) continue;
    groups.delete(short.key);
    if (owner === 'ambiguous') continue;
    owner.aliases.add(short.name);
    for (const alias of short.aliases) owner.aliases.add(alias);
    for (const ref of short.refs) owner.refs.add(ref);
    owner.confidence = Math.max(owner.confidence, short.confidence);
    if (owner.kind === 'generic') owner.kind = short.kind;
    if (compareFirstSeen(short, owner) < 0) owner.firstSeen = short.firstSeen;
  }
}

export function extractEntities(nlp: BuiltinNlp, sentences: readonly string[], nodeTypes: readonly string[]): Omit<EntityRecord, 'kind'>[] {
  const groups = collectMentions(nlp, sentences);
  mergeShortNames(groups);
  return [...groups.values()]
    .sort(compareFirstSeen)
    .map((group) => {
      const refs = [...group.refs].sort((a, b) => a - b);
      return {
        name: group.name,
        type: nodeTypeFor(group.kind, nodeTypes),
        aliases: [...group.aliases],
        confidence: Math.min(0.95, group.confidence + (refs.length > 1 ? 0.05 : 0)),
        sentenceRefs: refs,
        description: sentences[refs[0] - 1].trim(),
      };
    });
}
