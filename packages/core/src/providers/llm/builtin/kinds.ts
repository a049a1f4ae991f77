import type { NamedKind } from './nlp.ts';

/** What the builtin extractor can tell about an entity: compromise's three kinds, a creative work, or nothing more. */
export type EntityKind = NamedKind | 'work' | 'generic';

/** Node-type names that mean each kind, most specific first. */
const kindWords: Record<EntityKind, readonly string[]> = {
  person: ['person', 'people', 'individual', 'human', 'character', 'author'],
  place: ['place', 'location', 'city', 'country', 'region', 'geography', 'gpe'],
  organisation: ['organization', 'organisation', 'org', 'institution', 'company', 'agency', 'group'],
  work: ['creative work', 'work', 'film', 'book', 'publication', 'artwork', 'creation'],
  generic: ['entity', 'concept', 'thing', 'topic', 'item', 'object', 'term', 'other'],
};

const defaultTypeName: Record<EntityKind, string> = {
  person: 'Person',
  place: 'Place',
  organisation: 'Organization',
  work: 'Work',
  generic: 'Entity',
};

function words(typeName: string): string[] {
  return typeName
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

function findType(nodeTypes: readonly string[], kind: EntityKind): string | undefined {
  for (const word of kindWords[kind]) {
    const exact = nodeTypes.find((type) => words(type).join(' ') === word);
    if (exact) return exact;
  }
  return nodeTypes.find((type) => words(type).some((part) => kindWords[kind].includes(part)));
}

/**
 * The domain node type for a kind. Rule: a node type named for the kind (case-insensitive: Person,
 * Location, Organisation, … — a whole name first, then a word within a longer name such as
 * "Geographic Location"); else the domain's generic type (Entity, Concept, Thing, …); else "Entity".
 * With no node types at all the kind's own name is used (Person, Place, Organization, Entity).
 */
export function nodeTypeFor(kind: EntityKind, nodeTypes: readonly string[]): string {
  if (nodeTypes.length === 0) return defaultTypeName[kind];
  return (kind === 'generic' ? undefined : findType(nodeTypes, kind)) ?? findType(nodeTypes, 'generic') ?? 'Entity';
}

/** The kind a node-type name stands for, the reverse of `nodeTypeFor`. */
export function kindOfType(typeName: string): EntityKind {
  const parts = words(typeName);
  for (const kind of ['person', 'place', 'organisation', 'work'] as const) {
    if (parts.some((part) => kindWords[kind].includes(part))) return kind;
  }
  return 'generic';
}
