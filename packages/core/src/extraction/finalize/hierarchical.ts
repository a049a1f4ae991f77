/**
 * Step 5: a shorter name that stands for a longer one ("Curie", "Dr. Marie Curie" for "Marie Curie").
 *
 * Words are content words (title words excluded); an initial matches a word it starts ("M. Curie").
 * The short name stands for the long one when
 * - its words form the start or the end of the long name (word-boundary containment where names are
 *   shortened: "Mozart" for "Wolfgang Amadeus Mozart", "Microsoft" for "Microsoft Corporation"), or
 * - its words all occur in the long name and cover at least 40% of it ("Marie Curie" for "Marie
 *   Skłodowska Curie").
 * A word inside a longer name needs the 40% too: "Skłodowska" is not "Marie Skłodowska Curie Institute
 * of Warsaw". The longer name becomes canonical, the shorter an alias.
 *
 * Guards against false merges:
 * - Ambiguity: a short name merges only when the longer names it fits are one name in different
 *   lengths (each contains the other); with both "Marie Curie" and "Pierre Curie", "Curie" stays.
 * - Same content words with different titles ("Mr. Curie", "Mrs. Curie") merge only when one's
 *   titles are among the other's ("Marie Curie", "Dr. Marie Curie").
 * - Proper names only: the type's template must have `requires_named_referent` ("Cancer" is not short
 *   for "Breast Cancer"); a type the domain does not know needs both names written as proper names.
 * - Different numbers ("Apollo 11 Crew", "Apollo 13 Crew") never merge.
 */
import { EntityClusters } from './clusters.ts';
import type { StepResult, WorkEntity } from './model.ts';
import { contentWords, coversName as covers, isProperName, nameWords, numbersConflict, TITLE_WORDS } from './names.ts';
import type { TypeResolver } from './entity-types.ts';

export const MIN_COVERAGE = 0.4;

/** `short`'s words are the first or the last words of `long`. */
function atEdge(long: readonly string[], short: readonly string[]): boolean {
  if (short.length === 0 || short.length >= long.length) return false;
  const head = short.every((word, index) => long[index] === word);
  const tail = short.every((word, index) => long[long.length - short.length + index] === word);
  return head || tail;
}

const coversName = (long: readonly string[], short: readonly string[]) =>
  atEdge(long, short) || covers(long, short, MIN_COVERAGE);
/** A short name fitting more long names than this is ambiguous whatever they are. */
const MAX_CANDIDATES = 20;

interface Shape {
  words: string[];
  sorted: string;
  titles: Set<string>;
}

function shapeOf(entity: WorkEntity): Shape {
  const words = contentWords(entity.key);
  return {
    words,
    sorted: [...words].sort().join(' '),
    titles: new Set(nameWords(entity.key).filter((word) => TITLE_WORDS.has(word))),
  };
}

/** Whether `long` is a fuller form of `short`: more content words, initials spelt out, or the same words with more titles. */
function fuller(long: Shape, short: Shape, longName: string, shortName: string): boolean {
  if (long.words.length > short.words.length) return coversName(long.words, short.words);
  if (long.words.length < short.words.length) return false;
  if (long.sorted !== short.sorted) return coversName(long.words, short.words) && !coversName(short.words, long.words);
  if (longName.length <= shortName.length) return false;
  return [...short.titles].every((title) => long.titles.has(title));
}

/** Two long names are one name in different lengths. */
function related(a: Shape, b: Shape): boolean {
  return a.sorted === b.sorted || coversName(a.words, b.words) || coversName(b.words, a.words);
}

export function hierarchicalDedup(entities: WorkEntity[], types: TypeResolver): { step: StepResult; merges: number } {
  const shapes = entities.map(shapeOf);
  const byWord = new Map<string, number[]>();
  shapes.forEach((shape, index) => {
    for (const word of new Set(shape.words)) {
      if (word.length < 2) continue;
      const list = byWord.get(word);
      if (list) list.push(index);
      else byWord.set(word, [index]);
    }
  });

  const mayShorten = (short: number, long: number): boolean => {
    const [s, l] = [entities[short], entities[long]];
    if (!types.compatible(s.type, l.type) || numbersConflict(s.name, l.name, true)) return false;
    const named = types.namedReferent(types.specific(s.type, l.type));
    if (named === false) return false;
    return named === true || (isProperName(s.name) && isProperName(l.name));
  };

  const targets: [number, number][] = [];
  shapes.forEach((shape, short) => {
    const indexed = shape.words.filter((word) => word.length >= 2);
    if (indexed.length === 0) return;
    const rarest = indexed.reduce((best, word) => (byWord.get(word)!.length < byWord.get(best)!.length ? word : best));
    const candidates: number[] = [];
    for (const long of byWord.get(rarest)!) {
      if (
        long === short ||
        !fuller(shapes[long], shape, entities[long].name, entities[short].name) ||
        !mayShorten(short, long)
      )
        continue;
      candidates.push(long);
      if (candidates.length > MAX_CANDIDATES) return;
    }
    if (candidates.length === 0) return;
    for (let a = 0; a < candidates.length; a++) {
      for (let b = a + 1; b < candidates.length; b++)
        if (!related(shapes[candidates[a]], shapes[candidates[b]])) return;
    }
    const target = candidates.reduce((best, long) => {
      const byWords = shapes[long].words.length - shapes[best].words.length;
      const byLength = entities[long].name.length - entities[best].name.length;
      return byWords > 0 || (byWords === 0 && byLength > 0) ? long : best;
    });
    targets.push([short, target]);
  });

  const clusters = new EntityClusters(entities, types);
  let merges = 0;
  for (const [short, long] of targets) if (clusters.join(short, long)) merges++;
  return { step: clusters.result(), merges };
}
