import type { RelationshipRecord } from '../line-grammar.ts';
import type { ExtractionTask } from '../port.ts';
import { matchEdgeType, relatedToType } from './edge-types.ts';
import { kindOfType } from './kinds.ts';
import { longestFirst, type BuiltinNlp, type Token } from './nlp.ts';

/**
 * The relationship pass without a model: every pair of listed entities that share a sentence, typed
 * from the verb between them when a domain edge type matches it, else "related to"; the earlier
 * mention is the source unless the verb is passive ("was founded by").
 *
 * Confidence: 0.75 for a typed relation, 0.5 for an untyped one between neighbouring mentions, 0.4
 * when other entities stand between them; 0.15 less when one end is a resolved pronoun.
 */

type RelationshipTask = Extract<ExtractionTask, { pass: 'relationships' }>;

interface Mention {
  entity: number;
  /** Word positions `[from, to)` in the sentence (punctuation left out). */
  from: number;
  to: number;
  viaPronoun: boolean;
}

const MIN_JUSTIFICATION = 50;

function matchKey(token: Token): string {
  return token.key.replace(/\.+$/, '');
}

function words(nlp: BuiltinNlp, text: string): Token[] {
  return nlp.tokens(text).filter((token) => token.pos !== 'PUNCT');
}

/** Every name and alias of each entity, as word keys. */
function entityForms(nlp: BuiltinNlp, entities: RelationshipTask['entities']): string[][][] {
  return entities.map((entity) =>
    [entity.name, ...(entity.aliases ?? [])].map((form) => words(nlp, form).map(matchKey)).filter((form) => form.length > 0),
  );
}

/** Named mentions, longest first so "University of Paris" hides the "Paris" inside it. */
function findMentions(sentence: readonly Token[], forms: readonly string[][][]): Mention[] {
  const keys = sentence.map(matchKey);
  const candidates: Mention[] = [];
  forms.forEach((entityForms, entity) => {
    for (const form of entityForms) {
      for (let from = 0; from + form.length <= keys.length; from++) {
        if (form.every((key, i) => keys[from + i] === key)) candidates.push({ entity, from, to: from + form.length, viaPronoun: false });
      }
    }
  });
  return longestFirst(candidates);
}

/**
 * "He"/"she" before any named person in the sentence is taken to be the person a recent sentence
 * opened with: "Marie Curie was born in Warsaw. She worked at …".
 */
function resolvePronoun(sentence: readonly Token[], mentions: readonly Mention[], antecedent: number | null, isPerson: (entity: number) => boolean): Mention | null {
  if (antecedent === null || mentions.some((mention) => mention.entity === antecedent)) return null;
  const firstPerson = mentions.find((mention) => isPerson(mention.entity))?.from ?? sentence.length;
  const pronoun = sentence.findIndex((token, i) => i < firstPerson && token.pos === 'PRON' && (token.key === 'he' || token.key === 'she'));
  return pronoun === -1 ? null : { entity: antecedent, from: pronoun, to: pronoun + 1, viaPronoun: true };
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

/** How two mentions of one sentence relate; `crowded` when other entities stand between them. */
function link(sentence: readonly Token[], first: Mention, second: Mention, crowded: boolean, edgeTypes: readonly string[]): Link {
  const gap = sentence.slice(first.to, second.from);
  // wink tags some participles as adjectives ("Marie Curie married Pierre Curie").
  const match = crowded ? null : matchEdgeType(gap.filter((token) => token.pos === 'VERB' || token.pos === 'ADJ'), edgeTypes);
  const passive = gap.some((token) => token.lemma === 'be') && gap.some((token) => token.key === 'by');
  const [source, target] = match && match.passive !== passive ? [second, first] : [first, second];
  const confidence = (match ? 0.75 : crowded ? 0.4 : 0.5) - (first.viaPronoun || second.viaPronoun ? 0.15 : 0);
  return { source: source.entity, target: target.entity, type: match?.type ?? relatedToType(edgeTypes), confidence };
}

export function extractRelationships(nlp: BuiltinNlp, task: RelationshipTask): Omit<RelationshipRecord, 'kind'>[] {
  const forms = entityForms(nlp, task.entities);
  const isPerson = (entity: number) => kindOfType(task.entities[entity].type) === 'person';
  const untyped = relatedToType(task.edgeTypes);
  const found = new Map<string, Omit<RelationshipRecord, 'kind'>>();
  let antecedent: number | null = null;

  task.sentences.forEach((text, index) => {
    const sentence = words(nlp, text);
    const named = findMentions(sentence, forms);
    const pronoun = resolvePronoun(sentence, named, antecedent, isPerson);
    antecedent = named.find((mention) => isPerson(mention.entity))?.entity ?? antecedent;
    const mentions = (pronoun ? [...named, pronoun] : named)
      .sort((a, b) => a.from - b.from)
      .filter((mention, i, all) => all.findIndex((other) => other.entity === mention.entity) === i);

    for (let a = 0; a < mentions.length; a++) {
      for (let b = a + 1; b < mentions.length; b++) {
        const { source, target, type, confidence } = link(sentence, mentions[a], mentions[b], b > a + 1, task.edgeTypes);
        // An untyped link has no direction worth keeping apart: one line per pair, whichever came first.
        const ends = type === untyped ? [source, target].sort((x, y) => x - y) : [source, target];
        const key = `${ends.join('|')}|${type}`;
        const previous = found.get(key);
        if (previous) {
          previous.sentenceRefs.push(index + 1);
          previous.confidence = Math.max(previous.confidence, confidence);
        } else {
          found.set(key, { sourceIndex: source, targetIndex: target, type, confidence, sentenceRefs: [index + 1], justification: justification(task.sentences, index) });
        }
      }
    }
  });
  return [...found.values()];
}
