import type { RelationshipRecord } from '../line-grammar.ts';
import type { ExtractionTask } from '../port.ts';
import { matchEdgeType, relatedToType } from './edge-types.ts';
import { kindOfType } from './kinds.ts';
import { cueBefore, domainSpelling, type CanonicalRelation } from './relation-cues.ts';
import { longestFirst, type BuiltinNlp, type Token } from './nlp.ts';

/**
 * The relationship pass without a model. Each named mention looks at the words between it and the
 * mention before it: a cue there (relation-cues.ts: "born in", "daughter of", "directed by",
 * "starring") types a relation between it and the sentence's subject (or, for an appositive such as
 * "Bertha, daughter of Lothair", the name before it); a list ("starring A, B and C") carries the cue
 * on; two places joined by a comma ("Geneva, Switzerland") are located_in; a short verb phrase between
 * neighbours that names a domain edge type types that pair. Only neighbours a few words apart with
 * none of these get "related to". The subject is the mention opening the sentence, else what a
 * pronoun opening it stands for ("He" the last person the text opened with, "It" the text's topic,
 * its first name), else the topic.
 *
 * Confidence: 0.8 from a cue or a list, 0.7 for places joined by a comma or a verb that names a
 * domain edge type, 0.4 for "related to"; 0.15 less when one end is a resolved pronoun.
 */

type RelationshipTask = Extract<ExtractionTask, { pass: 'relationships' }>;

interface Word extends Token {
  /** A comma stands right before this word. */
  commaBefore: boolean;
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
]);
const TOPIC_OPENERS = new Set(['it', 'they', 'this', 'the']);

function matchKey(token: Token): string {
  return token.key.replace(/\.+$/, '');
}

function words(nlp: BuiltinNlp, text: string): Word[] {
  const result: Word[] = [];
  let comma = false;
  for (const token of nlp.tokens(text)) {
    if (token.pos === 'PUNCT') {
      comma ||= token.text === ',' || token.text === ';';
      continue;
    }
    result.push({ ...token, commaBefore: comma });
    comma = false;
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
  isPlace: (entity: number) => boolean;
  /** The first entity the text names. */
  topic: number | null;
  /** The last person a sentence opened with. */
  lastPerson: number | null;
}

/** Who the sentence is about, and the mention standing for it when a pronoun opens the sentence. */
function sentenceSubject(
  sentence: readonly Word[],
  named: readonly Mention[],
  context: Context,
): { subject: number | null; pronoun: Mention | null } {
  const opening = named[0];
  if (opening && opening.from <= 1) return { subject: opening.entity, pronoun: null };
  const first = sentence[0]?.key;
  const stand = (entity: number | null) =>
    entity === null || named.some((mention) => mention.entity === entity)
      ? null
      : { entity, from: 0, to: 1, viaPronoun: true };
  if (first === 'he' || first === 'she') return { subject: context.lastPerson, pronoun: stand(context.lastPerson) };
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
  let carried: { other: number; link: (entity: number, penalty: number) => Link } | null = null;
  mentions.forEach((mention, k) => {
    const previous = k > 0 ? mentions[k - 1] : null;
    const window = sentence.slice(previous?.to ?? 0, mention.from);
    const text = window.map(matchKey).join(' ');
    const penalty = mention.viaPronoun || previous?.viaPronoun ? 0.15 : 0;
    const cue = cueBefore(text);
    if (cue) {
      const lastPerson =
        [...mentions.slice(0, k)].reverse().find((other) => context.isPerson(other.entity))?.entity ?? null;
      let other = cue.appositive && previous && window[0]?.commaBefore ? previous.entity : subject;
      if (PERSONAL.has(cue.relation) && !cue.agent && other !== null && !context.isPerson(other))
        other = lastPerson ?? context.lastPerson ?? other;
      if (cue.relation === 'located_in' && previous && !context.isPerson(previous.entity)) other = previous.entity;
      if (other === null || other === mention.entity) return;
      const cued = (entity: number, less: number) =>
        cue.agent
          ? typed(cue.relation, entity, other, 0.8 - less, edgeTypes)
          : typed(cue.relation, other, entity, 0.8 - less, edgeTypes);
      links.push(cued(mention.entity, penalty));
      carried = { other, link: cued };
      return;
    }
    if (!previous) return;
    if (
      window.length === 0 &&
      sentence[mention.from]?.commaBefore &&
      context.isPlace(previous.entity) &&
      context.isPlace(mention.entity)
    ) {
      links.push(typed('located_in', previous.entity, mention.entity, 0.7 - penalty, edgeTypes));
      return;
    }
    const listed =
      window.every((word) => word.key === 'and' || word.key === 'or') &&
      (window.length > 0 || sentence[mention.from]?.commaBefore);
    if (listed && carried && carried.other !== mention.entity) {
      links.push(carried.link(mention.entity, penalty));
      return;
    }
    carried = null;
    if (listed || window.length === 0 || window.length > MAX_UNTYPED_GAP) return;
    // wink tags some participles as adjectives ("Marie Curie married Pierre Curie").
    const match = matchEdgeType(
      window.filter((token) => token.pos === 'VERB' || token.pos === 'ADJ'),
      edgeTypes,
    );
    const passive = window.some((token) => token.lemma === 'be') && window.some((token) => token.key === 'by');
    const reversed = match !== null && match.passive !== passive;
    const type = match?.type ?? relatedToType(edgeTypes);
    const confidence = match ? 0.7 : 0.4;
    const verbLink = (entity: number, less: number): Link =>
      reversed
        ? { source: entity, target: previous.entity, type, confidence: confidence - less }
        : { source: previous.entity, target: entity, type, confidence: confidence - less };
    links.push(verbLink(mention.entity, penalty));
    carried = { other: previous.entity, link: verbLink };
  });
  return links;
}

export function extractRelationships(nlp: BuiltinNlp, task: RelationshipTask): Omit<RelationshipRecord, 'kind'>[] {
  const forms = entityForms(nlp, task.entities);
  const kinds = task.entities.map((entity) => kindOfType(entity.type));
  const context: Context = {
    task,
    isPerson: (entity) => kinds[entity] === 'person',
    isPlace: (entity) => kinds[entity] === 'place',
    topic: null,
    lastPerson: null,
  };
  const untyped = relatedToType(task.edgeTypes);
  const found = new Map<string, Omit<RelationshipRecord, 'kind'>>();

  task.sentences.forEach((text, index) => {
    const sentence = words(nlp, text);
    const named = findMentions(sentence, forms);
    context.topic ??= named[0]?.entity ?? null;
    const { subject, pronoun } = sentenceSubject(sentence, named, context);
    if (subject !== null && context.isPerson(subject)) context.lastPerson = subject;
    else context.lastPerson = named.find((mention) => context.isPerson(mention.entity))?.entity ?? context.lastPerson;
    const mentions = (pronoun ? [pronoun, ...named] : named)
      .sort((a, b) => a.from - b.from)
      .filter((mention, i, all) => all.findIndex((other) => other.entity === mention.entity) === i);

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
  return [...found.values()];
}
