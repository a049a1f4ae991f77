import type { HarvestStats } from '../types.ts';

export function emptyHarvestStats(): HarvestStats {
  return {
    llmCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    linesParsed: 0,
    linesRejected: 0,
    rejectedByReason: {},
    guardsTripped: [],
    emptyAnswers: 0,
    droppedNoEvidence: 0,
    droppedExcluded: 0,
    droppedImplausible: 0,
    typesRescued: 0,
    relationshipTypesUnmatched: 0,
    relationshipsDroppedStrictType: 0,
  };
}

/** Counts one line turned down, by the parser or by the harvest. */
export function countRejected(stats: HarvestStats, reason: string): void {
  stats.linesRejected++;
  stats.rejectedByReason[reason] = (stats.rejectedByReason[reason] ?? 0) + 1;
}
