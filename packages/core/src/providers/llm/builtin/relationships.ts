import type { RelationshipRecord } from '../line-grammar.ts';
import type { ExtractionTask } from '../port.ts';
import { matchEdgeType, relatedToType } from './edge-types.ts';
import { kindOfType, type EntityKind } from './kinds.ts';
import { conjoinedCue, cueBefore, domainSpelling, type CanonicalRelation, type Cue } from './relation-cues.ts';
import { longestFirst, type BuiltinNlp, type Token } from './nlp.ts';

/**
 * The relationship pass without a model. Each named mention looks at the words between it and the
 * mention before it: a cue there (relation-cues.ts: "born in", "daughter of", "directed by", "written
 * by", "depends on", "the capital of") types a relation between it and its other end — the name right
 * before a short cue in the same clause ("FFmpeg uses GnuTLS", "the GPL as published by the FSF"), the
 * name before an appositive ("Bertha, daughter of Lothair", "Cairo, the capital of Egypt"), the person
 * a "he" or "she" in the cue stands for, else the sentence's subject. A list ("starring A, B and C")
 * carries the cue on; two places joined by a comma ("Geneva, Switzerland") are located_in unless more
 * places follow (a list of places is no chain); a short verb phrase between neighbours that names a
 * domain edge type types that pair. "Related to" is kept only for neighbours a few words apart in one
 * clause with a verb between them: names merely listed, set side by side or split by a comma or a
 * bracket state no relation. The subject is the mention opening the sentence, else what a pronoun
 * opening it stands for ("He" the last person the text opened with, "It" the text's topic, its first
 * name), else the topic.
 *
 * Confidence: 0.8 from a cue or a list, 0.7 for places joined by a comma or a verb that names a
 * domain edge type, 0.4 for "related to"; 0.15 less when one end is a resolved pronoun.
 */

type RelationshipTask = Extract<ExtractionTask, { pass: 'relationships' }>;

interface Word extends Token {
  /** A comma stands right before this word. */
  commaBefore: boolean;
  /** A comma, bracket, colon or dash stands right before this word: a new clause or an aside starts. */
  breakBefore: boolean;
  /** The word stands inside brackets: an aside ("Rodionov Publishing House (IDR) is based in Moscow"). */
  inBrackets: boolean;
}

interface Mention {
  entity: number;
  /** Word positions `[from, to)` in the sentence (punctuation left out). */
  from: number;
  to: number;
  viaPronoun: boolean;
}

const MIN_JUSTIFICATION = 50;
const MAX_UNTYPED_GAP = 4;
const MAX_ADJACENT_CUE = 3;
const LIST_JOINERS = new Set(['and', 'or']);
const ARTICLES = new Set(['the', 'a', 'an']);
const PERSONAL = new Set<CanonicalRelation>([
  'born_in',
  'died_in',
  'married_to',
  'child_of',
  'parent_of',
  'sibling_of',
  'educated_at',
  'works_at',
  'member_of',
  'wrote',
  'leads',
  'acted_in',
]);
/** Relations read from "a book by", "music by": their other end is a work, never a person ("the new book by Dr. Morisset" is no book about Patin). */
const AUTHORED = new Set<CanonicalRelation>(['wrote', 'composed']);
const TOPIC_OPENERS = new Set(['it', 'they', 'this', 'the']);
const PRONOUNS = new Set(['he', 'she', 'it', 'they', 'his', 'her', 'its', 'their']);

function matchKey(token: Token): string {
  return token.key.replace(/\.+$/, '');
}

/** "start-up", "long-running": lowercase words joined by a hyphen with no space, one word of the phrase. */
const isInnerHyphen = (tokens: readonly Token[], i: number) =>
  tokens[i].text === '-' &&
  tokens[i].space === '' &&
  tokens[i + 1]?.space === '' &&
  /^\p{Ll}/u.test(tokens[i - 1]?.text ?? '') &&
  /^\p{Ll}/u.test(tokens[i + 1]?.text ?? '');

function words(nlp: BuiltinNlp, text: string): Word[] {
  const result: Word[] = [];
  let comma = false;
  let clauseBreak = false;
  let depth = 0;
  const tokens = nlp.tokens(text);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const last = result[result.length - 1];
    if (last && i > 0 && isInnerHyphen(tokens, i) && !comma && !clauseBreak) {
      const part = tokens[++i];
      last.text += `-${part.text}`;
      last.key += `-${part.key}`;
      last.lemma = last.key;
      // "start-up" names a thing whatever its last part is tagged; "co-founded" keeps its verb.
      if (!['VERB', 'ADJ', 'NOUN'].includes(part.pos)) last.pos = 'NOUN';
      else last.pos = part.pos;
      continue;
    }
    if (token.pos === 'PUNCT') {
      comma ||= token.text === ',' || token.text === ';';
      clauseBreak ||= /^[,;:()[\]–—-]+$/.test(token.text);
      if (/^[([]+$/.test(token.text)) depth++;
      else if (/^[)\]]+$/.test(token.text)) depth = Math.max(0, depth - 1);
      continue;
    }
    result.push({ ...token, commaBefore: comma, breakBefore: clauseBreak || comma, inBrackets: depth > 0 });
    comma = false;
    clauseBreak = false;
  }
  return result;
}

/** Every name and alias of each entity, as word keys. */
function entityForms(nlp: BuiltinNlp, entities: RelationshipTask['entities']): string[][][] {
  return entities.map((entity) =>
    [entity.name, ...(entity.aliases ?? [])]
      .map((form) => words(nlp, form).map(matchKey))
      .filter((form) => form.length > 0),
  );
}

/** Named mentions, longest first so "University of Paris" hides the "Paris" inside it. */
function findMentions(sentence: readonly Token[], forms: readonly string[][][]): Mention[] {
  const keys = sentence.map(matchKey);
  const candidates: Mention[] = [];
  forms.forEach((entityForms, entity) => {
    for (const form of entityForms) {
      for (let from = 0; from + form.length <= keys.length; from++) {
        if (form.every((key, i) => keys[from + i] === key))
          candidates.push({ entity, from, to: from + form.length, viaPronoun: false });
      }
    }
  });
  return longestFirst(candidates);
}

const wordKeys = (window: readonly Word[]) => window.map(matchKey).join(' ');

/** Words that may stand between a cue and its name: "founded by American ordnance engineer Benjamin B. Hotchkiss". */
const DESCRIPTIVE = new Set(['NOUN', 'ADJ', 'NUM', 'PROPN']);
const MAX_DESCRIPTIVE = 3;
/** "'s" and at most three words between a possessor and the name it stands before ("'s eldest daughter"). */
const MAX_POSSESSIVE = 4;

/**
 * The cue ending the words before a name, looked for again without a few descriptive words at their
 * end — words of the name's own phrase: a name in brackets after them ("written in C (Haiku backend
 * …") is an aside, not what they describe.
 */
function cueIn(window: readonly Word[], name: Word | undefined): Cue | null {
  for (let cut = 0; cut <= Math.min(MAX_DESCRIPTIVE, window.length - 1); cut++) {
    if (cut > 0 && !DESCRIPTIVE.has(window[window.length - cut].pos)) return null;
    if (cut > 0 && name?.inBrackets !== window[window.length - cut].inBrackets) return null;
    const cue = cueBefore(wordKeys(window.slice(0, window.length - cut)));
    if (cue) return cue;
  }
  return null;
}

/** The sentence, with its neighbours added while it is shorter than a useful justification. */
function justification(sentences: readonly string[], index: number): string {
  let text = sentences[index].trim();
  if (text.length < MIN_JUSTIFICATION && index + 1 < sentences.length) text = `${text} ${sentences[index + 1].trim()}`;
  if (text.length < MIN_JUSTIFICATION && index > 0) text = `${sentences[index - 1].trim()} ${text}`;
  return text;
}

interface Link {
  source: number;
  target: number;
  type: string;
  confidence: number;
}

interface Context {
  task: RelationshipTask;
  isPerson: (entity: number) => boolean;
  /** A person, or a name of no known kind: a text's subject the typing could not place is most often someone. */
  mayBePerson: (entity: number) => boolean;
  isPlace: (entity: number) => boolean;
  kindOf: (entity: number) => EntityKind;
  /** The first entity the text names. */
  topic: number | null;
  /** The last person a sentence opened with. */
  lastPerson: number | null;
  /** The last organisation (or name of no known kind) a sentence named. */
  lastOrganisation: number | null;
  /** The last creative work a sentence named. */
  lastWork: number | null;
}

/** Nouns that, opening a sentence after "The", stand for the work named before ("The film stars …"). */
const WORK_ANAPHORS = new Set(['film', 'movie', 'novel', 'book', 'album', 'game', 'series', 'play', 'documentary']);

/** Nouns that, after "the", stand for an organisation named before ("the company", "the band"). */
const ORGANISATION_ANAPHORS = new Set([
  'company',
  'firm',
  'carmaker',
  'start-up',
  'startup',
  'bank',
  'airline',
  'band',
  'club',
  'team',
  'studio',
]);
const mayBeOrganisation = (context: Context, entity: number) =>
  context.kindOf(entity) === 'organisation' || context.kindOf(entity) === 'generic';

/**
 * "the company", "the band": a definite organisation noun stands for the organisation named last
 * before it ("Jeff Bezos, who founded the company in 1994").
 */
function organisationAnaphors(sentence: readonly Word[], named: readonly Mention[], context: Context): Mention[] {
  const found: Mention[] = [];
  for (let i = 0; i + 1 < sentence.length; i++) {
    if (sentence[i].key !== 'the' || !ORGANISATION_ANAPHORS.has(sentence[i + 1].key)) continue;
    if (named.some((mention) => mention.from <= i + 1 && i < mention.to)) continue;
    const antecedent =
      named.filter((mention) => mention.to <= i && mayBeOrganisation(context, mention.entity)).at(-1)?.entity ??
      context.lastOrganisation;
    if (antecedent !== null) found.push({ entity: antecedent, from: i, to: i + 2, viaPronoun: true });
  }
  return found;
}

/** Who the sentence is about, and the mention standing for it when a pronoun opens the sentence. */
function sentenceSubject(
  sentence: readonly Word[],
  named: readonly Mention[],
  context: Context,
): { subject: number | null; pronoun: Mention | null } {
  const opening = named[0];
  // "The Louvre is …" opens with its subject; "Starring Asmanah, …" with a verb about something else.
  if (opening && (opening.from === 0 || (opening.from === 1 && sentence[0].pos !== 'VERB')))
    return { subject: opening.entity, pronoun: null };
  const first = sentence[0]?.key;
  const stand = (entity: number | null) =>
    entity === null || named.some((mention) => mention.entity === entity)
      ? null
      : { entity, from: 0, to: 1, viaPronoun: true };
  if (first === 'he' || first === 'she') return { subject: context.lastPerson, pronoun: stand(context.lastPerson) };
  // "The film stars Noémie Merlant": the work the text is about, else the work named last before (a text
  // about a film names the novel it is based on too).
  const work = context.topic !== null && context.kindOf(context.topic) === 'work' ? context.topic : context.lastWork;
  if (first === 'the' && WORK_ANAPHORS.has(sentence[1]?.key ?? '') && work !== null)
    return { subject: work, pronoun: stand(work) };
  if (first && TOPIC_OPENERS.has(first)) return { subject: context.topic, pronoun: stand(context.topic) };
  return { subject: context.topic, pronoun: null };
}

function typed(
  relation: CanonicalRelation,
  source: number,
  target: number,
  confidence: number,
  edgeTypes: readonly string[],
): Link {
  const { type, reversed } = domainSpelling(relation, edgeTypes);
  return reversed ? { source: target, target: source, type, confidence } : { source, target, type, confidence };
}

/** Relations naming a role a person holds ("chief executive of", "professor at", "member of"). */
const ROLES = new Set<CanonicalRelation>(['leads', 'works_at', 'member_of']);

/** Where a cue's relation starts or ends, besides the name after the cue. */
function cueOtherEnd(
  cue: Cue,
  at: {
    window: readonly Word[];
    previous: Mention | null;
    /** The cue that linked the previous name, and the other end it linked it to, if one did. */
    previousCue: { cue: Cue; other: number } | null;
    earlier: readonly Mention[];
    sameClause: boolean;
    subject: number | null;
  },
  context: Context,
): number | null {
  const { window, previous, subject } = at;
  const lastPerson = [...at.earlier].reverse().find((other) => context.isPerson(other.entity))?.entity ?? null;
  // The name right before a short cue in its clause: "FFmpeg uses GnuTLS", "the GPL as published by the FSF".
  const adjacent =
    at.sameClause &&
    window.filter((word) => !ARTICLES.has(word.key)).length <= MAX_ADJACENT_CUE &&
    !LIST_JOINERS.has(window[0]?.key ?? '');
  const appositive =
    cue.appositive &&
    window[0]?.commaBefore &&
    !window.some((word) => LIST_JOINERS.has(word.key) || PRONOUNS.has(word.key));
  // "… when he invented the World Wide Web": the person the pronoun stands for did it.
  const personal = window.some((word) => word.key === 'he' || word.key === 'she');
  // "succeeded by Lip-Bu Tan as chief executive of Intel": the role is the name's before "as" — not the
  // predecessor's in "Nadella succeeded Ballmer as chief executive of Microsoft".
  const role =
    ROLES.has(cue.relation) &&
    window[0]?.key === 'as' &&
    !(at.previousCue?.cue.relation === 'successor_of' && !at.previousCue.cue.agent);
  // A name given a role by "as" holds it, whatever its type says.
  if (role && previous && !personal) return previous.entity;
  // "developed by Lasse Collin as the successor of LZMA Utils": after a passive's agent, "as" speaks of
  // what the agent made, not of the agent.
  if (window[0]?.key === 'as' && at.previousCue?.cue.agent && !ROLES.has(cue.relation)) return at.previousCue.other;
  // "The Salt Roads, published by Cassava Republic Press": a passive right after a comma says who made the
  // thing named before the comma.
  if (
    cue.agent &&
    previous &&
    window[0]?.commaBefore &&
    window[0].pos === 'VERB' &&
    window.length <= MAX_ADJACENT_CUE &&
    !context.isPerson(previous.entity)
  )
    return previous.entity;
  // "the son of Inder Raj Anand, brother of producer Bittu Anand": a list of the same one's relations.
  const previousCue = at.previousCue;
  const nounPhrase = window.every((word) => !['VERB', 'AUX', 'PRON'].includes(word.pos));
  if (appositive && nounPhrase && previousCue?.cue.appositive && !previousCue.cue.agent) return previousCue.other;
  let other = personal
    ? (lastPerson ?? context.lastPerson)
    : previous && (adjacent || appositive)
      ? previous.entity
      : subject;
  const person = (entity: number) => context.isPerson(entity) || (entity === subject && context.mayBePerson(entity));
  if (PERSONAL.has(cue.relation) && !cue.agent && other !== null && !person(other))
    other = lastPerson ?? context.lastPerson ?? other;
  // "The song Danger Zone appeared in Top Gun": only a person acts.
  if (cue.relation === 'acted_in' && !cue.agent && other !== null && !person(other)) return null;
  if (cue.relation === 'located_in' && previous && !context.isPerson(previous.entity) && !window[0]?.commaBefore)
    other = previous.entity;
  // "named Ingrid Solberg as its chief executive, replacing Per Aasen": a company succeeds no one; the person named does.
  if (cue.relation === 'successor_of' && !cue.agent && other !== null && context.kindOf(other) === 'organisation')
    other = lastPerson ?? other;
  return other;
}

/** The name before a mention, past a bracketed aside unless the mention stands in the brackets too. */
function nameBefore(sentence: readonly Word[], mentions: readonly Mention[], k: number): Mention | null {
  const inBrackets = (mention: Mention) => sentence[mention.from]?.inBrackets ?? false;
  for (let j = k - 1; j >= 0; j--) if (inBrackets(mentions[k]) || !inBrackets(mentions[j])) return mentions[j];
  return null;
}

/**
 * A passive "by" cue with another name between its verb and its agent ("Spotify was founded in
 * Stockholm in 2006 by Daniel Ek"): read over the words from the name before that one, in one clause.
 */
function passiveAcross(
  sentence: readonly Word[],
  mentions: readonly Mention[],
  k: number,
  context: Context,
): { cue: Cue; window: Word[]; previous: Mention | null } | null {
  if (k < 1 || context.isPerson(mentions[k - 1].entity)) return null;
  // Only a "by" right before the name, or before a few descriptive words, can end such a cue.
  const last = sentence.slice(Math.max(mentions[k - 1].to, mentions[k].from - MAX_DESCRIPTIVE - 1), mentions[k].from);
  if (!last.some((word) => word.key === 'by')) return null;
  const previous = k >= 2 ? mentions[k - 2] : null;
  const window = sentence.slice(previous?.to ?? 0, mentions[k].from);
  const name = sentence[mentions[k].from];
  if (window.length === 0 || window.some((word, i) => i > 0 && word.breakBefore) || name?.breakBefore) return null;
  const cue = cueIn(window, name);
  return cue?.agent ? { cue, window, previous } : null;
}

/** "-based" written onto the name before it: "San Francisco-based" is an adjective, not a verb. */
function isBased(word: Word | undefined): boolean {
  return word?.key === 'based' && word.space === '' && !word.commaBefore;
}

/**
 * The organisation a "Paris-based" place is the seat of: the name before it ("OpenAI, the San
 * Francisco-based company"), else the one after it ("the London-based bank Barclays").
 */
function basedOrganisation(
  sentence: readonly Word[],
  mentions: readonly Mention[],
  k: number,
  context: Context,
): number | null {
  const place = mentions[k];
  if (!context.isPlace(place.entity) || !isBased(sentence[place.to])) return null;
  const seat = (other: Mention | undefined) =>
    other && !context.isPerson(other.entity) && !context.isPlace(other.entity) ? other.entity : null;
  // "The Oslo-based company": the organisation named last before.
  const anaphor = ORGANISATION_ANAPHORS.has(sentence[place.to + 1]?.key ?? '') ? context.lastOrganisation : null;
  return seat(mentions[k - 1]) ?? seat(mentions[k + 1]) ?? anaphor;
}

/**
 * The name a possessor stands before ("married Monivong's daughter Sisowath Kosamak"): a cue before
 * the possessor is about that name.
 */
function possessedAfter(sentence: readonly Word[], mentions: readonly Mention[], k: number): Mention | null {
  const next = mentions[k + 1];
  if (!next) return null;
  const between = sentence.slice(mentions[k].to, next.from);
  const possessive = /^['’]s$/.test(between[0]?.key ?? '') && between.length <= MAX_POSSESSIVE;
  return possessive && !between.some((word) => word.breakBefore) && !sentence[next.from]?.breakBefore ? next : null;
}

/** The cue before a mention, the words it was read from, and the name before those words. */
function cueAt(
  sentence: readonly Word[],
  mentions: readonly Mention[],
  k: number,
  window: Word[],
  context: Context,
): { cue: Cue; also: Cue | null; window: Word[]; previous: Mention | null } | null {
  const cue = cueIn(window, sentence[mentions[k].from]);
  const found = cue
    ? { cue, window, previous: nameBefore(sentence, mentions, k) }
    : passiveAcross(sentence, mentions, k, context);
  return found && { ...found, also: conjoinedCue(wordKeys(found.window), found.cue) };
}

/**
 * Whether the names after a mention, separated by commas and "and"/"or" only, make it part of a list:
 * a joiner ends a list ("California, New York and Ohio"); commas alone chain places ("Pepin County,
 * Wisconsin, United States").
 */
function listFollows(sentence: readonly Word[], mentions: readonly Mention[], k: number): boolean {
  for (let j = k; j + 1 < mentions.length; j++) {
    const between = sentence.slice(mentions[j].to, mentions[j + 1].from);
    if (!between.every((word) => LIST_JOINERS.has(word.key))) return false;
    if (between.length > 0) return true;
    if (!sentence[mentions[j + 1].from]?.commaBefore) return false;
  }
  return false;
}

const EXECUTIVE = '(?:chief executive(?: officer)?|ceo|president|chairman|chairwoman|chair|head|boss|leader)';
const STAFF = '(?:coach|head coach|manager|director)';
const ROLE_WORDS = '(?:(?:new|former|current|interim|founding|first) )?';
/** "Ek, its chief executive", "named Ingrid Solberg as its new chief executive": the organisation is "its". */
const ITS_ROLE = new RegExp(`^(?:as )?(?:its|their) ${ROLE_WORDS}(${STAFF}|${EXECUTIVE})(?: |$)`);
/** "Ek, the company's chief executive": after an organisation anaphor, its possessive. */
const POSSESSED_ROLE = new RegExp(`^['’]s ${ROLE_WORDS}(${STAFF}|${EXECUTIVE})(?: |$)`);

/**
 * A role written after a person's name: "Ek, the company's chief executive, announced …", "named Ingrid
 * Solberg as its new chief executive" — the person leads (or, as coach or manager, works at) the
 * organisation "its" or "the company" stands for: the sentence's subject when that is an organisation,
 * else the organisation named last.
 */
function rolesAfter(
  sentence: readonly Word[],
  mentions: readonly Mention[],
  subject: number | null,
  context: Context,
): Link[] {
  const links: Link[] = [];
  const relation = (role: string): CanonicalRelation => (new RegExp(`^${STAFF}$`).test(role) ? 'works_at' : 'leads');
  mentions.forEach((mention, k) => {
    if (!context.isPerson(mention.entity) || mention.viaPronoun) return;
    const next = mentions[k + 1];
    const after = sentence.slice(mention.to, Math.min(next?.from ?? sentence.length, mention.to + 7));
    const first = after[0] ?? (next ? sentence[next.from] : undefined);
    if (!first || (!first.commaBefore && first.key !== 'as')) return;
    const its = ITS_ROLE.exec(wordKeys(after));
    if (its) {
      const organisation =
        subject !== null && context.kindOf(subject) === 'organisation' ? subject : context.lastOrganisation;
      if (organisation !== null && organisation !== mention.entity)
        links.push(typed(relation(its[1]), mention.entity, organisation, 0.7, context.task.edgeTypes));
      return;
    }
    // The anaphor right after the comma ("Ek, the company's …").
    if (!next?.viaPronoun || after.length > 0 || !sentence[next.from]?.commaBefore) return;
    const possessed = POSSESSED_ROLE.exec(wordKeys(sentence.slice(next.to, next.to + 6)));
    if (possessed && next.entity !== mention.entity)
      links.push(typed(relation(possessed[1]), mention.entity, next.entity, 0.7, context.task.edgeTypes));
  });
  return links;
}

/** The links of one sentence, each mention against the one before it or the subject. */
function sentenceLinks(
  sentence: readonly Word[],
  mentions: readonly Mention[],
  subject: number | null,
  context: Context,
): Link[] {
  const links: Link[] = [];
  const edgeTypes = context.task.edgeTypes;
  /** How the previous mention was linked, for the next name of a list ("starring A, B and C") to be linked the same way. */
  let carried: { other: number; relation: string; link: (entity: number, penalty: number) => Link[] } | null = null;
  const cues: ({ cue: Cue; other: number } | null)[] = [];
  mentions.forEach((mention, k) => {
    const previous = k > 0 ? mentions[k - 1] : null;
    const window = sentence.slice(previous?.to ?? 0, mention.from);
    const based = basedOrganisation(sentence, mentions, k, context);
    if (based !== null) links.push(typed('located_in', based, mention.entity, 0.8, edgeTypes));
    const penalty = mention.viaPronoun || previous?.viaPronoun ? 0.15 : 0;
    const sameClause = !sentence[mention.from]?.breakBefore && window.every((word) => !word.breakBefore);
    const found = cueAt(sentence, mentions, k, window, context);
    const cue = found?.cue;
    cues.push(null);
    const named = (found && possessedAfter(sentence, mentions, k)) ?? mention;
    const next = sentence[named.to];
    const follows = !cue?.followedBy || cue.followedBy.test(!next || next.breakBefore ? '' : next.key);
    if (found && cue && follows && !cue.notOf.includes(context.kindOf(named.entity))) {
      const other = cueOtherEnd(
        cue,
        { ...found, previousCue: cues[k - 1] ?? null, earlier: mentions.slice(0, k), sameClause, subject },
        context,
      );
      if (other === null || other === named.entity) return;
      if (cue.relation === 'located_in' && context.isPerson(other)) return;
      if (AUTHORED.has(cue.relation) && context.isPerson(cue.agent ? other : named.entity)) return;
      const relations = [cue.relation, ...(found.also ? [found.also.relation] : [])];
      const cued = (entity: number, less: number) =>
        relations.map((relation) =>
          cue.agent
            ? typed(relation, entity, other, 0.8 - less, edgeTypes)
            : typed(relation, other, entity, 0.8 - less, edgeTypes),
        );
      links.push(...cued(named.entity, penalty));
      cues[k] = { cue, other };
      carried = { other, relation: cue.relation, link: cued };
      return;
    }
    if (!previous) return;
    // "Geneva, Switzerland"; also after "based in Santa Monica, California", where a list would carry the cue on.
    const listGoesOn = listFollows(sentence, mentions, k);
    if (
      window.length === 0 &&
      sentence[mention.from]?.commaBefore &&
      !listGoesOn &&
      context.isPlace(mention.entity) &&
      (context.isPlace(previous.entity) || carried?.relation === 'located_in')
    ) {
      links.push(typed('located_in', previous.entity, mention.entity, 0.7 - penalty, edgeTypes));
      return;
    }
    // "the South Bohemian Region of the Czech Republic": a place of a place lies in it.
    const of = wordKeys(window);
    if ((of === 'of' || of === 'of the') && context.isPlace(previous.entity) && context.isPlace(mention.entity)) {
      links.push(typed('located_in', previous.entity, mention.entity, 0.7 - penalty, edgeTypes));
      return;
    }
    // "studied at Newnham College, Cambridge": a place after an institution and a comma is where it stands.
    if (
      window.length === 0 &&
      sentence[mention.from]?.commaBefore &&
      !listGoesOn &&
      context.isPlace(mention.entity) &&
      context.kindOf(previous.entity) === 'organisation'
    ) {
      links.push(typed('located_in', previous.entity, mention.entity, 0.7 - penalty, edgeTypes));
      carried = null;
      return;
    }
    // "starring A as the hero and B as her father": the role before the joiner is an aside of the list.
    // "the GNU MP and the MPFR libraries": articles inside a list change nothing.
    const listed =
      (window.every((word) => LIST_JOINERS.has(word.key) || (ARTICLES.has(word.key) && word !== window[0])) ||
        (window[0]?.key === 'as' && LIST_JOINERS.has(window[window.length - 1].key))) &&
      (window.length > 0 || sentence[mention.from]?.commaBefore);
    if (listed && carried && carried.other !== mention.entity) {
      links.push(...carried.link(mention.entity, penalty));
      return;
    }
    carried = null;
    if (listed || window.length === 0 || window.length > MAX_UNTYPED_GAP || isBased(window[0])) return;
    // "also known as", "described as": a second name or a description, not a relation.
    if (window.some((word, i) => word.key === 'as' && i > 0 && ['VERB', 'ADJ'].includes(window[i - 1].pos))) return;
    // wink tags some participles as adjectives ("Marie Curie married Pierre Curie").
    const match = matchEdgeType(
      window.filter((token) => token.pos === 'VERB' || token.pos === 'ADJ'),
      edgeTypes,
    );
    // "Graciela, based on Carmen Laforet's novel": no one is where something is.
    if (match?.type === domainSpelling('located_in', edgeTypes).type && context.isPerson(mention.entity)) return;
    const passive = window.some((token) => token.lemma === 'be') && window.some((token) => token.key === 'by');
    const reversed = match !== null && match.passive !== passive;
    // An untyped link needs a verb stating something between the two names, in one clause.
    if (!match && !(sameClause && window.some((token) => token.pos === 'VERB'))) return;
    const type = match?.type ?? relatedToType(edgeTypes);
    const confidence = match ? 0.7 : 0.4;
    const verbLink = (entity: number, less: number): Link[] => [
      reversed
        ? { source: entity, target: previous.entity, type, confidence: confidence - less }
        : { source: previous.entity, target: entity, type, confidence: confidence - less },
    ];
    links.push(...verbLink(mention.entity, penalty));
    carried = { other: previous.entity, relation: type, link: verbLink };
  });
  links.push(...rolesAfter(sentence, mentions, subject, context));
  return links;
}

export function extractRelationships(nlp: BuiltinNlp, task: RelationshipTask): Omit<RelationshipRecord, 'kind'>[] {
  const forms = entityForms(nlp, task.entities);
  const kinds = task.entities.map((entity) => kindOfType(entity.type));
  const context: Context = {
    task,
    isPerson: (entity) => kinds[entity] === 'person',
    mayBePerson: (entity) => kinds[entity] === 'person' || kinds[entity] === 'generic',
    isPlace: (entity) => kinds[entity] === 'place',
    kindOf: (entity) => kinds[entity],
    topic: null,
    lastPerson: null,
    lastOrganisation: null,
    lastWork: null,
  };
  const untyped = relatedToType(task.edgeTypes);
  const found = new Map<string, Omit<RelationshipRecord, 'kind'>>();

  task.sentences.forEach((text, index) => {
    const sentence = words(nlp, text);
    const named = findMentions(sentence, forms);
    context.topic ??= named[0]?.entity ?? null;
    const { subject, pronoun } = sentenceSubject(sentence, named, context);
    if (subject !== null && (context.isPerson(subject) || (index === 0 && context.mayBePerson(subject))))
      context.lastPerson = subject;
    else context.lastPerson = named.find((mention) => context.isPerson(mention.entity))?.entity ?? context.lastPerson;
    const mentions = [
      ...(pronoun ? [pronoun, ...named] : named).filter(
        (mention, i, all) => all.findIndex((other) => other.entity === mention.entity) === i,
      ),
      ...organisationAnaphors(sentence, named, context),
    ].sort((a, b) => a.from - b.from);
    context.lastOrganisation =
      named.filter((mention) => mayBeOrganisation(context, mention.entity)).at(-1)?.entity ?? context.lastOrganisation;
    context.lastWork = named.filter((mention) => kinds[mention.entity] === 'work').at(-1)?.entity ?? context.lastWork;

    for (const { source, target, type, confidence } of sentenceLinks(sentence, mentions, subject, context)) {
      if (source === target) continue;
      // An untyped link has no direction worth keeping apart: one line per pair, whichever came first.
      const ends = type === untyped ? [source, target].sort((x, y) => x - y) : [source, target];
      const key = `${ends.join('|')}|${type}`;
      const previous = found.get(key);
      if (previous) {
        if (!previous.sentenceRefs.includes(index + 1)) previous.sentenceRefs.push(index + 1);
        previous.confidence = Math.max(previous.confidence, confidence);
      } else {
        found.set(key, {
          sourceIndex: source,
          targetIndex: target,
          type,
          confidence,
          sentenceRefs: [index + 1],
          justification: justification(task.sentences, index),
        });
      }
    }
  });
  // A pair a sentence types needs no untyped line besides.
  const typedPairs = new Set(
    [...found.values()]
      .filter((link) => link.type !== untyped)
      .map((link) => [link.sourceIndex, link.targetIndex].sort((x, y) => x - y).join('|')),
  );
  return [...found.values()].filter(
    (link) =>
      link.type !== untyped || !typedPairs.has([link.sourceIndex, link.targetIndex].sort((x, y) => x - y).join('|')),
  );
}
