import type { NamedKind } from './nlp.ts';

/**
 * What the builtin extractor can tell about an entity: compromise's three kinds, a creative work, the
 * technical kinds (software, programming language, command, protocol, data format, setting, file,
 * code, document), or nothing more.
 */
export type EntityKind =
  | NamedKind
  | 'work'
  | 'software'
  | 'language'
  | 'command'
  | 'protocol'
  | 'format'
  | 'setting'
  | 'file'
  | 'code'
  | 'document'
  | 'standard'
  | 'generic';

/** Node-type names that mean each kind, most specific first. */
const kindWords: Record<EntityKind, readonly string[]> = {
  person: ['person', 'people', 'individual', 'human', 'character', 'author'],
  place: ['place', 'location', 'city', 'country', 'region', 'geography', 'gpe'],
  organisation: ['organization', 'organisation', 'org', 'institution', 'company', 'agency', 'group'],
  work: ['creative work', 'work', 'film', 'book', 'publication', 'artwork', 'creation'],
  software: [
    'software project',
    'software',
    'application',
    'program',
    'library',
    'package',
    'tool',
    'technology',
    'product',
  ],
  language: ['programming language', 'language'],
  command: ['command', 'executable', 'cli'],
  protocol: ['protocol', 'standard'],
  format: ['file format', 'data format', 'format'],
  setting: ['configuration option', 'setting', 'option', 'parameter', 'variable'],
  file: ['file', 'path', 'directory'],
  code: ['function', 'method', 'class', 'module'],
  document: ['document', 'specification', 'standard', 'manual', 'licence', 'license', 'publication'],
  standard: ['standard', 'specification', 'rfc'],
  generic: ['entity', 'concept', 'thing', 'topic', 'item', 'object', 'term', 'other'],
};

/**
 * Where a kind goes when the domain has no type for it: a command, a language or a data store is still
 * software; a format is a kind of protocol or standard in a domain that has one but not the other.
 */
const kindFallbacks: Partial<Record<EntityKind, readonly EntityKind[]>> = {
  language: ['software'],
  command: ['software'],
  protocol: ['format', 'software'],
  format: ['protocol', 'software'],
  code: ['software'],
  document: ['work'],
  // An RFC is a document; a domain without documents has protocols and standards.
  standard: ['document', 'protocol'],
};

const defaultTypeName: Record<EntityKind, string> = {
  person: 'Person',
  place: 'Place',
  organisation: 'Organization',
  work: 'Work',
  software: 'Software',
  language: 'Programming Language',
  command: 'Command',
  protocol: 'Protocol',
  format: 'File Format',
  setting: 'Setting',
  file: 'File',
  code: 'Function',
  document: 'Document',
  standard: 'Standard',
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
 * "Geographic Location"); else one named for the kind's fallbacks (a command is software); else the
 * domain's generic type (Entity, Concept, Thing, …); else "Entity". With no node types at all the
 * kind's own name is used (Person, Place, Organization, Software, …, Entity).
 */
export function nodeTypeFor(kind: EntityKind, nodeTypes: readonly string[]): string {
  if (nodeTypes.length === 0) return defaultTypeName[kind];
  if (kind !== 'generic') {
    for (const candidate of [kind, ...(kindFallbacks[kind] ?? [])]) {
      const found = findType(nodeTypes, candidate);
      if (found) return found;
    }
  }
  return findType(nodeTypes, 'generic') ?? 'Entity';
}

/** The kind a node-type name stands for, the reverse of `nodeTypeFor`. */
export function kindOfType(typeName: string): EntityKind {
  const parts = words(typeName);
  const whole = parts.join(' ');
  const kinds = [
    'person',
    'place',
    'organisation',
    'work',
    'language',
    'command',
    // Before protocol and document, which also take "standard" and "specification" for their own.
    'standard',
    'protocol',
    'format',
    'setting',
    'file',
    'code',
    'document',
    'software',
  ] as const;
  for (const kind of kinds) if (kindWords[kind].includes(whole)) return kind;
  for (const kind of kinds) {
    if (parts.some((part) => kindWords[kind].includes(part))) return kind;
  }
  return 'generic';
}
