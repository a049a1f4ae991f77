import { createRequire } from 'node:module';
import type { ItemSentence, ItemToken, ItsFunction, PartOfSpeech, WinkMethods } from 'wink-nlp';
import type compromiseModule from 'compromise';
import { companyHeads, epithets, eventHeads, places } from './gazetteer.ts';

/**
 * The NLP the builtin provider stands on: wink-nlp (sentences, tokens, POS, lemmas) and compromise
 * (people, places, organisations). Loading both takes 0.5–1.5 s, so they load on first use, once per
 * process.
 */

export interface Token {
  text: string;
  /** Lowercased, diacritics stripped: what names are compared by. */
  key: string;
  pos: PartOfSpeech;
  lemma: string;
  /** The Porter stem, lowercased: where lemmas differ but the word is one ("persistence", "persisted"). */
  stem: string;
  stopWord: boolean;
  /** Whitespace before the token in the source text. */
  space: string;
}

export interface Sentence {
  text: string;
  tokens: Token[];
}

export type NamedKind = 'person' | 'place' | 'organisation';

export interface BuiltinNlp {
  /** Milliseconds the first load took (imports and model instantiation). */
  readonly loadMs: number;
  sentences(text: string): Sentence[];
  /** All tokens of `text`, ignoring sentence boundaries. */
  tokens(text: string): Token[];
  /** What compromise recognises in `text`, keyed by `nameKey` of the name. */
  namedMentions(text: string): Map<string, NamedKind>;
}

/** NFD, diacritics stripped, lowercase, no commas or semicolons, single spaces, no leading "the". */
export function nameKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[,;]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

/**
 * Drops trailing punctuation and a possessive 's, which compromise and wink leave on names; keeps the
 * final period of initials ("U.S.", "John F.") and of a generational suffix ("James Watt Jr.").
 */
export function trimName(text: string): string {
  const trimmed = text.trim();
  if (/(?:^|[\s.])\p{Lu}\.$/u.test(trimmed) || /\s[JS]r\.$/u.test(trimmed)) return trimmed;
  return trimmed.replace(/(?:['’]s)?[\s.,;:!?'’"”)\]]*$/u, '').trim();
}

/** Letters the wink tokenizer splits words at, folded to the one ASCII letter they carry a mark on. */
const FOLDS: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ŀ: 'l',
  Ŀ: 'L',
  ŧ: 't',
  Ŧ: 'T',
};

/**
 * The text with each letter beyond Latin-1 that has a base Latin letter replaced by it, one character
 * for one ("Český" → "Cesky", "Władysław" → "Wladyslaw"): wink's English model cuts words at those
 * letters ("Č eský", "W ł adys ł aw"), so a name written with them would never be one.
 */
export function foldLetters(text: string): string {
  return text.replace(/[\u0100-\u024f\u1e00-\u1eff]/gu, (letter) => {
    const base = FOLDS[letter] ?? letter.normalize('NFD')[0];
    return /^[A-Za-z]$/.test(base) ? base : letter;
  });
}

/** Reads pieces of `folded` in order and returns the same characters of `text` (of equal length). */
function originalSlicer(text: string, folded: string): (part: string) => string {
  if (text === folded) return (part) => part;
  let cursor = 0;
  return (part) => {
    const at = folded.indexOf(part, cursor);
    if (at === -1) return part;
    cursor = at + part.length;
    return text.slice(at, cursor);
  };
}

/** The part of a compromise view this module reads; `people()` and `places()` return different view types. */
interface CompromiseMatches {
  forEach(fn: (match: { text(): string }) => void): unknown;
}

function createNlp(wink: WinkMethods, compromise: typeof compromiseModule, loadMs: number): BuiltinNlp {
  const its = wink.its;
  // wink-nlp 2.4 declares `its.lemma` and `its.stem` with a parameter list its own `ItsFunction` type does not accept.
  const lemma = its.lemma as unknown as ItsFunction<string>;
  const stem = its.stem as unknown as ItsFunction<string>;
  const readSentences = (text: string): Sentence[] => {
    const result: Sentence[] = [];
    // wink reads the folded text; each token and sentence takes back the original characters it covers.
    const folded = foldLetters(text);
    const [sentenceOriginal, tokenOriginal] = [originalSlicer(text, folded), originalSlicer(text, folded)];
    wink
      .readDoc(folded)
      .sentences()
      .each((sentence: ItemSentence) => {
        const tokens: Token[] = [];
        const sentenceText = sentenceOriginal(sentence.out());
        sentence.tokens().each((token: ItemToken) => {
          const value = tokenOriginal(token.out());
          tokens.push({
            text: value,
            key: nameKey(value),
            pos: token.out(its.pos) as PartOfSpeech,
            lemma: String(token.out(lemma)).toLowerCase(),
            stem: String(token.out(stem)).toLowerCase(),
            // The stop word is the modal; "May" inside a sentence is a month or a name ("Brian May").
            stopWord: token.out(its.stopWordFlag) === true && !(tokens.length > 0 && value === 'May'),
            space: String(token.out(its.precedingSpaces)),
          });
        });
        result.push({ text: sentenceText.trim(), tokens });
      });
    return result;
  };
  return {
    loadMs,
    sentences: readSentences,
    tokens: (text) => readSentences(text).flatMap((sentence) => sentence.tokens),
    namedMentions(text) {
      const doc = compromise(text);
      const found = new Map<string, NamedKind>();
      const collect = (kind: NamedKind, view: CompromiseMatches) =>
        view.forEach((match) => {
          const key = nameKey(trimName(match.text()));
          if (key && !found.has(key)) found.set(key, kind);
        });
      collect('person', doc.people());
      collect('organisation', doc.organizations());
      collect('place', doc.places());
      return found;
    },
  };
}

let loading: Promise<BuiltinNlp> | null = null;

export function loadBuiltinNlp(): Promise<BuiltinNlp> {
  loading ??= (async () => {
    const started = performance.now();
    const [{ default: winkNLP }, { default: model }] = await Promise.all([
      import('wink-nlp'),
      import('wink-eng-lite-web-model'),
    ]);
    // compromise's ESM entry is hundreds of small files (~1.3 s to load); its CommonJS export is one bundle (~0.4 s).
    const compromise = createRequire(import.meta.url)('compromise') as typeof compromiseModule;
    const wink = winkNLP(model);
    // compromise builds part of its lexicon on the first document; pay that here, not in a request.
    compromise('Warm up.').people();
    return createNlp(wink, compromise, performance.now() - started);
  })();
  return loading;
}

/** Joins tokens `[from, to)` back into the text they came from. */
export function spanText(tokens: readonly Token[], from: number, to: number): string {
  return tokens
    .slice(from, to)
    .map((token, i) => (i === 0 ? token.text : token.space + token.text))
    .join('');
}

export interface Span {
  from: number;
  to: number;
  text: string;
}

/**
 * Lowercase words that may join two capitalised parts of one name: "University of Paris", "Ludwig van
 * Beethoven", "European Organization for Nuclear Research", "Hanau-Lichtenberg" written "Hanau- Lichtenberg".
 */
const nameConnectors = new Set([
  'of',
  'de',
  'du',
  'da',
  'del',
  'della',
  'der',
  'van',
  'von',
  'la',
  'le',
  'y',
  'ibn',
  'bin',
  'bint',
  '&',
  'for',
  '-',
]);
const calendarWords =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|today|tomorrow|yesterday)\.?$/i;

function isCapitalised(token: Token): boolean {
  return /^\p{Lu}/u.test(token.text);
}

function isNamePart(token: Token, position: number, next?: Token): boolean {
  if (calendarWords.test(token.text)) return false;
  if (token.pos === 'PROPN') return /\p{L}/u.test(token.text);
  if (position === 0 || !isCapitalised(token)) return false;
  // wink tags the head noun of some names as NOUN ("New York City"), and a given name before a surname
  // or a company's head word as a verb ("Lie Tek Swie", "Halvard Shipping"); a capital mid-sentence is the tell.
  return (
    token.pos === 'NOUN' ||
    token.pos === 'ADJ' ||
    (token.pos === 'VERB' && (next?.pos === 'PROPN' || companyHeads.has(token.key)))
  );
}

const NOT_GIVEN_NAMES = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'to', 'with', 'at', 'by', 'from', 'as', 'or']);

/**
 * A capitalised stop word inside a sentence, right before a surname-like name part, is a given name:
 * "replacing Per Aasen", "with Will Ferrell".
 */
function isGivenNameStopWord(tokens: readonly Token[], i: number): boolean {
  const [token, previous, next] = [tokens[i], tokens[i - 1], tokens[i + 1]];
  return (
    i > 0 &&
    token.stopWord &&
    /^\p{Lu}\p{Ll}+$/u.test(token.text) &&
    ['ADP', 'AUX', 'SCONJ', 'VERB'].includes(token.pos) &&
    !NOT_GIVEN_NAMES.has(token.key) &&
    // Where a name stands: after a verb, a preposition, a conjunction or a comma ("replacing Per Aasen"), not after a noun ("kroner Per Person").
    (['VERB', 'ADP', 'CCONJ'].includes(previous.pos) || previous.text === ',') &&
    next !== undefined &&
    next.pos === 'PROPN' &&
    isCapitalised(next) &&
    !calendarWords.test(next.text)
  );
}

const REGNAL = /^(?:I|II|III|IV|V|VI|VII|VIII|IX|X|XI|XII|XIII|XIV|XV|XVI)$/;
const AFTER_REGNAL = new Set(['of', 'the', ',', '.', '(', ')', 'and', ';']);

/** A regnal number after a name ("Louis I of Hungary", "Henry VIII"): the one "I" that is no pronoun. */
function isRegnalNumber(tokens: readonly Token[], at: number): boolean {
  const token = tokens[at];
  if (!token || !REGNAL.test(token.text) || at === 0 || !isCapitalised(tokens[at - 1])) return false;
  return token.text !== 'I' || tokens[at + 1] === undefined || AFTER_REGNAL.has(tokens[at + 1].key);
}

/** Where an epithet after "the" ends: "the Great", and after a regnal number any one ("the Elbow-high"). */
function epithetEnd(tokens: readonly Token[], to: number): number {
  const [the, word] = [tokens[to], tokens[to + 1]];
  if (the?.key !== 'the' || !word || !isCapitalised(word)) return to;
  if (!epithets.has(word.key) && !(to > 0 && REGNAL.test(tokens[to - 1].text))) return to;
  let end = to + 2;
  // "Elbow-high" is read as three tokens with no space between them.
  while (tokens[end]?.text === '-' && tokens[end].space === '' && tokens[end + 1]?.space === '' && tokens[end + 1])
    end += 2;
  return end;
}

/** "the 1949 Cannes Film Festival", "the 2014 Summer Youth Olympics": an event's year belongs to its name. */
function withEventYear(tokens: readonly Token[], from: number, to: number): number {
  const year = tokens[from - 1];
  if (!year || !/^(?:1[5-9]|20)\d\d$/.test(year.text) || !eventHeads.has(tokens[to - 1].key)) return from;
  return from - 1 === 0 || tokens[from - 2].key === 'the' ? from - 1 : from;
}

/**
 * "the South Bohemian Region of the Czech Republic": two names the NLP knows each, joined by "of
 * the", are two names — a region and the country it lies in — unless the whole is known too.
 */
function splitsInTwo(tokens: readonly Token[], from: number, to: number, known: ReadonlySet<string>): boolean {
  const keys = (a: number, b: number) =>
    tokens
      .slice(a, b)
      .map((token) => token.key)
      .join(' ');
  if (known.has(keys(from, to))) return false;
  for (let at = from + 1; at + 2 < to; at++)
    if (
      tokens[at].key === 'of' &&
      tokens[at + 1].key === 'the' &&
      known.has(keys(from, at)) &&
      known.has(keys(at + 2, to))
    )
      return true;
  return false;
}

/** A month written after a given name, with no day or year after it, is a surname: "Brian May", "Theresa May". */
function isMonthSurname(tokens: readonly Token[], at: number): boolean {
  const next = tokens[at + 1];
  return at > 0 && /^(?:April|May|June|August)$/.test(tokens[at].text) && !(next && /^\d/.test(next.text));
}

/** Head words a patron's possessive stays part of: "King's College London", "St. Maurice's Abbey", "Guy's Hospital". */
const POSSESSIVE_HEADS = new Set([
  'abbey',
  'basilica',
  'cathedral',
  'chapel',
  'church',
  'college',
  'hospital',
  'island',
  'monastery',
  'priory',
  'school',
  'university',
]);

/** Where a patron's possessive and the head word after it end ("King" + "'s College"), else `to`. */
function possessiveHeadEnd(tokens: readonly Token[], to: number): number {
  const [mark, head] = [tokens[to], tokens[to + 1]];
  if (!mark || !head || !/^['’]s$/.test(mark.text) || mark.space !== '') return to;
  // "Anna's College friends": a head word qualifying a lowercase noun is no institution's name.
  const after = tokens[to + 2];
  if (after && /^\p{Ll}/u.test(after.text) && (after.pos === 'NOUN' || after.pos === 'ADJ')) return to;
  return isCapitalised(head) && POSSESSIVE_HEADS.has(head.key) ? to + 2 : to;
}

/**
 * "Albert of Saxe-Coburg and Gotha", "the Ministry of Tourism and Antiquities": one name of the form
 * "A of B and C" goes on past "and" to a last word C that stands alone (no name part after it), is no
 * known name or part of one, and no country — not "the King of France and Mary", "the Bank of England
 * and Barclays" when Barclays is known, "the Duke of York and Scotland".
 */
function ofAndEnd(tokens: readonly Token[], from: number, to: number, known: ReadonlySet<string>): number {
  const [and, last, after] = [tokens[to], tokens[to + 1], tokens[to + 2]];
  if (and?.key !== 'and' || !last || !isCapitalised(last) || last.pos !== 'PROPN') return to;
  const of = tokens.slice(from, to).findIndex((token) => token.key === 'of');
  // One or two words between "of" and "and" ("Saxe-Coburg" is three tokens with no space between them).
  const between = tokens
    .slice(from + of + 1, to)
    .filter((token) => token.space !== '' || token === tokens[from + of + 1]);
  if (of < 1 || between.length > 2) return to;
  // "Alfonso II of Aragon and Sancha of Castile": C opens a name of its own.
  const opensName =
    after &&
    (isNamePart(after, to + 2, tokens[to + 3]) ||
      after.text === '-' ||
      /^['’]s$/.test(after.text) ||
      nameConnectors.has(after.key));
  if (opensName) return to;
  if (places.has(last.key) || [...known].some((name) => name.split(' ').includes(last.key))) return to;
  return to + 2;
}

const AWARD_HEADS = new Set(['prize', 'award', 'awards', 'medal']);
/** Fields an award is given "in": "the Nobel Prize in Physics", "the Wolf Prize in Mathematics". */
const AWARD_FIELDS = new Set([
  'physics',
  'chemistry',
  'literature',
  'medicine',
  'physiology',
  'economics',
  'economic',
  'peace',
  'mathematics',
  'music',
  'architecture',
  'journalism',
  'poetry',
  'fiction',
  'drama',
  'history',
  'philosophy',
  'science',
  'sciences',
  'engineering',
]);

/** Where an award's field ends after "in" ("Nobel Prize in Physiology or Medicine"), else `to`. */
function awardFieldEnd(tokens: readonly Token[], to: number): number {
  if (!AWARD_HEADS.has(tokens[to - 1]?.key ?? '') || tokens[to]?.key !== 'in') return to;
  let end = to + 1;
  while (tokens[end] && isCapitalised(tokens[end]) && AWARD_FIELDS.has(tokens[end].key)) {
    end++;
    // "Physiology or Medicine", "Economic Sciences"
    if (['or', 'and'].includes(tokens[end]?.key ?? '') && AWARD_FIELDS.has(tokens[end + 1]?.key ?? '')) end++;
  }
  return end > to + 1 ? end : to;
}

/** Keeps the longest of overlapping spans (then the earliest), returned in text order. */
export function longestFirst<T extends { from: number; to: number }>(spans: readonly T[]): T[] {
  const sorted = [...spans].sort((a, b) => b.to - b.from - (a.to - a.from) || a.from - b.from);
  const taken = new Set<number>();
  const kept: T[] = [];
  for (const span of sorted) {
    const positions = Array.from({ length: span.to - span.from }, (_, i) => span.from + i);
    if (positions.some((position) => taken.has(position))) continue;
    for (const position of positions) taken.add(position);
    kept.push(span);
  }
  return kept.sort((a, b) => a.from - b.from);
}

/** Where a known name (as token keys) occurs capitalised in the sentence, start to end. */
function knownNameSpans(tokens: readonly Token[], knownNames: readonly string[][]): Span[] {
  const spans: Span[] = [];
  for (const keys of knownNames) {
    for (let from = 0; from + keys.length <= tokens.length; from++) {
      const to = from + keys.length;
      if (!keys.every((key, i) => tokens[from + i].key === key)) continue;
      const [first, last] = [tokens[from], tokens[to - 1]];
      // compromise reads through brackets: "Siti Noerbaja( Perfected Spelling: …)" is no one's name.
      if (
        !isCapitalised(first) ||
        !isCapitalised(last) ||
        tokens
          .slice(from, to)
          .some(
            (token, i) =>
              (calendarWords.test(token.text) && !(i > 0 && isMonthSurname(tokens, from + i))) ||
              /^[()[\]:;]$/.test(token.text),
          )
      )
        continue;
      spans.push({ from, to, text: trimName(spanText(tokens, from, to)) });
    }
  }
  return spans;
}

/**
 * Proper-noun spans of one sentence: runs of name parts, joined across connectors ("of", "van", "of
 * the"), without leading stop words ("The", "However") and without single lowercase words. Known names
 * (as token keys: what compromise found) win over the runs they overlap, since wink sometimes tags a
 * surname as a verb ("Tim Cook").
 */
export function properNounSpans(tokens: readonly Token[], knownNames: readonly string[][] = []): Span[] {
  const spans: Span[] = [];
  const known = new Set(knownNames.map((keys) => keys.join(' ')));
  let i = 0;
  while (i < tokens.length) {
    if ((!isNamePart(tokens[i], i, tokens[i + 1]) || tokens[i].stopWord) && !isGivenNameStopWord(tokens, i)) {
      i++;
      continue;
    }
    let from = i;
    let to = i + 1;
    for (;;) {
      if (
        to < tokens.length &&
        (isNamePart(tokens[to], to, tokens[to + 1]) || isMonthSurname(tokens, to) || isRegnalNumber(tokens, to))
      ) {
        to++;
        continue;
      }
      // An epithet belongs to the name: "Boso the Elder", "Alfred the Great".
      const epithet = epithetEnd(tokens, to);
      if (epithet > to) {
        to = epithet;
        continue;
      }
      const field = awardFieldEnd(tokens, to);
      if (field > to) {
        to = field;
        continue;
      }
      const possessive = possessiveHeadEnd(tokens, to);
      if (possessive > to) {
        to = possessive;
        continue;
      }
      let gap = to;
      while (
        gap < tokens.length &&
        gap - to < 2 &&
        (nameConnectors.has(tokens[gap].key) || (gap > to && tokens[gap].key === 'the'))
      )
        gap++;
      if (
        gap > to &&
        gap < tokens.length &&
        isNamePart(tokens[gap], gap, tokens[gap + 1]) &&
        isCapitalised(tokens[gap])
      )
        to = gap;
      else break;
    }
    to = ofAndEnd(tokens, from, to, known);
    i = to;
    if (splitsInTwo(tokens, from, to, known)) continue;
    from = withEventYear(tokens, from, to);
    const text = trimName(spanText(tokens, from, to));
    if (!text || (to - from === 1 && !isCapitalised(tokens[from]))) continue;
    spans.push({ from, to, text });
  }
  return longestFirst([...knownNameSpans(tokens, knownNames), ...spans]);
}
