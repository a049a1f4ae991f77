/**
 * The plausibility score of a harvested entity, 0..1, compared with the preset's threshold for named
 * types (`requires_named_referent`) or for the others (unknown types count as not named):
 *
 *   score = shape × support × sanity
 *
 *   shape    named types only (1 otherwise): how much the name looks like a proper name. The
 *            significant words (connectors such as "of", "de", "van" left out) are all capitalised → 1;
 *            the first is → 0.7; some other is → 0.4; none → 0.15. A word with a digit or an inner
 *            capital ("iPhone", "3M") counts as capitalised.
 *   support  0.4 + 0.3 × the model's confidence + 0.3 when its evidence sentences name it.
 *   sanity   halved for each of: more than 10 words or 100 characters; reads like a sentence (5+
 *            words ending in . ! or ?); no description.
 *
 * So "Marie Curie" (named, cited) scores about 0.85–1, "committee" as an Organization about 0.14
 * (dropped at 0.2 and above), a lower-case Concept such as "radioactivity" about 0.9.
 */

export interface PlausibilitySubject {
  name: string;
  confidence: number;
  description: string;
  /** Whether one of its evidence sentences names it (name or alias). */
  named: boolean;
}

const CONNECTORS = new Set([
  'of',
  'the',
  'and',
  'for',
  'in',
  'on',
  'at',
  'to',
  'a',
  'an',
  '&',
  'de',
  'da',
  'di',
  'del',
  'della',
  'des',
  'du',
  'la',
  'le',
  'les',
  'van',
  'von',
  'der',
  'den',
  'ter',
  'y',
  'e',
  'al',
  'el',
  'bin',
  'ibn',
  'bint',
  'ben',
  'zu',
  'und',
  'och',
  'og',
]);

function capitalised(word: string): boolean {
  return /^\P{L}*\p{Lu}/u.test(word) || /\p{N}/u.test(word) || /\p{Ll}\p{Lu}/u.test(word);
}

export function nameShape(name: string): number {
  const significant = name
    .split(/[\s/]+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word) && !CONNECTORS.has(word.toLowerCase()));
  if (significant.length === 0) return 0.15;
  if (significant.every(capitalised)) return 1;
  if (capitalised(significant[0])) return 0.7;
  if (significant.some(capitalised)) return 0.4;
  return 0.15;
}

export function plausibility(subject: PlausibilitySubject, namedType: boolean): number {
  const shape = namedType ? nameShape(subject.name) : 1;
  const support = 0.4 + 0.3 * Math.min(1, Math.max(0, subject.confidence)) + (subject.named ? 0.3 : 0);
  const words = subject.name.trim().split(/\s+/).length;
  let sanity = 1;
  if (words > 10 || subject.name.length > 100) sanity /= 2;
  if (words >= 5 && /[.!?]$/.test(subject.name.trim())) sanity /= 2;
  if (subject.description.trim() === '') sanity /= 2;
  return shape * support * sanity;
}
