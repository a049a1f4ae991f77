/** Extraction groups: the token-packed runs of chunks sent to the model together, and the even sample quick depth takes. */

export interface ExtractionGroup {
  groupIndex: number;
  firstChunkIndex: number;
  /** Inclusive. */
  lastChunkIndex: number;
  tokens: number;
}

/**
 * Packs consecutive chunks (sorted by index, without gaps) until the next would pass `targetTokens`;
 * a group's first chunk always goes in, however large. Each group repeats the last `overlap` chunks
 * of the one before, as long as that still moves forward.
 */
export function extractionGroups(
  chunks: readonly { index: number; tokenEstimate: number }[],
  targetTokens: number,
  overlap: number,
): ExtractionGroup[] {
  const groups: ExtractionGroup[] = [];
  for (let first = 0; first < chunks.length;) {
    let tokens = chunks[first].tokenEstimate;
    let next = first + 1;
    for (; next < chunks.length && tokens + chunks[next].tokenEstimate <= targetTokens; next++)
      tokens += chunks[next].tokenEstimate;
    groups.push({
      groupIndex: groups.length,
      firstChunkIndex: chunks[first].index,
      lastChunkIndex: chunks[next - 1].index,
      tokens,
    });
    if (next >= chunks.length) break;
    first = Math.max(first + 1, next - overlap);
  }
  return groups;
}

/** At most `maxGroups` groups, evenly spread over the document (each from the middle of its stretch). */
export function sampleGroups<T>(groups: readonly T[], maxGroups: number): T[] {
  if (groups.length <= maxGroups) return [...groups];
  const picked: T[] = [];
  for (let k = 0; k < maxGroups; k++) picked.push(groups[Math.floor(((k + 0.5) * groups.length) / maxGroups)]);
  return picked;
}
