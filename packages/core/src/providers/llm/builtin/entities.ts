import type { EntityRecord } from '../line-grammar.ts';
import { technicalKind, technicalCue } from './entity-kinds.ts';
import { cleanNameSpan } from './entity-noise.ts';
import { companyHeads, organisationHeads, placeHeads, places } from './gazetteer.ts';
import { nodeTypeFor, type EntityKind } from './kinds.ts';
import { nameMentions } from './mentions.ts';
import { nameKey, spanText, trimName, type BuiltinNlp, type NamedKind, type Token } from './nlp.ts';
import { isDemonym, labelLength, stripTitles } from './readable.ts';
import { manualWords } from './technical-gazetteer.ts';
import { technicalMentions, type TechnicalMention } from './technical-mentions.ts';

/**
 * The entity pass without a model: name spans (mentions.ts) cleaned of what a reader would not call
 * an entity (nationalities become a `nationality` property of the person the sentence is about, titles
 * a `title` property), typed, and merged across sentences.
 *
 * Technical text adds the names written in its own notation (technical-mentions.ts: `gzip(1)`,
 * `% make`, `BUILD_TLS`, paths, copyright holders) and loses what only looks like a name
 * (entity-noise.ts: option letters, sentence-initial words, licence boilerplate).
 *
 * The type comes from, in order: the notation, the sentence's shape (a definition's noun, a quoted
 * title), the gazetteers (countries, states and cities are places; a name ending in "University",
 * "Center", "Records" … is an organisation, one ending in "River", "County" … a place; protocols,
 * formats, languages and software by name), what compromise recognises, a stripped title (a person),
 * a place preposition ("born in", "located in"), and the word after the name ("SOCKS protocol",
 * "texinfo format", "the EscapeChar directive").
 *
 * Confidence says how the type was found: 0.9 from the sentence's shape, a gazetteer or compromise
 * naming exactly this span; 0.8 from compromise naming a name containing it or contained in it, or
 * from a title or place preposition; 0.7 for an untyped multi-word name, 0.6 for an untyped single
 * word; +0.05 when the entity is mentioned in more than one sentence.
 */

export type BuiltinEntity = Omit<EntityRecord, 'kind'> & { properties: Record<string, string> };

interface Group {
  key: string;
  name: string;
  kind: EntityKind;
  confidence: number;
  refs: Set<number>;
  aliases: Set<string>;
  properties: Map<string, Set<string>>;
  /** Sentence and token position of the first mention, for output order. */
  firstSeen: [number, number];
}

/** Words that join two names into a third ("University of Paris"), unlike particles such as "van". */
const joiningWords = new Set(['of', 'the', 'and', '&', 'for', 'ibn', 'bin', 'bint']);
const GENERATIONS = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);
const MAKER_HEADS = new Set(['project', 'team', 'developers', 'community', 'authors', 'maintainers', 'contributors']);
/** Titles held over a realm: "King of Poland", "Margrave of Tuscany", "Countess of Toulouse". */
const REALM_TITLES = new Set(
  'king queen prince princess emperor empress duke duchess archduke archduchess count countess margrave margravine earl baron baroness marquess marquis viscount landgrave elector tsar sultan shah emir caliph khan bishop archbishop abbot abbess'.split(
    ' ',
  ),
);
const PLACE_CUES = new Set(['born in', 'died in', 'located in', 'based in', 'situated in', 'born at', 'died at']);

function containsWords(longer: string, shorter: string): boolean {
  return ` ${longer} `.includes(` ${shorter} `);
}

/** Compromise's kind; containment only counts without "of": "Paris" is not a kind of "University of Paris". */
function namedKind(key: string, named: Map<string, NamedKind>): { kind: EntityKind; confidence: number } | null {
  const exact = named.get(key);
  if (exact) return { kind: exact, confidence: 0.9 };
  if (containsWords(key, 'of')) return null;
  for (const [name, kind] of named) {
    if (!containsWords(name, 'of') && (containsWords(name, key) || containsWords(key, name)))
      return { kind, confidence: 0.8 };
  }
  return null;
}

/** A kind the words of the name give away: a known place, or a head word such as "University" or "River". */
function gazetteerKind(key: string): EntityKind | null {
  if (places.has(key)) return 'place';
  const words = key.replace(/['’]s\b/g, '').split(/[\s-]+/);
  const last = words[words.length - 1];
  // A head word alone ("Limited", "University") names no organisation or place.
  if (words.length === 1) return null;
  const head = words[1] === 'of' || words[1] === 'for' ? words[0] : last;
  if (organisationHeads.has(head) || organisationHeads.has(last)) return 'organisation';
  if (words.length <= 3 && companyHeads.has(last) && !words.includes('of') && !manualWords.has(words[0]))
    return 'organisation';
  if (placeHeads.has(head) || placeHeads.has(last)) return 'place';
  return null;
}

interface SpanFacts {
  key: string;
  /** The name as written. */
  name: string;
  shapeKind: EntityKind | null;
  titled: boolean;
  before: string;
  /** The kind the words around the name give away ("SOCKS protocol", "the EscapeChar directive"). */
  cue: EntityKind | null;
}

/**
 * "T. Ylonen", "C. Lonvick": an initial and a surname; "release by Tatu Ylonen": two or three
 * capitalised words after "by" that are not known as anything else.
 */
function looksLikePersonalName(name: string, before: string): boolean {
  if (/^(?:\p{Lu}\.\s?){1,2}\p{Lu}\p{Ll}+$/u.test(name)) return true;
  return /(?:^| )by$/.test(before) && /^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){1,2}$/u.test(name);
}

function classify(facts: SpanFacts, named: Map<string, NamedKind>): { kind: EntityKind; confidence: number } {
  if (facts.shapeKind) return { kind: facts.shapeKind, confidence: 0.9 };
  const fromGazetteer = gazetteerKind(facts.key) ?? technicalKind(facts.key);
  if (fromGazetteer) return { kind: fromGazetteer, confidence: 0.9 };
  const fromCompromise = namedKind(facts.key, named);
  if (fromCompromise) return fromCompromise;
  if (facts.titled) return { kind: 'person', confidence: 0.8 };
  if (PLACE_CUES.has(facts.before)) return { kind: 'place', confidence: 0.8 };
  if (facts.cue) return { kind: facts.cue, confidence: 0.8 };
  if (looksLikePersonalName(facts.name, facts.before)) return { kind: 'person', confidence: 0.75 };
  return { kind: 'generic', confidence: facts.key.includes(' ') ? 0.7 : 0.6 };
}

function compatible(a: EntityKind, b: EntityKind): boolean {
  return a === b || a === 'generic' || b === 'generic';
}

/**
 * The longer name a shorter one abbreviates, if exactly one qualifies: the shorter is its first or
 * last words ("Curie" of "Marie Curie"), not cut at a connector ("Paris" of "University of Paris"),
 * and the kinds agree. An ambiguous short name ("Curie" with Marie and Pierre Curie) has no owner.
 */
function ownerOf(short: Group, groups: Iterable<Group>): Group | null | 'ambiguous' {
  const shortWords = short.key.split(' ');
  const owners: Group[] = [];
  for (const long of groups) {
    const longWords = long.key.split(' ');
    if (longWords.length <= shortWords.length || !compatible(short.kind, long.kind)) continue;
    const n = shortWords.length;
    const prefix = longWords.slice(0, n).join(' ') === short.key && !joiningWords.has(longWords[n]);
    const suffix =
      longWords.slice(-n).join(' ') === short.key && !joiningWords.has(longWords[longWords.length - n - 1]);
    // "James Watt Jr." is James Watt's son, not another way to write "James Watt".
    const generation = prefix && longWords.length === n + 1 && GENERATIONS.has(longWords[n].replace(/\.$/, ''));
    // "the OpenSSL Project" makes OpenSSL; "the Redis Team" works on Redis: the makers are not the thing.
    const makers = prefix && longWords.length === n + 1 && MAKER_HEADS.has(longWords[n]);
    if ((prefix && !generation && !makers) || suffix) owners.push(long);
  }
  if (owners.length > 1) return 'ambiguous';
  return owners[0] ?? null;
}

function addProperty(group: Group, key: string, value: string): void {
  const values = group.properties.get(key) ?? new Set<string>();
  values.add(value);
  group.properties.set(key, values);
}

/** The two words before a span, lowercased: "born in". */
function wordsBefore(tokens: readonly Token[], from: number): string {
  return tokens
    .slice(Math.max(0, from - 2), from)
    .map((token) => token.key)
    .join(' ');
}

interface Collected {
  groups: Map<string, Group>;
  /** Nationalities per sentence index, given to the person the sentence is about. */
  nationalities: Map<number, string[]>;
}

/** Where each token starts in the sentence's text. */
function tokenOffsets(sentence: string, tokens: readonly Token[]): number[] {
  let position = 0;
  return tokens.map((token) => {
    const found = sentence.indexOf(token.text, position);
    const start = found === -1 ? position : found;
    position = start + token.text.length;
    return start;
  });
}

const TITLE_JOINERS = new Set(['of', 'and', 'in', 'the', 'for', 'a', 'an', 'to', 'on', 'with', '&']);

/**
 * A title standing alone as the group's first line ("Users and Groups in the Debian System"): four
 * to ten words, every other word capitalised, no closing punctuation. It names the document.
 */
function isTitleLine(tokens: readonly Token[]): boolean {
  const words = tokens.filter((token) => /[\p{L}\p{N}]/u.test(token.text));
  if (words.length < 4 || words.length > 10 || words.length !== tokens.length) return false;
  return (
    words.every((token) => /^\p{Lu}/u.test(token.text) || TITLE_JOINERS.has(token.key)) &&
    /^\p{Lu}/u.test(words[0].text)
  );
}

/**
 * Where the realm of a title starts in a mention ("King of Poland" → "Poland"): a title is no one's
 * name, its realm is a place. -1 when the mention is not a title over a realm.
 */
function realmStart(tokens: readonly Token[], from: number, to: number): number {
  if (!REALM_TITLES.has(tokens[from].key) || tokens[from + 1]?.key !== 'of') return -1;
  const start = tokens[from + 2]?.key === 'the' ? from + 3 : from + 2;
  return start < to && /^\p{Lu}/u.test(tokens[start].text) ? start : -1;
}

/** Most of the sentence's words (at least five) are written in capitals. */
function isShouting(tokens: readonly Token[]): boolean {
  const words = tokens.filter((token) => /\p{L}{2,}/u.test(token.text));
  const capitals = words.filter((token) => !/\p{Ll}/u.test(token.text));
  return words.length >= 5 && capitals.length >= words.length * 0.6;
}

interface Collector {
  groups: Map<string, Group>;
  add(index: number, name: string, kind: EntityKind, confidence: number, from: number): Group | null;
}

function collector(): Collector {
  const groups = new Map<string, Group>();
  return {
    groups,
    add(index, name, kind, confidence, from) {
      const key = nameKey(name);
      if (!key) return null;
      let group = groups.get(key);
      if (!group) {
        group = {
          key,
          name,
          kind,
          confidence,
          refs: new Set(),
          aliases: new Set(),
          properties: new Map(),
          firstSeen: [index, from],
        };
        groups.set(key, group);
      } else if (confidence > group.confidence) Object.assign(group, { kind, confidence });
      group.refs.add(index + 1);
      return group;
    },
  };
}

/** Technical mentions a longer proper-noun run contains give way to it ("tar" inside "GNU tar"), unless marked (`SSH(1)`). */
function technicalWinners(
  technical: readonly TechnicalMention[],
  runs: readonly [number, number][],
): TechnicalMention[] {
  return technical.filter(
    (mention) =>
      mention.marked === true ||
      !runs.some(
        ([start, end]) => start <= mention.start && mention.end <= end && end - start > mention.end - mention.start,
      ),
  );
}

function collectMentions(nlp: BuiltinNlp, sentences: readonly string[]): Collected {
  const { groups, add } = collector();
  const nationalities = new Map<number, string[]>();
  const tokenised = sentences.map((sentence) => nlp.tokens(sentence));
  const lowercaseWords = new Set(
    tokenised.flat().flatMap((token) => (/^\p{Ll}[\p{Ll}-]*$/u.test(token.text) ? [token.key] : [])),
  );
  sentences.forEach((sentence, index) => {
    const tokens = tokenised[index];
    if (index === 0 && isTitleLine(tokens)) {
      add(index, sentence.trim(), 'document', 0.9, 0);
      return;
    }
    const named = nlp.namedMentions(sentence);
    const knownNames = [...named.keys()].map((name) => nlp.tokens(name).map((token) => token.key));
    const offsets = tokenOffsets(sentence, tokens);
    const notation = technicalMentions(sentence);
    // A NAME line ("ssh — OpenSSH remote login client") looks like a heading but names things.
    const heading = notation.some((mention) => mention.subject) ? false : undefined;
    const mentions = nameMentions(tokens, knownNames, new Set(named.keys()), heading);
    const charRange = (from: number, to: number): [number, number] => [
      offsets[from],
      offsets[to - 1] + tokens[to - 1].text.length,
    ];
    const technical = technicalWinners(
      notation,
      mentions.map((mention) => charRange(mention.from, mention.to)),
    );
    for (const mention of technical) {
      const from = Math.max(
        0,
        offsets.findIndex((offset) => offset >= mention.start),
      );
      const group = add(index, mention.text, mention.kind, mention.subject ? 0.95 : 0.9, from);
      // The NAME line spells the subject as it is typed ("ssh"), the page header in capitals ("SSH(1)").
      if (group && mention.subject) group.name = mention.text;
    }
    const known = (key: string) => named.has(key) || gazetteerKind(key) !== null || technicalKind(key) !== null;
    // A sentence in capitals ("IN NO EVENT SHALL THE AUTHORS BE LIABLE …") has no capitalised names but known ones.
    const shouting = isShouting(tokens);
    const context = { tokens, start: labelLength(tokens), lowercaseWords, known };
    for (const found of mentions) {
      const [start, end] = charRange(found.from, found.to);
      if (technical.some((mention) => start < mention.end && mention.start < end)) continue;
      if (isDemonym(found.text)) {
        nationalities.set(index, [...(nationalities.get(index) ?? []), found.text]);
        continue;
      }
      if (shouting && !known(nameKey(found.text))) continue;
      const span = cleanNameSpan(found.from, found.to, context, found.kind !== null);
      if (!span) continue;
      const cut = span.from !== found.from || span.to !== found.to;
      const mention = cut
        ? {
            ...found,
            ...span,
            text: trimName(spanText(tokens, span.from, span.to)),
            kind: span.from === found.from ? found.kind : null,
          }
        : found;
      const realm = mention.kind === 'work' ? -1 : realmStart(tokens, mention.from, mention.to);
      if (realm !== -1)
        Object.assign(mention, { from: realm, text: trimName(spanText(tokens, realm, mention.to)), kind: 'place' });
      const whole = nameKey(mention.text);
      const keepsTitle = mention.kind !== null && mention.kind !== 'person';
      const organisation =
        named.get(whole) === 'organisation' || named.get(whole) === 'place' || gazetteerKind(whole) !== null;
      const { name, title } =
        keepsTitle || organisation ? { name: mention.text, title: null } : stripTitles(mention.text);
      const key = nameKey(name);
      if (!key) continue;
      const { kind, confidence } = classify(
        {
          key,
          name,
          shapeKind: mention.kind,
          titled: title !== null,
          before: wordsBefore(tokens, mention.from),
          cue: technicalCue(tokens, mention.from, mention.to),
        },
        named,
      );
      const group = add(index, name, kind, confidence, mention.from);
      if (!group) continue;
      if (title) addProperty(group, 'title', title);
      if (mention.acronym) group.aliases.add(mention.acronym);
    }
  });
  return { groups, nationalities };
}

/**
 * A run of names without punctuation between them ("Joey Hess Colin Watson David Mandelberg", from a
 * title page's lines) is those names: when its words are exactly other entities' names in a row, it
 * gives its sentences to them and goes.
 */
function splitRunsOfNames(groups: Map<string, Group>): void {
  const keys = new Set([...groups.keys()].filter((key) => key.includes(' ')));
  const partition = (words: string[]): string[] | null => {
    if (words.length === 0) return [];
    for (let size = Math.min(words.length, 4); size >= 2; size--) {
      const head = words.slice(0, size).join(' ');
      if (!keys.has(head)) continue;
      const rest = partition(words.slice(size));
      if (rest) return [head, ...rest];
    }
    return null;
  };
  for (const group of [...groups.values()]) {
    const words = group.key.split(' ');
    if (words.length < 4) continue;
    const parts = partition(words);
    if (!parts || parts.length < 2) continue;
    groups.delete(group.key);
    for (const part of parts) for (const ref of group.refs) groups.get(part)?.refs.add(ref);
  }
}

/** "the PSF" after "the Python Software Foundation (PSF, …)": a name that is another entity's acronym is that entity. */
function mergeAcronyms(groups: Map<string, Group>): void {
  const owners = new Map<string, Group>();
  for (const group of groups.values()) for (const alias of group.aliases) owners.set(nameKey(alias), group);
  for (const group of [...groups.values()]) {
    const owner = owners.get(group.key);
    if (!owner || owner === group) continue;
    groups.delete(group.key);
    for (const ref of group.refs) owner.refs.add(ref);
  }
}

function compareFirstSeen(a: Group, b: Group): number {
  return a.firstSeen[0] - b.firstSeen[0] || a.firstSeen[1] - b.firstSeen[1];
}

function mergeShortNames(groups: Map<string, Group>): void {
  const byLength = [...groups.values()].sort((a, b) => a.key.split(' ').length - b.key.split(' ').length);
  for (const short of byLength) {
    const owner = ownerOf(short, groups.values());
    if (owner === null) continue;
    groups.delete(short.key);
    if (owner === 'ambiguous') continue;
    owner.aliases.add(short.name);
    for (const alias of short.aliases) owner.aliases.add(alias);
    for (const ref of short.refs) owner.refs.add(ref);
    for (const [key, values] of short.properties) for (const value of values) addProperty(owner, key, value);
    owner.confidence = Math.max(owner.confidence, short.confidence);
    if (owner.kind === 'generic') owner.kind = short.kind;
    if (compareFirstSeen(short, owner) < 0) owner.firstSeen = short.firstSeen;
  }
}

/** "Scottish inventor" goes to the person the sentence names first, else to the last person named before it. */
function assignNationalities(groups: Iterable<Group>, nationalities: Map<number, string[]>): void {
  const people = [...groups].filter((group) => group.kind === 'person').sort(compareFirstSeen);
  for (const [index, values] of nationalities) {
    const owner =
      people.find((person) => person.refs.has(index + 1)) ??
      people.filter((person) => person.firstSeen[0] <= index).at(-1);
    for (const value of values) if (owner) addProperty(owner, 'nationality', value);
  }
}

export function extractEntities(
  nlp: BuiltinNlp,
  sentences: readonly string[],
  nodeTypes: readonly string[],
): BuiltinEntity[] {
  const { groups, nationalities } = collectMentions(nlp, sentences);
  splitRunsOfNames(groups);
  mergeAcronyms(groups);
  mergeShortNames(groups);
  assignNationalities(groups.values(), nationalities);
  return [...groups.values()].sort(compareFirstSeen).map((group) => {
    const refs = [...group.refs].sort((a, b) => a - b);
    return {
      name: group.name,
      type: nodeTypeFor(group.kind, nodeTypes),
      aliases: [...group.aliases],
      confidence: Math.min(0.95, group.confidence + (refs.length > 1 ? 0.05 : 0)),
      sentenceRefs: refs,
      description: sentences[refs[0] - 1].trim(),
      properties: Object.fromEntries([...group.properties].map(([key, values]) => [key, [...values].join('; ')])),
    };
  });
}
