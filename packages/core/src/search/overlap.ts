/**
 * Chunks of a source overlap by design (`chunking.small_chunk_overlap`), so that embedding sees every
 * sentence in context. Shown side by side — in search results, in a chat turn's passages — the text two
 * consecutive chunks share would read twice; these say which sentences of a chunk its neighbour already
 * shows. Sentences are counted by their end offsets in the chunk's content, in order.
 */

/** Where a chunk lies in its source's chunked text (offsets null for chunks stored without them). */
export interface ChunkPlace {
  sourceId: string;
  index: number;
  start: number | null;
  end: number | null;
}

/** The characters at the start of `next` that repeat the end of `previous`: 0 unless `next` directly follows it. */
function overlapChars(previous: ChunkPlace, next: ChunkPlace): number {
  if (previous.sourceId !== next.sourceId || next.index !== previous.index + 1) return 0;
  if (previous.end === null || next.start === null) return 0;
  return Math.max(0, previous.end - next.start);
}

/** How many leading sentences lie wholly within the first `chars` characters: those the previous chunk shows. */
function repeatedHead(sentenceEnds: readonly number[], chars: number): number {
  let count = 0;
  while (count < sentenceEnds.length && sentenceEnds[count] <= chars) count += 1;
  // A chunk wholly inside its neighbour has nothing of its own to show: it is shown whole.
  return count === sentenceEnds.length ? 0 : count;
}

/** How many trailing sentences begin within the last `chars` characters of a chunk `length` long: those the next chunk shows. */
function repeatedTail(sentenceStarts: readonly number[], length: number, chars: number): number {
  let count = 0;
  while (count < sentenceStarts.length && sentenceStarts[sentenceStarts.length - 1 - count] >= length - chars)
    count += 1;
  return count === sentenceStarts.length ? 0 : count;
}

/** A chunk as it is shown: where it lies, how long its content is, and its sentences' [start, end) offsets. */
export interface ShownChunk {
  place: ChunkPlace;
  length: number;
  sentenceSpans: readonly (readonly [number, number])[];
}

/**
 * The sentences each chunk shows, as [from, to) over its own numbering, for chunks in the order they are
 * shown: of two consecutive chunks of a source, the one shown later leaves out what the other shows.
 * A chunk its neighbours on both sides cover shows nothing (from = to).
 */
export function shownSentences(chunks: readonly ShownChunk[]): [number, number][] {
  return chunks.map((chunk, position) => {
    const earlier = chunks.slice(0, position);
    const previous = earlier.find((other) => overlapChars(other.place, chunk.place) > 0);
    const next = earlier.find((other) => overlapChars(chunk.place, other.place) > 0);
    const count = chunk.sentenceSpans.length;
    const from = previous
      ? repeatedHead(
          chunk.sentenceSpans.map(([, end]) => end),
          overlapChars(previous.place, chunk.place),
        )
      : 0;
    const to = next
      ? count -
        repeatedTail(
          chunk.sentenceSpans.map(([start]) => start),
          chunk.length,
          overlapChars(chunk.place, next.place),
        )
      : count;
    return [from, Math.max(from, to)];
  });
}
