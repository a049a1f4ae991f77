/** The hierarchical chunk groups stored at chunk time (`chunk_groups`): a sliding window of `group_size` chunks. */

export interface ChunkGroup {
  groupIndex: number;
  firstChunkIndex: number;
  /** Inclusive. */
  lastChunkIndex: number;
}

/** Windows of `groupSize` chunks, each sharing `groupOverlap` chunks with the one before. */
export function chunkGroups(chunkCount: number, groupSize: number, groupOverlap: number): ChunkGroup[] {
  const size = Math.max(1, groupSize);
  const step = Math.max(1, size - groupOverlap);
  const groups: ChunkGroup[] = [];
  for (let first = 0; first < chunkCount; first += step) {
    const last = Math.min(first + size, chunkCount) - 1;
    groups.push({ groupIndex: groups.length, firstChunkIndex: first, lastChunkIndex: last });
    if (last === chunkCount - 1) break;
  }
  return groups;
}
