/**
 * Entity types against the domain's node templates: which template a model's type means ("persons",
 * "LifeEvent", "organisation"), which types are generic, which two types may merge, and the
 * normalisation step that rewrites types to template names (step 7).
 */
import type { DomainDefinition, NodeTemplateDefinition } from '../../sources/index.ts';
import type { FinalizeStats } from '../types.ts';
import type { WorkEntity } from './model.ts';

/** Types that say nothing about the entity; they are compatible with every type. */
export const GENERIC_TYPES: ReadonlySet<string> = new Set([
  '',
  'unknown',
  'thing',
  'entity',
  'item',
  'object',
  'concept',
  'other',
  'misc',
  'miscellaneous',
  'none',
  'n/a',
  'unspecified',
  'generic',
]);

/**
 * Model types that mean a template of another name. Kept small on purpose: each line is a sense every
 * domain shares (a person, an organisation, a place, a company), and a synonym only applies when the
 * domain has the target template and not the type itself. Targets are tried in order.
 */
const SYNONYMS: Record<string, string[]> = {
  people: ['person'],
  individual: ['person'],
  human: ['person'],
  'human being': ['person'],
  org: ['organization'],
  organisation: ['organization'],
  location: ['place'],
  place: ['location'],
  city: ['place', 'location'],
  town: ['place', 'location'],
  country: ['place', 'location'],
  company: ['company', 'organization'],
  corporation: ['company', 'organization'],
  firm: ['company', 'organization'],
  business: ['company', 'organization'],
};

/** Lower case, camel case split, underscores, hyphens and runs of spaces made one space. */
export function typeKey(type: string): string {
  return type
    .trim()
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

function singular(word: string): string {
  if (word === 'people') return 'person';
  if (word === 'persons') return 'person';
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (/[^su]s$/.test(word) && !/(?:is|ss|us)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The spellings a type may take for the same template: singular last word, -isation/-ization, no spaces. */
function variants(key: string): string[] {
  const words = key.split(' ');
  const single = [...words.slice(0, -1), singular(words.at(-1)!)].join(' ');
  const out = new Set<string>();
  for (const form of [key, single]) {
    const american = form.replace(/isation\b/g, 'ization').replace(/ise\b/g, 'ize');
    for (const spelling of [form, american]) {
      out.add(spelling);
      out.add(spelling.replace(/ /g, ''));
    }
  }
  return [...out];
}

export class TypeResolver {
  private readonly templates = new Map<string, NodeTemplateDefinition>();
  private readonly cache = new Map<string, NodeTemplateDefinition | null>();
  private readonly identities = new Map<string, string>();

  constructor(domain: DomainDefinition) {
    for (const template of domain.templates.node_templates) {
      const key = typeKey(template.name);
      this.templates.set(key, template);
      this.templates.set(key.replace(/ /g, ''), template);
    }
  }

  /** The node template a model's type means, or null. */
  template(type: string): NodeTemplateDefinition | null {
    let found = this.cache.get(type);
    if (found !== undefined) return found;
    const key = typeKey(type);
    found = null;
    for (const variant of variants(key)) {
      found = this.templates.get(variant) ?? null;
      if (found) break;
    }
    if (!found) {
      const synonymOf = variants(key)
        .map((variant) => SYNONYMS[variant])
        .find((targets) => targets !== undefined);
      for (const target of synonymOf ?? []) {
        found = this.templates.get(target) ?? null;
        if (found) break;
      }
    }
    this.cache.set(type, found);
    return found;
  }

  isGeneric(type: string): boolean {
    return this.identity(type) === '';
  }

  /** What two types are compared by: the template they mean, else their singular key; '' for a generic type. */
  identity(type: string): string {
    let identity = this.identities.get(type);
    if (identity === undefined) {
      const key = typeKey(type);
      const template = this.template(type);
      const words = key.split(' ');
      if (GENERIC_TYPES.has(key)) identity = '';
      else if (template) identity = `template:${template.name.toLowerCase()}`;
      else identity = [...words.slice(0, -1), singular(words.at(-1)!)].join(' ');
      this.identities.set(type, identity);
    }
    return identity;
  }

  /** Equal (case-insensitively, through the templates), or one of them generic. */
  compatible(left: string, right: string): boolean {
    const a = this.identity(left);
    const b = this.identity(right);
    return a === '' || b === '' || a === b;
  }

  /** The more specific of two compatible types (the first when both are). */
  specific(left: string, right: string): string {
    return this.identity(left) === '' && this.identity(right) !== '' ? right : left;
  }

  /**
   * Whether entities of this type are proper-named things, for which "Curie" may stand for "Marie Curie":
   * the template's `requires_named_referent`, or null when the type is no template of the domain.
   */
  namedReferent(type: string): boolean | null {
    return this.template(type)?.requires_named_referent ?? null;
  }
}

/** Step 7: each type becomes the template name it means; the model's type is kept in `typeNormalizedFrom`. */
export function normalizeTypes(entities: WorkEntity[], resolver: TypeResolver, stats: FinalizeStats): void {
  for (const entity of entities) {
    const template = resolver.template(entity.type);
    if (!template || template.name === entity.type) continue;
    entity.typeNormalizedFrom = entity.type;
    entity.type = template.name;
    stats.typesNormalized++;
  }
}
