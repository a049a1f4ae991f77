import type { DomainDefinition } from '../../sources/index.ts';
import { foldText } from './text-match.ts';

/**
 * Names that are not entities, whatever the model says: the domain's `entity_exclusions` examples
 * (digits in an example stand for any number: "Figure 4" excludes "Figure 12"), pronouns, generic
 * descriptions (a determiner or possessive followed only by lower-case words: "the author", "his
 * cousins", "this method"; a few bare words such as "someone"), and names made only of dates, numbers,
 * amounts and date words ("1895", "12 May 1895", "the 1890s", "$4.2 billion", "Q3", "Tuesday").
 */

const PRONOUNS = new Set([
  'i',
  'me',
  'my',
  'mine',
  'myself',
  'we',
  'us',
  'our',
  'ours',
  'ourselves',
  'you',
  'your',
  'yours',
  'yourself',
  'he',
  'him',
  'his',
  'himself',
  'she',
  'her',
  'hers',
  'herself',
  'it',
  'its',
  'itself',
  'they',
  'them',
  'their',
  'theirs',
  'themselves',
  'this',
  'that',
  'these',
  'those',
  'who',
  'whom',
  'whose',
  'which',
  'what',
  'one',
  'someone',
  'somebody',
  'something',
  'anyone',
  'anybody',
  'anything',
  'everyone',
  'everybody',
  'everything',
  'nobody',
  'nothing',
  'none',
  'other',
  'others',
  'another',
  'each',
  'both',
  'all',
  'some',
  'many',
  'few',
  'people',
  'thing',
  'things',
]);

const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'his',
  'her',
  'their',
  'its',
  'our',
  'my',
  'your',
  'some',
  'any',
  'each',
  'every',
  'several',
  'many',
  'such',
]);

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DATE_WORDS = new Set([
  ...MONTHS,
  ...MONTHS.map((month) => month.slice(0, 3)),
  'sept',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'the',
  'of',
  'in',
  'on',
  'at',
  'by',
  'and',
  'to',
  'from',
  'early',
  'late',
  'mid',
  'circa',
  'ca',
  'c',
  'century',
  'centuries',
  'decade',
  'year',
  'years',
  'month',
  'months',
  'week',
  'weeks',
  'day',
  'days',
  'bc',
  'ad',
  'bce',
  'ce',
  'am',
  'pm',
  'million',
  'billion',
  'trillion',
  'thousand',
  'hundred',
  'percent',
  'per',
  'cent',
  'usd',
  'eur',
  'gbp',
  'dollars',
  'euros',
  'pounds',
  'last',
  'next',
  'this',
  'today',
  'yesterday',
  'tomorrow',
]);
const WEEKDAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const NUMBERISH = /^[$€£¥]?[+-]?\d[\d,.:/-]*(?:st|nd|rd|th|s|%|bn|m|k)?$|^q[1-4]$|^h[12]$|^fy\d{2,4}$/;

function words(folded: string): string[] {
  return folded
    .split(/[\s,]+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}$€£¥]+|[^\p{L}\p{N}%]+$/gu, ''))
    .filter(Boolean);
}

/** Dates, numbers and amounts only; at least one number or a weekday. */
export function isDateOrNumber(name: string): boolean {
  const parts = words(foldText(name));
  if (parts.length === 0) return true;
  const hasNumber = parts.some((part) => NUMBERISH.test(part));
  if (!hasNumber && !(parts.length === 1 && WEEKDAYS.has(parts[0]))) return false;
  return parts.every((part) => NUMBERISH.test(part) || DATE_WORDS.has(part));
}

/** A pronoun, or a determiner followed only by lower-case words. */
export function isGeneric(name: string): boolean {
  const folded = foldText(name);
  if (PRONOUNS.has(folded)) return true;
  const original = name.trim().split(/\s+/);
  if (original.length < 2 || !DETERMINERS.has(original[0].toLowerCase())) return false;
  return original.slice(1).every((word) => !/\p{Lu}|\p{N}/u.test(word));
}

export class ExclusionFilter {
  private readonly exact = new Set<string>();
  private readonly patterns: RegExp[] = [];

  constructor(domain: DomainDefinition) {
    for (const example of domain.entity_exclusions.flatMap((exclusion) => exclusion.examples)) {
      const folded = foldText(example);
      if (!folded) continue;
      if (/\d/.test(folded))
        this.patterns.push(
          new RegExp(`^${folded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+')}$`, 'u'),
        );
      else this.exact.add(folded);
    }
  }

  /** Why a name is excluded, or null when it may stay. */
  reason(name: string): 'domain' | 'pronoun' | 'generic' | 'date_or_number' | null {
    const folded = foldText(name);
    if (this.exact.has(folded) || this.patterns.some((pattern) => pattern.test(folded))) return 'domain';
    if (PRONOUNS.has(folded)) return 'pronoun';
    if (isGeneric(name)) return 'generic';
    if (isDateOrNumber(name)) return 'date_or_number';
    return null;
  }

  isExcluded(name: string): boolean {
    return this.reason(name) !== null;
  }
}

/** Aliases that say something: not the name again, not a pronoun, not shorter than `minLength`, once each. */
export function cleanAliases(name: string, aliases: readonly string[], minLength: number): string[] {
  const seen = new Set([foldText(name)]);
  const kept: string[] = [];
  for (const alias of aliases) {
    const folded = foldText(alias);
    if (alias.trim().length < minLength || seen.has(folded) || PRONOUNS.has(folded)) continue;
    seen.add(folded);
    kept.push(alias.trim());
  }
  return kept;
}
