import type { HarvestedRelationship } from '../types.ts';
import { snakeCase, stem } from './text-match.ts';

/**
 * Relationship type matching: the model's type, in snake_case, against the domain's
 * edge template names, in three tiers; a match is rewritten to the template's name.
 *   exact     — equal after snake_case ("Born In" → born_in);
 *   substring — one contains the other as whole words ("was_born_in" → born_in, "married" → married_to);
 *               the closest in length wins;
 *   words     — they share a word of 3+ letters, compared by stem and ignoring auxiliaries such as
 *               "has" or "was" ("marries" → married_to); the most shared words win.
 * Within a tier, ties go to the first template of the domain. No match: `none`, type kept in snake_case.
 * A substring or words match across voices — one of the two ends in `_by` and the other does not
 * ("founded_by" → founded, "created" → created_by) — names the relation the other way round: `reversed`,
 * and the caller swaps the relationship's ends.
 */

export type TypeMatch = HarvestedRelationship['typeMatch'];

export interface EdgeTypeMatch {
  type: string;
  typeMatch: TypeMatch;
  /** Set when the template states the relation from the other end: source and target swap. */
  reversed?: true;
}

const passive = (key: string) => key.endsWith('_by') || key === 'by';

/** A match in a looser tier, marked reversed when the model's type and the template differ in voice. */
function loose(key: string, name: string, templateKey: string, typeMatch: TypeMatch): EdgeTypeMatch {
  return passive(key) === passive(templateKey) ? { type: name, typeMatch } : { type: name, typeMatch, reversed: true };
}

const FUNCTION_WORDS = new Set([
  'the',
  'and',
  'has',
  'have',
  'had',
  'was',
  'were',
  'are',
  'been',
  'being',
  'for',
  'with',
  'from',
  'into',
  'its',
  'this',
  'that',
  'who',
  'which',
  'not',
  'per',
  'via',
  'than',
]);

function contentStems(words: readonly string[]): Set<string> {
  return new Set(words.filter((word) => word.length >= 3 && !FUNCTION_WORDS.has(word)).map(stem));
}

/** The best-scoring candidate; the first one on ties. */
function best<T>(candidates: readonly T[], score: (candidate: T) => number): T | null {
  let winner: T | null = null;
  let top = 0;
  for (const candidate of candidates) {
    const value = score(candidate);
    if (value > top) {
      winner = candidate;
      top = value;
    }
  }
  return winner;
}

export function matchEdgeType(rawType: string, templateNames: readonly string[]): EdgeTypeMatch {
  const key = snakeCase(rawType);
  if (key === '') return { type: 'related_to', typeMatch: 'none' };
  const templates = templateNames.map((name) => ({ name, key: snakeCase(name) }));

  const exact = templates.find((template) => template.key === key);
  if (exact) return { type: exact.name, typeMatch: 'exact' };

  const words = key.split('_');
  const contains = (outer: string, inner: string) => `_${outer}_`.includes(`_${inner}_`);
  const substring = best(
    templates.filter((template) => contains(key, template.key) || contains(template.key, key)),
    (template) => {
      const length = template.key.split('_').length;
      return Math.min(length, words.length) / Math.max(length, words.length);
    },
  );
  if (substring) return loose(key, substring.name, substring.key, 'substring');

  const stems = contentStems(words);
  const shared = best(templates, (template) => {
    const templateWords = template.key.split('_');
    const common = [...contentStems(templateWords)].filter((item) => stems.has(item)).length;
    return common / Math.max(templateWords.length, words.length);
  });
  if (shared) return loose(key, shared.name, shared.key, 'words');
  return { type: key, typeMatch: 'none' };
}
