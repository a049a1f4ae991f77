import type { EntityKind } from './kinds.ts';

/**
 * The words right before a name that say how it relates to the sentence's subject or to the name
 * before it ("born in", "daughter of", "directed by", "written by", "depends on", "the capital of"),
 * and how each canonical relation is spelled among a domain's edge types. Each canonical relation
 * reads from its actor or part to the other end: a person wrote a book, a film is part of a series, a
 * program depends on a library, a city is the capital of a country, a program is licensed under a licence.
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
  | 'wrote'
  | 'composed'
  | 'published'
  | 'developed'
  | 'created'
  | 'founded'
  | 'leads'
  | 'acquired'
  | 'works_at'
  | 'member_of'
  | 'educated_at'
  | 'collaborates_with'
  | 'received_award'
  | 'successor_of'
  | 'capital_of'
  | 'part_of'
  | 'located_in'
  | 'written_in'
  | 'implements'
  | 'depends_on'
  | 'uses'
  | 'licensed_under';

export interface Cue {
  relation: CanonicalRelation;
  /** The named entity is the relation's source, the subject its target ("directed by X": X directed it). */
  agent: boolean;
  /** The cue names a role of the name before it ("Bertha, daughter of Lothair"): that name is the other end. */
  appositive: boolean;
  /** Kinds the named entity cannot be for the cue to hold ("written in Paris" is no language). */
  notOf: readonly EntityKind[];
  /** The word the name must be followed by, if any ("" for none): "for the PNG format", not "for USB device access". */
  followedBy: RegExp | null;
}

interface CueOptions {
  agent?: boolean;
  appositive?: boolean;
  notOf?: readonly EntityKind[];
  followedBy?: RegExp;
}

/** "… by" after the verb, with a few words between ("created in the early 1990s by"). */
const by = (verbs: string) => new RegExp(`\\b(?:${verbs})\\b(?: \\S+){0,5} by$`);
/** A person's kin is never a place, an organisation or a work ("daughter of the Queen of Aragon" names no Aragon). */
const KIN_NOT_OF: readonly EntityKind[] = ['place', 'organisation', 'work'];
const relatives = 'father|mother|brother|sister|uncle|aunt|cousin|son|daughter|nephew|niece|husband|wife|grandfather';

/** First match wins: the passive "… by" cues come before the active verbs they share words with. */
const rules: [RegExp, CanonicalRelation, CueOptions?][] = [
  [/\bborn\b(?: \S+){0,5} (?:in|at)$/, 'born_in'],
  [/\bdied\b(?: \S+){0,5} (?:in|at)$/, 'died_in'],
  [
    /\b(?:married|marriage to|married to|wife of|husband of|widow of|widower of|spouse of|(?:his|her) (?:(?:first|second|third) )?(?:wife|husband|spouse))$/,
    'married_to',
    { appositive: true, notOf: KIN_NOT_OF },
  ],
  [
    /\b(?:son|daughter|child|children|heir) of$|\b(?:his|her|their) (?:father|mother|parents?)$/,
    'child_of',
    { appositive: true, notOf: KIN_NOT_OF },
  ],
  [
    /\b(?:father|mother|parent) of$|\b(?:his|her|their) (?:sons?|daughters?|children|child)$/,
    'parent_of',
    { appositive: true, notOf: KIN_NOT_OF },
  ],
  [
    /\b(?:brother|sister|sibling|half-brother|half-sister) of$|\b(?:his|her|their) (?:brothers?|sisters?|siblings?)$/,
    'sibling_of',
    { appositive: true, notOf: KIN_NOT_OF },
  ],
  [by('directed'), 'directed', { agent: true }],
  [/\b(?:starring|stars|starred|co-starring|featuring)$/, 'acted_in', { agent: true }],
  [/\b(?:played|portrayed) by$/, 'acted_in', { agent: true }],
  // "She starred in Irony of Fate 2 and appeared in Hitler Goes Kaput": the person's part in a work.
  [
    /\b(?:starred|stars|starring|co-starred|appeared|appears|appearing|acted|cast|role|roles|cameo) in$/,
    'acted_in',
    { notOf: ['person', 'place', 'organisation'] },
  ],
  [by('produced'), 'produced', { agent: true }],
  [/\b(?:written|authored|co-written|penned)\b(?: \S+){0,5} by$/, 'wrote', { agent: true }],
  // "is a novel by X", "the screenplay is by X" — not "based on a novel by X" or "mentioning the new book by X".
  [
    /^(?:(?!\S*ing |based |on |from |after )\S+ ){0,4}(?:novel|book|play|poem|story|screenplay|script|memoir|essay|lyrics)(?: (?:is|was|were))? by$/,
    'wrote',
    { agent: true },
  ],
  [/\b(?:wrote|writes|co-wrote|authored)$|\bauthor of$/, 'wrote', { appositive: true }],
  // "won the prize for her story collection The Salt Roads": a written work a person's possessive owns is theirs.
  [
    /\b(?:for|in|with|of|from|on|through) (?:his|her) (?:(?:first|second|third|latest|new|debut|last|short|story|poetry|essay) ){0,2}(?:novel|book|memoir|poem|essays|collection|novella|story)$/,
    'wrote',
  ],
  [by('composed'), 'composed', { agent: true }],
  [/\b(?:music|score|songs) (?:was |were |is )?(?:\S+ )?by$/, 'composed', { agent: true }],
  [by('published|released|issued'), 'published', { agent: true }],
  [by('developed|maintained'), 'developed', { agent: true }],
  // "OpenAI, the company behind ChatGPT".
  [/\b(?:company|firm|start-up|startup|developer|maker|team) behind$/, 'developed'],
  [/\b(?:developed|develops|maintains|maintained)$|\b(?:developer|maintainer) of$/, 'developed', { appositive: true }],
  [by('founded|established|co-founded|formed'), 'founded', { agent: true }],
  [/\b(?:founded|co-founded|established|founder of|co-founder of)$/, 'founded', { appositive: true }],
  [by('created|invented|designed|devised'), 'created', { agent: true }],
  [/\b(?:created|invented|designed|creator of|inventor of|designer of)$/, 'created', { appositive: true }],
  [by('led|headed|chaired|run'), 'leads', { agent: true }],
  [
    /\b(?:chief executive|chief executive officer|ceo|president|chairman|chairwoman|chair|leader|head|prime minister|mayor|governor) of$|\b(?:leads|led|heads|headed)$/,
    'leads',
    { appositive: true },
  ],
  // "Nvidia's chief executive Jensen Huang": the role of the person after the organisation's possessive.
  [
    /^['’]s (?:chief executive(?: officer)?|ceo|president|chairman|chairwoman|chair|leader|head|boss)$/,
    'leads',
    { agent: true },
  ],
  [/^['’]s (?:founder|co-founder)$/, 'founded', { agent: true }],
  // "Marah Roesli's 1922 novel Sitti Nurbaya": the work after its author's possessive.
  [/^['’]s (?:\S+ ){0,2}(?:novel|book|play|poem|memoir|essay|short story|story)$/, 'wrote'],
  // "Monivong's daughter Sisowath Kosamak", "Siomón's son Muiredach Bolgrach": the kin after the possessive.
  [
    /^['’]s (?:(?:eldest|elder|younger|youngest|only|first|second|third|illegitimate) )?(?:son|daughter|child|heir)$/,
    'child_of',
    { agent: true },
  ],
  [/^['’]s (?:father|mother)$/, 'parent_of', { agent: true }],
  [/^['’]s (?:(?:first|second|third|late) )?(?:wife|husband|spouse|widow|widower)$/, 'married_to', { agent: true }],
  [
    /^['’]s (?:(?:elder|younger|older|twin) )?(?:brother|sister|half-brother|half-sister)$/,
    'sibling_of',
    { agent: true },
  ],
  [by('acquired|bought|purchased'), 'acquired', { agent: true }],
  [
    /\b(?:acquired|bought|acquires|buys|acquisition of|takeover of)$|\b(?:to|will|would) (?:buy|acquire|purchase)$/,
    'acquired',
  ],
  [by('succeeded|superseded|replaced|followed'), 'successor_of', { agent: true }],
  [
    new RegExp(
      `\\b(?:succeeded|succeeds|succeeding|superseded|supersedes|replaced|replaces|replacing)(?: (?:his|her|their))?(?: (?:${relatives}))?$|\\bsuccessor (?:of|to)$`,
    ),
    'successor_of',
    { appositive: true },
  ],
  [
    /\b(?:won|wins|received|receives|awarded|winner of|recipient of)$/,
    'received_award',
    { notOf: ['person', 'place', 'organisation'] },
  ],
  // "shared the Nobel Prize in Physics": sharing names an award only when the thing shared is of no known kind.
  [
    /\b(?:shared|shares|sharing)$/,
    'received_award',
    {
      notOf: [
        'person',
        'place',
        'organisation',
        'work',
        'software',
        'language',
        'command',
        'protocol',
        'format',
        'setting',
        'file',
        'code',
        'document',
        'standard',
      ],
    },
  ],
  [/\bcapital (?:city )?of$/, 'capital_of', { appositive: true }],
  [
    /\b(?:studied|educated|graduated|attended|alumnus|alumna|student)\b(?: \S+){0,3} (?:at|from|of)$|\battended$/,
    'educated_at',
    { notOf: ['person'] },
  ],
  [/\b(?:worked|working|works|collaborated|collaborating|collaborates|partnered) with$/, 'collaborates_with'],
  [
    /\b(?:singer|guitarist|drummer|bassist|vocalist|frontman|keyboardist|member) (?:of|in)$/,
    'member_of',
    { appositive: true },
  ],
  [
    /\b(?:work|works|worked|working|employed|taught|teaches|professor|lecturer|coach|director|researcher|scientist|engineer)\b(?: \S+){0,4} (?:at|for|of)$/,
    'works_at',
    { appositive: true, notOf: ['person'] },
  ],
  [
    /\b(?:member|joined|joining|plays|played|playing|player|forward|midfielder|defender|goalkeeper|signed)\b(?: \S+){0,3} (?:of|for|with|by)$|\bjoin(?:s|ed|ing)$/,
    'member_of',
    { notOf: ['person'] },
  ],
  [/\b(?:written|implemented|programmed|coded) in$/, 'written_in', { notOf: ['person', 'place', 'organisation'] }],
  [/\b(?:an? |the )?(?:\S+ ){0,3}implementation of$|\bimplements$|\bimplementing$/, 'implements'],
  [
    /\b(?:depends|depending|relies|relying) on$|\b(?:requires|(?:build|builds|built) (?:up)?on|on top of|linked against|links against)$/,
    'depends_on',
  ],
  [/\b(?:uses|using|used)$|^use$/, 'uses', { notOf: ['person'] }],
  // "the reference library for the PNG format", "a toolkit for the Transport Layer Security protocol".
  [
    /\b(?:library|libraries|toolkit|implementation|engine|codec|client|server|daemon) for(?: the)?$/,
    'implements',
    {
      notOf: ['person', 'place', 'organisation', 'work', 'software', 'language', 'command', 'setting', 'file', 'code'],
      // What the library is for is the name itself, not a thing it qualifies ("for USB device access").
      followedBy: /^(?:|and|or|formats?|protocols?|standards?|specifications?|files?|encoding|compression)$/,
    },
  ],
  // "It supports HTTP, HTTPS, and FTP protocols": support for a protocol or a format is an implementation of it.
  [
    /\b(?:supports|supported|supporting|support for)$/,
    'implements',
    {
      notOf: [
        'person',
        'place',
        'organisation',
        'work',
        'software',
        'language',
        'command',
        'setting',
        'file',
        'code',
        'generic',
      ],
    },
  ],
  // "distributed under the terms of the GNU GPL", "licensed under the MIT License", "covered by the GPL".
  [
    /\b(?:licen[cs]ed|released|distributed|available|open source|free software|redistribute it|modify it)\b(?: \S+){0,4} under(?: the (?:terms|conditions) of)?$|\bcovered by$/,
    'licensed_under',
    { notOf: ['person', 'place', 'organisation'] },
  ],
  [/\b(?:part|component|module|subsidiary|division|branch|unit) of$|\bbelongs to$/, 'part_of', { appositive: true }],
  [
    /\b(?:located|situated|based|headquartered|lies|lying|formed|founded|established)\b(?: \S+){0,3} (?:in|at)$|^(?:is|was) in$/,
    'located_in',
  ],
  // "The town is home to the Egon Schiele Art Centrum": the named place or institution is in the subject.
  [/\b(?:is|was|are|were) (?:also )?home to$/, 'located_in', { agent: true, notOf: ['person'] }],
  // "Lima is a town in Pepin County", "Bleed the Dream is an American rock band from Southern California".
  [
    /^(?:(?:is|was|are|were) |an? |the )(?:\S+ ){0,5}(?:city|town|village|hamlet|suburb|neighbou?rhood|municipality|commune|county|district|province|region|river|lake|mountain|island|peninsula|valley|park|street|station|airport|port|church|cathedral|castle|museum|school|university|college|hospital|company|firm|band|group|club|team|newspaper|magazine|label|manufacturer|publisher|studio|bank|airline)s? (?:in|from)$/,
    'located_in',
    { appositive: true, notOf: ['person', 'work'] },
  ],
  // "Twickenham Studios in west London", "Tshopo province, in the Democratic Republic of the Congo".
  [
    /^(?:(?:city|town|village|province|county|district|region|state|island|municipality|commune) )?in$/,
    'located_in',
    { notOf: ['person', 'organisation', 'work', 'generic'] },
  ],
];

/** The cue ending the words before a name (lowercase, single spaces), if there is one. */
export function cueBefore(words: string): Cue | null {
  words = trimmed(words);
  for (const [pattern, relation, options] of rules) {
    if (pattern.test(words))
      return {
        relation,
        agent: options?.agent ?? false,
        appositive: options?.appositive ?? false,
        notOf: options?.notOf ?? [],
        followedBy: options?.followedBy ?? null,
      };
  }
  return null;
}

function trimmed(words: string): string {
  return words.replace(/(?: (?:the|a|an|its|their))+$/, '');
}

/**
 * The cue of a verb joined to a passive cue's verb ("written and directed by X": X wrote it too), if
 * the words end in one.
 */
export function conjoinedCue(words: string, cue: Cue): Cue | null {
  const first = cue.agent ? /\b(\S+) (?:and|&) \S+(?: \S+){0,2} by$/.exec(trimmed(words))?.[1] : undefined;
  const joined = first ? cueBefore(`${first} by`) : null;
  return joined?.agent && joined.relation !== cue.relation ? joined : null;
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
  wrote: { names: ['wrote', 'authored', 'author_of'], inverse: ['written_by', 'authored_by'] },
  composed: { names: ['composed', 'composer_of'], inverse: ['composed_by'] },
  published: { names: ['published', 'publisher_of'], inverse: ['published_by'] },
  developed: { names: ['developed', 'developer_of', 'maintains'], inverse: ['developed_by', 'maintained_by'] },
  created: { names: ['created', 'creator_of'], inverse: ['created_by'] },
  founded: { names: ['founded', 'founder_of'], inverse: ['founded_by'] },
  leads: { names: ['leads', 'led', 'head_of'], inverse: ['led_by'] },
  acquired: { names: ['acquired'], inverse: ['acquired_by'] },
  works_at: { names: ['works_at', 'works_for', 'employed_by'], inverse: ['employs'] },
  member_of: { names: ['member_of'], inverse: ['has_member'] },
  educated_at: { names: ['educated_at', 'studied_at', 'alumnus_of'], inverse: ['alma_mater_of'] },
  collaborates_with: { names: ['collaborates_with', 'collaborated_with', 'partners_with'] },
  received_award: { names: ['received_award', 'won'], inverse: ['awarded_to'] },
  successor_of: { names: ['successor_of', 'succeeded'], inverse: ['succeeded_by', 'predecessor_of'] },
  capital_of: { names: ['capital_of'], inverse: ['has_capital'] },
  part_of: { names: ['part_of'], inverse: ['has_part', 'includes'] },
  located_in: { names: ['located_in', 'based_in'], inverse: ['contains'] },
  written_in: { names: ['written_in'] },
  implements: { names: ['implements'], inverse: ['implemented_by'] },
  depends_on: { names: ['depends_on', 'requires'], inverse: ['dependency_of'] },
  uses: { names: ['uses'], inverse: ['used_by'] },
  licensed_under: { names: ['licensed_under', 'has_license', 'license'], inverse: ['license_of'] },
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
