import type { EvidenceMode } from '../content-filter.ts';
import type { GroupSentence } from '../types.ts';
import { validRefs } from './sentences.ts';
import { foldText, mentionsAny } from './text-match.ts';

/**
 * Evidence validation of one harvested entity (between the passes), per the preset's mode. Names are
 * found case- and diacritic-insensitively, as whole words.
 *
 *   off       keep every entity; evidence is the cited sentences, else the sentences naming it.
 *   relaxed   keep when it cites an existing sentence, or when its name or an alias appears anywhere in
 *             the group (then those sentences are its evidence).
 *   standard  the name or an alias must appear in a cited sentence. An entity citing no existing
 *             sentence gets the sentences that name it as evidence, and is dropped when none does.
 *   narrative as standard, and the last word of a name of two or more words also counts ("Curie" for
 *             "Marie Curie"): stories go on by surname.
 *   strict    every cited sentence must exist (at least one cited), and the name itself — not an
 *             alias — must appear in one of them. Nothing is located for the model.
 *
 * Returns the sentence numbers that are the entity's evidence, or null when it is dropped.
 */

export interface EvidenceSubject {
  name: string;
  aliases: readonly string[];
  refs: readonly number[];
}

const NOT_A_SURNAME = new Set([
  'the',
  'of',
  'and',
  'jr',
  'sr',
  'ii',
  'iii',
  'iv',
  'inc',
  'ltd',
  'co',
  'corp',
  'company',
  'group',
  'university',
  'city',
  'river',
  'street',
]);

/** The last word of a multi-word name, when it can stand for the whole ("Curie"), else null. */
export function surnameOf(name: string): string | null {
  const words = foldText(name)
    .split(' ')
    .map((word) => word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''))
    .filter(Boolean);
  if (words.length < 2) return null;
  const last = words[words.length - 1];
  return last.length >= 3 && !NOT_A_SURNAME.has(last) ? last : null;
}

function citing(sentences: readonly GroupSentence[], refs: readonly number[], names: readonly string[]): number[] {
  return refs.filter((ref) => mentionsAny(sentences[ref - 1].text, names));
}

/** Every sentence of the group that names the entity. */
export function locate(sentences: readonly GroupSentence[], names: readonly string[]): number[] {
  return sentences.filter((sentence) => mentionsAny(sentence.text, names)).map((sentence) => sentence.number);
}

export function validateEvidence(
  entity: EvidenceSubject,
  sentences: readonly GroupSentence[],
  mode: EvidenceMode,
): number[] | null {
  const refs = validRefs(sentences, entity.refs);
  const names = [entity.name, ...entity.aliases];
  switch (mode) {
    case 'off':
      return refs.length > 0 ? refs : locate(sentences, names);
    case 'relaxed': {
      if (refs.length > 0) return refs;
      const found = locate(sentences, names);
      return found.length > 0 ? found : null;
    }
    case 'standard':
    case 'narrative': {
      const surname = mode === 'narrative' ? surnameOf(entity.name) : null;
      const forms = surname ? [...names, surname] : names;
      if (refs.length > 0) return citing(sentences, refs, forms).length > 0 ? refs : null;
      const found = locate(sentences, forms);
      return found.length > 0 ? found : null;
    }
    case 'strict': {
      const allValid = entity.refs.length > 0 && refs.length === new Set(entity.refs).size;
      return allValid && citing(sentences, refs, [entity.name]).length > 0 ? refs : null;
    }
  }
}
