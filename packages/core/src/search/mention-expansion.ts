import type { Db } from '../storage/index.ts';
import { nameRuns, typed } from './named-alternatives.ts';
import { chunkContents } from './read-model/chunks.ts';
import { isFunctionWord } from './stop-words.ts';
import type { RankedItem } from './types.ts';

/** How many of a ranking's best passages lend their names, and how many names each lends. */
export const expandedPassages = 3;
const namesPerPassage = 3;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The names a passage mentions that the query does not: runs of capitalised words of at least two
 * content words ("Jakob Ziemnicki", "Warner Bros"), in the order the passage gives them, without the
 * function words a sentence opens with ("The", "In"). A name all of whose words the query has is the
 * query's own subject and is left out.
 */
export function mentionedNames(text: string, query: string): string[] {
  const asked = new Set(wordsOf(query));
  const names: string[] = [];
  // A name never runs across the end of a sentence.
  for (const sentence of text.split(/(?<=[.!?;])\s+/u)) namesIn(sentence.split(/\s+/u).filter(Boolean), asked, names);
  return names;
}

function namesIn(words: readonly string[], asked: ReadonlySet<string>, names: string[]): void {
  for (const run of nameRuns(words)) {
    const name = typed(words, run).replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    const content = wordsOf(name).filter((word) => !isFunctionWord(word));
    if (content.length < 2 || content.every((word) => asked.has(word))) continue;
    const trimmed = name.split(/\s+/u);
    // A sentence's opening word and a number before a name ("In 2011 German …") are not part of it.
    while (trimmed.length && (isFunctionWord(wordsOf(trimmed[0]).join('')) || /^\p{N}/u.test(trimmed[0])))
      trimmed.shift();
    if (trimmed.filter((word) => !isFunctionWord(wordsOf(word).join(''))).length < 2) continue;
    const kept = trimmed.join(' ');
    if (kept && !names.includes(kept)) names.push(kept);
  }
}

/** A name one of the best passages mentions, with that passage's score and source. */
export interface Mention {
  name: string;
  score: number;
  sourceId: string;
}

/** The names the best passages of a ranking mention, each with the passage it came from. */
export async function namesFromBestPassages(db: Db, items: readonly RankedItem[], query: string): Promise<Mention[]> {
  const best = items.filter((item) => item.kind === 'chunk').slice(0, expandedPassages);
  const chunks = await chunkContents(
    db,
    best.map((item) => item.id),
  );
  const found: Mention[] = [];
  for (const item of best) {
    const chunk = chunks.get(item.id);
    if (!chunk) continue;
    for (const name of mentionedNames(chunk.content, query).slice(0, namesPerPassage))
      if (!found.some((seen) => seen.name === name)) found.push({ name, score: item.score, sourceId: chunk.sourceId });
  }
  return found;
}
