/**
 * The words right before a name that say how it relates to the sentence's subject or to the name
 * before it ("born in", "daughter of", "directed by", "starring"), and how each canonical relation is
 * spelled among a domain's edge types.
 */

export type CanonicalRelation =
  | 'born_in'
  | 'died_in'
  | 'married_to'
  | 'child_of'
  | 'parent_of'
  | 'sibling_of'
  | 'directed'
  | 'acted_in'
  | 'produced'
  | 'founded'
  | 'works_at'
  | 'member_of'
  | 'educated_at'
  | 'located_in';

export interface Cue {
  relation: CanonicalRelation;
  /** The named entity is the relation's source, the subject its target ("directed by X": X directed it). */
  agent: boolean;
  /** The cue names a role of the name before it ("Bertha, daughter of Lothair"): that name is the other end. */
  appositive: boolean;
}

const rules: [RegExp, CanonicalRelation, { agent?: boolean; appositive?: boolean }?][] = [
  [/\bborn\b(?: \S+){0,5} (?:in|at)$/, 'born_in'],
  [/\bdied\b(?: \S+){0,5} (?:in|at)$/, 'died_in'],
  [
    /\b(?:married|marriage to|married to|wife of|husband of|widow of|widower of|spouse of|(?:his|her) (?:wife|husband|spouse))$/,
    'married_to',
    { appositive: true },
  ],
  [
    /\b(?:son|daughter|child|children|heir) of$|\b(?:his|her|their) (?:father|mother|parents?)$/,
    'child_of',
    { appositive: true },
  ],
  [
    /\b(?:father|mother|parent) of$|\b(?:his|her|their) (?:sons?|daughters?|children|child)$/,
    'parent_of',
    { appositive: true },
  ],
  [
    /\b(?:brother|sister|sibling|half-brother|half-sister) of$|\b(?:his|her|their) (?:brothers?|sisters?|siblings?)$/,
    'sibling_of',
    { appositive: true },
  ],
  [/\bdirected by$/, 'directed', { agent: true }],
  [/\b(?:starring|stars|starred|co-starring|featuring)$/, 'acted_in', { agent: true }],
  [/\bproduced by$/, 'produced', { agent: true }],
  [/\b(?:founded|established|co-founded|formed|created) by$/, 'founded', { agent: true }],
  [/\b(?:founded|co-founded|established|founder of|co-founder of)$/, 'founded'],
  [
    /\b(?:studied|educated|graduated|attended|alumnus|alumna|student)\b(?: \S+){0,3} (?:at|from|of)$|\battended$/,
    'educated_at',
  ],
  [
    /\b(?:work|works|worked|working|employed|taught|teaches|professor|lecturer|coach|director|researcher|scientist|engineer)\b(?: \S+){0,4} (?:at|for|of)$/,
    'works_at',
  ],
  [
    /\b(?:member|joined|joining|plays|played|playing|player|forward|midfielder|defender|goalkeeper|signed)\b(?: \S+){0,3} (?:of|for|with|by)$|\bjoined$/,
    'member_of',
  ],
  [
    /\b(?:located|situated|based|headquartered|lies|lying|formed|founded|established)\b(?: \S+){0,3} (?:in|at)$|^(?:is|was) in$/,
    'located_in',
  ],
];

/** The cue ending the words before a name (lowercase, single spaces), if there is one. */
export function cueBefore(words: string): Cue | null {
  words = words.replace(/(?: (?:the|a|an))+$/, '');
  for (const [pattern, relation, options] of rules) {
    if (pattern.test(words))
      return { relation, agent: options?.agent ?? false, appositive: options?.appositive ?? false };
  }
  return null;
}

/** Each relation's other spellings in domain edge types, and its inverse (used reversed when only it exists). */
const spellings: Record<CanonicalRelation, { names: string[]; inverse?: string[] }> = {
  born_in: { names: ['born_in', 'birthplace'] },
  died_in: { names: ['died_in', 'place_of_death'] },
  married_to: { names: ['married_to', 'spouse_of', 'married'] },
  child_of: { names: ['child_of'], inverse: ['parent_of'] },
  parent_of: { names: ['parent_of'], inverse: ['child_of'] },
  sibling_of: { names: ['sibling_of'] },
  directed: { names: ['directed', 'director_of'], inverse: ['directed_by'] },
  acted_in: { names: ['acted_in', 'starred_in', 'appears_in'], inverse: ['stars', 'starring'] },
  produced: { names: ['produced', 'producer_of'], inverse: ['produced_by'] },
  founded: { names: ['founded', 'founder_of'], inverse: ['founded_by'] },
  works_at: { names: ['works_at', 'works_for', 'employed_by'], inverse: ['employs'] },
  member_of: { names: ['member_of'], inverse: ['has_member'] },
  educated_at: { names: ['educated_at', 'studied_at', 'alumnus_of'], inverse: ['alma_mater_of'] },
  located_in: { names: ['located_in', 'based_in'], inverse: ['contains'] },
};

const snake = (type: string) =>
  type
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * The domain's edge type for a relation: its own name or another spelling, else its inverse (to be
 * written reversed), else the canonical name itself.
 */
export function domainSpelling(
  relation: CanonicalRelation,
  edgeTypes: readonly string[],
): { type: string; reversed: boolean } {
  const find = (names: readonly string[]) => edgeTypes.find((type) => names.includes(snake(type)));
  const own = find(spellings[relation].names);
  if (own) return { type: own, reversed: false };
  const inverse = find(spellings[relation].inverse ?? []);
  return inverse ? { type: inverse, reversed: true } : { type: relation, reversed: false };
}
