import type { Token } from './nlp.ts';

/**
 * Which domain edge type a verb names, in three tiers: exact, prefix (a
 * substring anchored at the start of a word), shared stem.
 */

/** A light suffix stripper: enough to meet "founded" and "founder", "married" and "marry". */
export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ions', 'ion', 'ers', 'er', 'ed', 'es', 's', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.replace(/y$/, 'i');
}

/**
 * Other words for the same relation. wink lemmatises "born" to "bear", and a place "lies" or "sits"
 * where an edge template says LOCATED_IN.
 */
const relatedWords: Record<string, readonly string[]> = {
  bear: ['born', 'birth'],
  lie: ['located', 'location'],
  sit: ['located', 'location'],
  situate: ['located', 'location'],
  base: ['located', 'based', 'headquartered'],
  employ: ['works', 'employed', 'employee'],
  wed: ['married', 'spouse'],
  marry: ['married', 'spouse'],
  establish: ['founded', 'founder'],
  create: ['created', 'founded', 'creator'],
  write: ['wrote', 'written', 'author'],
  lead: ['led', 'leads', 'leader'],
  own: ['owns', 'owned', 'owner'],
  study: ['studied', 'student'],
  teach: ['taught', 'teacher'],
};

/** Keyed by stem, so an inflected form wink did not lemmatise ("married" tagged as an adjective) finds its entry. */
const relatedByStem = new Map(Object.entries(relatedWords).map(([verb, words]) => [stem(verb), words]));

const linkWords = new Set([
  'in',
  'at',
  'of',
  'by',
  'for',
  'to',
  'on',
  'with',
  'from',
  'as',
  'into',
  'the',
  'a',
  'an',
  'is',
  'has',
]);

function typeWords(typeName: string): string[] {
  return typeName
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

export interface EdgeTypeMatch {
  type: string;
  /** The type reads in the passive ("founded_by"): its source is what the verb was done to. */
  passive: boolean;
}

/**
 * 1 exact, 2 prefix, 3 shared stem; null when the verb says nothing about this type. A type of several
 * content words says more than any verb does ("uses_protocol" names what is used), so only its exact
 * words match: "IMAP uses Access" is no use of a protocol.
 */
function tier(forms: readonly string[], typeName: string): number | null {
  const content = typeWords(typeName).filter((word) => !linkWords.has(word));
  if (content.length === 0) return null;
  if (forms.includes(content.join(' '))) return 1;
  if (content.length > 1) return null;
  if (
    content.some((word) => forms.some((form) => form.length >= 3 && (word.startsWith(form) || form.startsWith(word))))
  )
    return 2;
  const stems = new Set(forms.map(stem));
  if (content.some((word) => word.length >= 3 && stems.has(stem(word)))) return 3;
  return null;
}

/** The best edge type any of the verbs names (lowest tier, then earliest verb, then list order). */
export function matchEdgeType(verbs: readonly Token[], edgeTypes: readonly string[]): EdgeTypeMatch | null {
  let best: { type: string; tier: number } | null = null;
  for (const verb of verbs) {
    const forms = [
      verb.key,
      verb.lemma,
      ...(relatedByStem.get(stem(verb.lemma)) ?? relatedByStem.get(stem(verb.key)) ?? []),
    ];
    for (const type of edgeTypes) {
      const found = tier(forms, type);
      if (found !== null && (best === null || found < best.tier)) best = { type, tier: found };
    }
  }
  return best && { type: best.type, passive: typeWords(best.type).includes('by') };
}

/** The domain's own spelling of "related to" when it has one. */
export function relatedToType(edgeTypes: readonly string[]): string {
  return edgeTypes.find((type) => typeWords(type).join(' ') === 'related to') ?? 'related_to';
}
