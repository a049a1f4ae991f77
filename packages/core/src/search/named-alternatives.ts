/**
 * The things a query names side by side: "Who was born first, Hywel Teifi Edwards or Felix Schuster?"
 * and "Are Marufabad and Nasamkhrali in the same country?" each name two, and are answered by a passage
 * about each. One ranking of all the words favours whichever name has the rarer words (or the longer
 * name), so the other one's passage may never come up; a ranking per name finds both.
 *
 * A name is a run of words typed with a capital or a digit first ("The Heart Of Doreon", "45 Fathers",
 * "Algiers (Film)"); two names count as side by side when a lower-case `or` or `and` alone stands
 * between them. A capitalised question word opening the query stays with the name it runs into ("Are
 * Marufabad"): the search leaves function words out anyway. A query typed without capitals names
 * nothing this way.
 */

/** The words that join two names into a choice or a pair. */
const joiners = new Set(['or', 'and']);

/** A word without what surrounds it in running text: quotes, brackets, sentence punctuation. */
const bare = (word: string) => word.replace(/^[\p{P}\p{S}]+/u, '').replace(/[\p{P}\p{S}]+$/u, '');

const capitalised = (word: string) => /^[\p{Lu}\p{Lt}\p{N}]/u.test(bare(word));

/** A word ending a sentence: a name does not run past it (a comma or colon may belong to the name). */
const endsSentence = (word: string) => /[?!;]$/u.test(word);

export interface Run {
  start: number;
  end: number;
}

/** The runs of capitalised words, each cut at the end of a sentence. */
export function nameRuns(words: readonly string[]): Run[] {
  const runs: Run[] = [];
  for (let index = 0; index < words.length; index++) {
    if (!capitalised(words[index])) continue;
    const start = index;
    while (index + 1 < words.length && capitalised(words[index + 1]) && !endsSentence(words[index])) index++;
    runs.push({ start, end: index + 1 });
  }
  return runs;
}

export const typed = (words: readonly string[], run: Run) =>
  words
    .slice(run.start, run.end)
    .join(' ')
    .replace(/[?!.;:,]+$/u, '');

/**
 * The names `query` sets side by side, as typed (in query order), or none when it sets none. Only the
 * names taking part in an `X or Y` / `X and Y` are returned: "Which film came out first, 3 Dots or
 * Dying God?" gives "3 Dots" and "Dying God".
 */
export function namedAlternatives(query: string): string[] {
  const words = query.split(/\s+/u).filter(Boolean);
  const runs = nameRuns(words);
  const paired = new Set<number>();
  for (let i = 0; i + 1 < runs.length; i++) {
    const between = words.slice(runs[i].end, runs[i + 1].start);
    if (between.length === 1 && joiners.has(between[0])) paired.add(i).add(i + 1);
  }
  return [...paired].sort((a, b) => a - b).map((i) => typed(words, runs[i]));
}
