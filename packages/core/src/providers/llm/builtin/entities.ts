import type { EntityRecord } from '../line-grammar.ts';
import { organisationHeads, placeHeads, places } from './gazetteer.ts';
import { nodeTypeFor, type EntityKind } from './kinds.ts';
import { nameMentions } from './mentions.ts';
import { nameKey, type BuiltinNlp, type NamedKind, type Token } from './nlp.ts';
import { isDemonym, stripTitles } from './readable.ts';

/**
 * The entity pass without a model: name spans (mentions.ts) cleaned of what a reader would not call
 * an entity (nationalities become a `nationality` property of the person the sentence is about, titles
 * a `title` property), typed, and merged across sentences.
 *
 * The type comes from, in order: the sentence's shape (a definition's noun, a quoted title), the
 * gazetteers (countries, states and cities are places; a name ending in "University", "Center",
 * "Records" … is an organisation, one ending in "River", "County" … a place), what compromise
 * recognises, a stripped title (a person), and a place preposition ("born in", "located in").
 *
 * Confidence says how the type was found: 0.9 from the sentence's shape, a gazetteer or compromise
 * naming exactly this span; 0.8 from compromise naming a name containing it or contained in it, or
 * from a title or place preposition; 0.7 for an untyped multi-word name, 0.6 for an untyped single
 * word; +0.05 when the entity is mentioned in more than one sentence.
 */

export type BuiltinEntity = Omit<EntityRecord, 'kind'> & { properties: Record<string, string> };

interface Group {
  key: string;
  name: string;
  kind: EntityKind;
  confidence: number;
  refs: Set<number>;
  aliases: Set<string>;
  properties: Map<string, Set<string>>;
  /** Sentence and token position of the first mention, for output order. */
  firstSeen: [number, number];
}

/** Words that join two names into a third ("University of Paris"), unlike particles such as "van". */
const joiningWords = new Set(['of', 'the', 'and', '&', 'for']);
const PLACE_CUES = new Set(['born in', 'died in', 'located in', 'based in', 'situated in', 'born at', 'died at']);

function containsWords(longer: string, shorter: string): boolean {
  return ` ${longer} `.includes(` ${shorter} `);
}

/** Compromise's kind; containment only counts without "of": "Paris" is not a kind of "University of Paris". */
function namedKind(key: string, named: Map<string, NamedKind>): { kind: EntityKind; confidence: number } | null {
  const exact = named.get(key);
  if (exact) return { kind: exact, confidence: 0.9 };
  if (containsWords(key, 'of')) return null;
  for (const [name, kind] of named) {
    if (!containsWords(name, 'of') && (containsWords(name, key) || containsWords(key, name)))
      return { kind, confidence: 0.8 };
  }
  return null;
}

/** A kind the words of the name give away: a known place, or a head word such as "University" or "River". */
function gazetteerKind(key: string): EntityKind | null {
  if (places.has(key)) return 'place';
  const words = key.replace(/['’]s\b/g, '').split(/[\s-]+/);
  const last = words[words.length - 1];
  const head = words[1] === 'of' ? words[0] : last;
  if (organisationHeads.has(head) || organisationHeads.has(last)) return 'organisation';
  if (placeHeads.has(head) || placeHeads.has(last)) return 'place';
  return null;
}

interface SpanFacts {
  key: string;
  shapeKind: EntityKind | null;
  titled: boolean;
  before: string;
}

function classify(facts: SpanFacts, named: Map<string, NamedKind>): { kind: EntityKind; confidence: number } {
  if (facts.shapeKind) return { kind: facts.shapeKind, confidence: 0.9 };
  const fromGazetteer = gazetteerKind(facts.key);
  if (fromGazetteer) return { kind: fromGazetteer, confidence: 0.9 };
  const fromCompromise = namedKind(facts.key, named);
  if (fromCompromise) return fromCompromise;
  if (facts.titled) return { kind: 'person', confidence: 0.8 };
  if (PLACE_CUES.has(facts.before)) return { kind: 'place', confidence: 0.8 };
  return { kind: 'generic', confidence: facts.key.includes(' ') ? 0.7 : 0.6 };
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
    const suffix =
      longWords.slice(-n).join(' ') === short.key && !joiningWords.has(longWords[longWords.length - n - 1]);
    if (prefix || suffix) owners.push(long);
  }
  if (owners.length > 1) return 'ambiguous';
  return owners[0] ?? null;
}

function addProperty(group: Group, key: string, value: string): void {
  const values = group.properties.get(key) ?? new Set<string>();
  values.add(value);
  group.properties.set(key, values);
}

/** The two words before a span, lowercased: "born in". */
function wordsBefore(tokens: readonly Token[], from: number): string {
  return tokens
    .slice(Math.max(0, from - 2), from)
    .map((token) => token.key)
    .join(' ');
}

interface Collected {
  groups: Map<string, Group>;
  /** Nationalities per sentence index, given to the person the sentence is about. */
  nationalities: Map<number, string[]>;
}

function collectMentions(nlp: BuiltinNlp, sentences: readonly string[]): Collected {
  const groups = new Map<string, Group>();
  const nationalities = new Map<number, string[]>();
  sentences.forEach((sentence, index) => {
    const named = nlp.namedMentions(sentence);
    const knownNames = [...named.keys()].map((name) => nlp.tokens(name).map((token) => token.key));
    const tokens = nlp.tokens(sentence);
    for (const mention of nameMentions(tokens, knownNames, new Set(named.keys()))) {
      if (isDemonym(mention.text)) {
        nationalities.set(index, [...(nationalities.get(index) ?? []), mention.text]);
        continue;
      }
      const whole = nameKey(mention.text);
      const keepsTitle = mention.kind !== null && mention.kind !== 'person';
      const organisation =
        named.get(whole) === 'organisation' || named.get(whole) === 'place' || gazetteerKind(whole) !== null;
      const { name, title } =
        keepsTitle || organisation ? { name: mention.text, title: null } : stripTitles(mention.text);
      const key = nameKey(name);
      if (!key) continue;
      const { kind, confidence } = classify(
        { key, shapeKind: mention.kind, titled: title !== null, before: wordsBefore(tokens, mention.from) },
        named,
      );
      let group = groups.get(key);
      if (!group) {
        group = {
          key,
          name,
          kind,
          confidence,
          refs: new Set(),
          aliases: new Set(),
          properties: new Map(),
          firstSeen: [index, mention.from],
        };
        groups.set(key, group);
      } else if (confidence > group.confidence) Object.assign(group, { kind, confidence });
      group.refs.add(index + 1);
      if (title) addProperty(group, 'title', title);
      if (mention.acronym) group.aliases.add(mention.acronym);
    }
  });
  return { groups, nationalities };
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
    for (const [key, values] of short.properties) for (const value of values) addProperty(owner, key, value);
    owner.confidence = Math.max(owner.confidence, short.confidence);
    if (owner.kind === 'generic') owner.kind = short.kind;
    if (compareFirstSeen(short, owner) < 0) owner.firstSeen = short.firstSeen;
  }
}

/** "Scottish inventor" goes to the person the sentence names first, else to the last person named before it. */
function assignNationalities(groups: Iterable<Group>, nationalities: Map<number, string[]>): void {
  const people = [...groups].filter((group) => group.kind === 'person').sort(compareFirstSeen);
  for (const [index, values] of nationalities) {
    const owner =
      people.find((person) => person.refs.has(index + 1)) ??
      people.filter((person) => person.firstSeen[0] <= index).at(-1);
    for (const value of values) if (owner) addProperty(owner, 'nationality', value);
  }
}

export function extractEntities(
  nlp: BuiltinNlp,
  sentences: readonly string[],
  nodeTypes: readonly string[],
): BuiltinEntity[] {
  const { groups, nationalities } = collectMentions(nlp, sentences);
  mergeShortNames(groups);
  assignNationalities(groups.values(), nationalities);
  return [...groups.values()].sort(compareFirstSeen).map((group) => {
    const refs = [...group.refs].sort((a, b) => a - b);
    return {
      name: group.name,
      type: nodeTypeFor(group.kind, nodeTypes),
      aliases: [...group.aliases],
      confidence: Math.min(0.95, group.confidence + (refs.length > 1 ? 0.05 : 0)),
      sentenceRefs: refs,
      description: sentences[refs[0] - 1].trim(),
      properties: Object.fromEntries([...group.properties].map(([key, values]) => [key, [...values].join('; ')])),
    };
  });
}
