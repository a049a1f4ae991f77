import { createRequire } from 'node:module';
import type { ItemSentence, ItemToken, ItsFunction, PartOfSpeech, WinkMethods } from 'wink-nlp';
import type compromiseModule from 'compromise';
import { epithets } from './gazetteer.ts';

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
    wink
      .readDoc(text)
      .sentences()
      .each((sentence: ItemSentence) => {
        const tokens: Token[] = [];
        sentence.tokens().each((token: ItemToken) => {
          const value = token.out();
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
        result.push({ text: sentence.out().trim(), tokens });
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
  // as a verb ("Lie Tek Swie"); a capital mid-sentence is the tell.
  return token.pos === 'NOUN' || token.pos === 'ADJ' || (token.pos === 'VERB' && next?.pos === 'PROPN');
}

/** A month written after a given name, with no day or year after it, is a surname: "Brian May", "Theresa May". */
function isMonthSurname(tokens: readonly Token[], at: number): boolean {
  const next = tokens[at + 1];
  return at > 0 && /^(?:April|May|June|August)$/.test(tokens[at].text) && !(next && /^\d/.test(next.text));
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
  let i = 0;
  while (i < tokens.length) {
    if (!isNamePart(tokens[i], i, tokens[i + 1]) || tokens[i].stopWord) {
      i++;
      continue;
    }
    const from = i;
    let to = i + 1;
    for (;;) {
      if (to < tokens.length && (isNamePart(tokens[to], to, tokens[to + 1]) || isMonthSurname(tokens, to))) {
        to++;
        continue;
      }
      // An epithet belongs to the name: "Boso the Elder", "Alfred the Great".
      if (
        tokens[to]?.key === 'the' &&
        tokens[to + 1] &&
        isCapitalised(tokens[to + 1]) &&
        epithets.has(tokens[to + 1].key)
      ) {
        to += 2;
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
    i = to;
    const text = trimName(spanText(tokens, from, to));
    if (!text || (to - from === 1 && !isCapitalised(tokens[from]))) continue;
    spans.push({ from, to, text });
  }
  return longestFirst([...knownNameSpans(tokens, knownNames), ...spans]);
}
