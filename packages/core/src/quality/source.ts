/** The source-level parts of the score. */

export interface Richness {
  entity_contribution: number;
  relationship_contribution: number;
  connectivity_bonus: number;
  /** Unbounded: grows with the number of good items, so it measures volume as much as quality. */
  total_score: number;
}

/** Each item weighs in by its score squared (s × s / 100), so weak items add little; each connected entity adds 10. */
export function richness(
  entityScores: readonly number[],
  relationshipScores: readonly number[],
  connectedEntities: number,
): Richness {
  const weigh = (scores: readonly number[]) => scores.reduce((sum, score) => sum + (score * score) / 100, 0);
  const entity = weigh(entityScores);
  const relationship = weigh(relationshipScores);
  const bonus = 10 * connectedEntities;
  return {
    entity_contribution: entity,
    relationship_contribution: relationship,
    connectivity_bonus: bonus,
    total_score: entity + relationship + bonus,
  };
}

/** Share of entities with at least one relationship; 0 without entities. */
export const connectivityRatio = (connectedEntities: number, entityCount: number) =>
  entityCount > 0 ? connectedEntities / entityCount : 0;

/** Entities per chunk as a percentage, capped at 100; 0 for a source without chunks. */
export const coverageScore = (entityCount: number, chunkCount: number) =>
  chunkCount > 0 ? Math.min(100, (entityCount / chunkCount) * 100) : 0;

/** Items below the threshold (`analysis.low_quality_threshold`) count as low quality. */
export const countBelow = (scores: readonly number[], threshold: number) =>
  scores.filter((score) => score < threshold).length;
