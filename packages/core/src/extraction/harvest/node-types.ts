import type { NodeTemplateDefinition } from '../../sources/index.ts';
import { singular, typeWords } from './text-match.ts';

/**
 * Which node template an entity's type names. The type is always written as the template spells it
 * when only case, spacing or separators differ ("life_event" → "Life Event"). With type rescue on, a
 * type that is no template is mapped to the closest one, in tiers, the first template of the domain
 * winning within a tier:
 *   1. singular and plural ("Persons" → "Person", "Companies" → "Company");
 *   2. the same head noun, the last word ("Event" → "Life Event", "Famous Person" → "Person");
 *   3. a synonym of the head noun ("City" → "Place" or "Location", "Scientist" → "Researcher",
 *      "Person" → "Historical Figure" or "Character", "University" → "School").
 * Otherwise the type stays as the model wrote it.
 */

const SYNONYMS: readonly (readonly string[])[] = [
  [
    'person',
    'individual',
    'human',
    'figure',
    'character',
    'personality',
    'man',
    'woman',
    'scientist',
    'researcher',
    'scholar',
    'author',
    'writer',
    'poet',
    'artist',
    'painter',
    'composer',
    'musician',
    'politician',
    'statesman',
    'leader',
    'ruler',
    'king',
    'queen',
    'emperor',
    'monarch',
    'philosopher',
    'inventor',
    'engineer',
    'physicist',
    'chemist',
    'mathematician',
    'actor',
  ],
  [
    'place',
    'location',
    'city',
    'town',
    'village',
    'country',
    'region',
    'province',
    'territory',
    'area',
    'site',
    'geography',
    'gpe',
    'setting',
    'locality',
    'landmark',
    'capital',
    'continent',
    'island',
    'address',
    'venue',
  ],
  [
    'organization',
    'organisation',
    'org',
    'company',
    'corporation',
    'firm',
    'business',
    'enterprise',
    'institution',
    'institute',
    'agency',
    'body',
    'association',
    'society',
    'foundation',
    'bank',
    'employer',
    'laboratory',
    'lab',
    'ministry',
    'department',
  ],
  ['school', 'university', 'college', 'academy', 'seminary', 'conservatory', 'faculty'],
  ['event', 'incident', 'occurrence', 'happening', 'episode', 'ceremony', 'meeting', 'conference', 'election'],
  [
    'work',
    'book',
    'novel',
    'poem',
    'play',
    'painting',
    'artwork',
    'composition',
    'song',
    'album',
    'film',
    'movie',
    'publication',
    'article',
    'essay',
    'treatise',
    'opera',
    'symphony',
  ],
  ['award', 'prize', 'honor', 'honour', 'medal', 'distinction', 'decoration'],
  ['concept', 'idea', 'notion', 'topic', 'theme', 'subject', 'field', 'discipline'],
  ['technology', 'technique', 'tool', 'device', 'machine', 'software'],
  ['position', 'title', 'role', 'office', 'job', 'rank', 'post', 'occupation', 'profession'],
  ['group', 'team', 'band', 'collective', 'crew'],
  ['document', 'report', 'record', 'filing', 'letter', 'manuscript'],
  ['drug', 'medication', 'medicine', 'pharmaceutical'],
  ['condition', 'disease', 'disorder', 'illness', 'syndrome', 'infection'],
];

export type TypeTier = 'exact' | 'plural' | 'head' | 'synonym';

export interface NodeTypeResolution {
  /** The template's name, or the model's type (trimmed) when none fits. */
  type: string;
  template: NodeTemplateDefinition | null;
  /** How the template was found; null when none was. */
  tier: TypeTier | null;
}

const head = (words: readonly string[]): string => singular(words[words.length - 1] ?? '');

function synonymsOf(word: string): Set<string> {
  return new Set(SYNONYMS.filter((set) => set.includes(word)).flat());
}

export function resolveNodeType(
  rawType: string,
  templates: readonly NodeTemplateDefinition[],
  rescue: boolean,
): NodeTypeResolution {
  const words = typeWords(rawType);
  const found = (template: NodeTemplateDefinition | undefined, tier: TypeTier): NodeTypeResolution | null =>
    template ? { type: template.name, template, tier } : null;
  const named = templates.map((template) => ({ template, words: typeWords(template.name) }));

  const exact = found(named.find((entry) => entry.words.join(' ') === words.join(' '))?.template, 'exact');
  if (exact || !rescue || words.length === 0) return exact ?? { type: rawType.trim(), template: null, tier: null };

  const singularKey = words.map(singular).join(' ');
  const tiers: [TypeTier, (entry: (typeof named)[number]) => boolean][] = [
    ['plural', (entry) => entry.words.map(singular).join(' ') === singularKey],
    ['head', (entry) => head(entry.words) === head(words)],
    ['synonym', (entry) => synonymsOf(head(words)).has(head(entry.words))],
  ];
  for (const [tier, matches] of tiers) {
    const match = found(named.find(matches)?.template, tier);
    if (match) return match;
  }
  return { type: rawType.trim(), template: null, tier: null };
}
