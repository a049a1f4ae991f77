import { organisationNouns, personNouns, placeNouns, places, workNouns } from './gazetteer.ts';
import type { EntityKind } from './kinds.ts';
import { longestFirst, nameKey, properNounSpans, spanText, trimName, type Span, type Token } from './nlp.ts';
import { isHeading, labelLength } from './readable.ts';
import { technicalNouns } from './technical-gazetteer.ts';

/**
 * The name spans of one sentence, with what the sentence's shape says about their kind:
 *   - the subject of a definition, taken whole up to "is"/"was" or "(" ("Such a Little Pirate is a
 *     1918 film", "Teutberga( died 875) was a queen"), typed by the noun after the copula;
 *   - a quoted title ("the film" God Is the Bigger Elvis"") is a creative work;
 *   - proper-noun runs elsewhere, except inside a list label ("Vocals:") or a heading;
 *   - an acronym in brackets right after a name it abbreviates ("Victorian Football League( VFL)") is
 *     that name's alias, not another entity.
 */

export interface NameMention extends Span {
  /** The kind the sentence's shape implies; null when it says nothing. */
  kind: EntityKind | null;
  /** The abbreviation given in brackets after it. */
  acronym: string | null;
}

const COPULA = new Set(['is', 'was', 'are', 'were']);
const QUOTES = new Set(['"', '“', '”', '«', '»']);
/** Words a title may hold in lowercase: "Such a Little Pirate", "Love, Honor and Obey", "Next of Kin". */
const TITLE_JOINERS = new Set([
  'a',
  'an',
  'the',
  'of',
  'and',
  'for',
  'in',
  'on',
  'to',
  'with',
  'de',
  'la',
  'le',
  'du',
  'del',
  'von',
  'van',
  ',',
  '-',
  "'s",
  '’s',
]);
/** Joiners of a title that elsewhere join a name to what follows it ("the Curie Institute in Paris"). */
const TITLE_ONLY_JOINERS = new Set(['in', 'on', 'to', 'with', 'a', 'an']);
/** Words that open a sentence without naming anything ("However, Paris is …", "In 1895 …"). */
const OPENERS = new Set([
  'however',
  'in',
  'on',
  'at',
  'after',
  'before',
  'during',
  'when',
  'while',
  'since',
  'by',
  'from',
  'with',
  'as',
  'for',
  'this',
  'that',
  'these',
  'those',
  'his',
  'her',
  'their',
  'its',
  'there',
  'here',
  'although',
  'because',
  'if',
  'but',
  'and',
  'or',
  'so',
  'today',
  'meanwhile',
  'later',
  'also',
  'then',
  'thus',
  'finally',
  'it',
  'he',
  'she',
  'they',
  'we',
  'i',
  'you',
  'other',
  'some',
  'many',
  'most',
  'all',
  'both',
  'each',
]);
const MAX_TITLE_WORDS = 8;
const BROADCAST_WORDS = new Set([
  'television',
  'tv',
  'radio',
  'news',
  'talk',
  'game',
  'cooking',
  "children's",
  'documentary',
]);

const isCapitalised = (token: Token) => /^\p{Lu}/u.test(token.text) || /^\p{N}/u.test(token.text);

/** What the noun after "is a"/"was the" names, or null. */
function kindOfNoun(tokens: readonly Token[], i: number): EntityKind | null {
  const token = tokens[i];
  const technical = technicalNouns.get(token.key);
  // "an archiving program" is software; "a television program" a work.
  if (
    technical &&
    technical !== 'setting' &&
    technical !== 'organisation' &&
    !BROADCAST_WORDS.has(tokens[i - 1]?.key ?? '')
  )
    return technical === 'command' ? 'software' : technical;
  const two = i + 1 < tokens.length ? `${token.key} ${tokens[i + 1].key}` : '';
  for (const candidate of [two, token.key, token.key.replace(/s$/, '')]) {
    if (!candidate) continue;
    if (workNouns.has(candidate)) return 'work';
    if (personNouns.has(candidate)) return 'person';
    if (organisationNouns.has(candidate)) return 'organisation';
    if (placeNouns.has(candidate)) return 'place';
  }
  return null;
}

/**
 * The kind named by the noun phrase after "is a"/"was the" (past determiners, dates, nationalities and
 * adjectives): its last kind-naming noun, the head, so "a film and television actor" is a person and
 * "a film studio" an organisation.
 */
function kindAfterCopula(tokens: readonly Token[], from: number): EntityKind | null {
  let kind: EntityKind | null = null;
  for (let i = from; i < tokens.length && i < from + 10; i++) {
    const token = tokens[i];
    if (
      token.text === ',' ||
      token.text === '.' ||
      token.pos === 'VERB' ||
      token.pos === 'AUX' ||
      token.pos === 'ADP' ||
      token.key === 'who' ||
      token.key === 'which'
    )
      break;
    kind = kindOfNoun(tokens, i) ?? kind;
  }
  return kind;
}

/** Whether the brackets opening at `open` hold a life span ("born 1950", "1643 – 1702", "died 875"). */
function bracketsHoldLifeSpan(tokens: readonly Token[], open: number): boolean {
  const inside = [];
  for (let i = open + 1; i < tokens.length && tokens[i].text !== ')'; i++) inside.push(tokens[i]);
  return (
    inside.some((token) => ['born', 'died', 'b.', 'd.', 'fl.', 'c.'].includes(token.key)) ||
    inside.filter((token) => /^\d{3,4}/.test(token.text)).length >= 2
  );
}

/** The sentence's subject when it is a short name followed by a copula or brackets. */
function definitionSubject(tokens: readonly Token[], start: number): NameMention | null {
  const first = tokens[start];
  if (!first || !isCapitalised(first)) return null;
  let end = start;
  while (end < tokens.length && end - start < MAX_TITLE_WORDS + 2) {
    const token = tokens[end];
    if (COPULA.has(token.key) || token.text === '(') break;
    // "Age of Empires II: The Age of Kings is a … game": a colon inside a title, before a capital.
    const subtitle =
      token.text === ':' && end > start && tokens[end + 1] !== undefined && isCapitalised(tokens[end + 1]);
    if (!isCapitalised(token) && !TITLE_JOINERS.has(token.key) && !TITLE_JOINERS.has(token.text) && !subtitle)
      return null;
    end++;
  }
  const terminator = tokens[end];
  if (!terminator || end === start || !isCapitalised(tokens[end - 1])) return null;
  let kind: EntityKind | null = null;
  if (terminator.text === '(') {
    if (bracketsHoldLifeSpan(tokens, end)) kind = 'person';
    let close = end;
    while (close < tokens.length && tokens[close].text !== ')') close++;
    if (COPULA.has(tokens[close + 1]?.key ?? '')) kind = kindAfterCopula(tokens, close + 2) ?? kind;
  } else {
    kind = kindAfterCopula(tokens, end + 1);
  }
  // Only a title opens with a pronoun or an opener ("My Dear Muthachan", "In Cold Blood") or holds a
  // comma or "in" ("Love, Honor and Obey"); elsewhere they start or end a clause ("The Curie Institute in Paris").
  const onlyInTitles =
    OPENERS.has(first.key) ||
    first.pos === 'PRON' ||
    tokens
      .slice(start + 1, end)
      .some((token) => TITLE_ONLY_JOINERS.has(token.key) || token.text === ',' || token.text === ':');
  if (onlyInTitles && (kind !== 'work' || end - start < 2)) return null;
  // "The Black Marble" is the title; "The Curie Institute" is the Curie Institute.
  const from = first.key === 'the' && kind !== 'work' && end - start > 1 ? start + 1 : start;
  const text = trimName(spanText(tokens, from, end));
  return text ? { from, to: end, text, kind, acronym: null } : null;
}

/** Capitalised phrases between quotes: titles of works. */
function quotedTitles(tokens: readonly Token[], from: number): NameMention[] {
  const found: NameMention[] = [];
  let open = -1;
  for (let i = from; i < tokens.length; i++) {
    if (!QUOTES.has(tokens[i].text)) continue;
    if (open === -1) {
      open = i;
      continue;
    }
    const [start, end] = [open + 1, i];
    open = -1;
    const words = tokens.slice(start, end);
    if (words.length === 0 || words.length > MAX_TITLE_WORDS + 2 || !isCapitalised(words[0])) continue;
    const text = trimName(spanText(tokens, start, end));
    if (text) found.push({ from: start, to: end, text, kind: 'work', acronym: null });
  }
  return found;
}

/** Nouns after which a capitalised phrase is the work's title ("the film Portrait of a Lady on Fire"). */
const TITLE_NOUNS = new Set([
  'film',
  'movie',
  'documentary',
  'album',
  'novel',
  'book',
  'play',
  'musical',
  'series',
  'game',
]);
/** Lowercase words a title holds between capitalised ones. */
const INNER_TITLE_WORDS = new Set(['of', 'a', 'an', 'the', 'on', 'in', 'and', 'to', 'for', 'with', 'at']);

/**
 * "her new film Portrait of a Lady on Fire at the Cannes Film Festival": after a work noun, a title runs
 * across the lowercase words it holds, as long as a capitalised word follows them; it stops at a place
 * or a year after "in", "on" or "at" ("the film Titanic in London", "the album Blue in 1971"), and is kept
 * only when it holds such a word (a run of capitals alone is found anyway).
 */
function titlesAfterWorkNouns(tokens: readonly Token[], from: number, knownKeys: ReadonlySet<string>): NameMention[] {
  const found: NameMention[] = [];
  for (let i = Math.max(from, 1); i + 1 < tokens.length; i++) {
    if (!TITLE_NOUNS.has(tokens[i - 1].key) || !isCapitalised(tokens[i]) || tokens[i].stopWord) continue;
    let end = i + 1;
    let inner = false;
    while (end < tokens.length && end - i < MAX_TITLE_WORDS) {
      if (isCapitalised(tokens[end])) {
        end++;
        continue;
      }
      let gap = end;
      while (gap < tokens.length && INNER_TITLE_WORDS.has(tokens[gap].key) && gap - end < 2) gap++;
      const next = tokens[gap];
      if (gap === end || !next || !isCapitalised(next) || /^\p{N}/u.test(next.text)) break;
      if (['in', 'on', 'at'].includes(tokens[gap - 1].key) && (knownKeys.has(next.key) || places.has(next.key))) break;
      if (tokens[end].key === 'at' || tokens[gap - 1].key === 'at') break;
      inner = true;
      end = gap + 1;
    }
    if (!inner) continue;
    const text = trimName(spanText(tokens, i, end));
    if (text) found.push({ from: i, to: end, text, kind: 'work', acronym: null });
    i = end - 1;
  }
  return found;
}

/** "Victorian Football League( VFL)": the bracketed capitals spell the name's initials. */
function acronymAfter(tokens: readonly Token[], span: Span): { acronym: string; to: number } | null {
  // "Python Software Foundation (PSF, see https://…)": the acronym may open a longer bracket.
  if (tokens[span.to]?.text !== '(' || ![')', ','].includes(tokens[span.to + 2]?.text ?? '')) return null;
  const acronym = tokens[span.to + 1].text;
  if (!/^\p{Lu}{2,8}$/u.test(acronym)) return null;
  const initials = tokens
    .slice(span.from, span.to)
    .filter((token) => /^\p{Lu}/u.test(token.text))
    .map((token) => token.text[0])
    .join('');
  return initials === acronym ? { acronym, to: span.to + 3 } : null;
}

/** `heading`: whether the sentence is a heading, whose words name a section (false for a man page's NAME line). */
export function nameMentions(
  tokens: readonly Token[],
  knownNames: readonly string[][],
  knownKeys: ReadonlySet<string>,
  heading = isHeading(tokens),
): NameMention[] {
  if (heading) {
    return properNounSpans(tokens, knownNames)
      .filter((span) => knownKeys.has(nameKey(span.text)))
      .map((span) => ({ ...span, kind: null, acronym: null }));
  }
  // A title with a subtitle ("Age of Empires II: The Age of Kings is a game") when it is the subject of a
  // work's definition; a list label otherwise ("Lead Vocals: Freddie Mercury is …").
  let start = labelLength(tokens, true);
  let subject = definitionSubject(tokens, start);
  if (start !== labelLength(tokens) && subject?.kind !== 'work') {
    start = labelLength(tokens);
    subject = definitionSubject(tokens, start);
  }
  const runs = properNounSpans(tokens, knownNames)
    .filter((span) => span.from >= start)
    .map((span): NameMention => ({ ...span, kind: null, acronym: null }));
  const spans = longestFirst([
    ...(subject ? [subject] : []),
    ...quotedTitles(tokens, start),
    ...titlesAfterWorkNouns(tokens, start, knownKeys),
    ...runs,
  ]);
  const acronymPositions = new Set<number>();
  for (const span of spans) {
    const found = acronymAfter(tokens, span);
    if (!found) continue;
    span.acronym = found.acronym;
    acronymPositions.add(found.to - 2);
  }
  return spans.filter((span) => !(span.to - span.from === 1 && acronymPositions.has(span.from)));
}
