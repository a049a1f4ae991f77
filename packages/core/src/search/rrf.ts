import type { RankedItem } from './types.ts';

/** The rank constant of reciprocal rank fusion (Cormack et al.; prior-art §4.7). */
export const rrfK = 60;

const keyOf = (item: RankedItem) => `${item.kind}:${item.id}`;

/**
 * Reciprocal rank fusion: an item's score is Σ 1 / (k + rank) over the rankings it appears in (rank
 * from 1), so rankings with incomparable scores (BM25, cosine, PageRank) combine by position alone.
 * Ties keep the order of first appearance.
 */
export function reciprocalRankFusion(rankings: RankedItem[][], limit: number, k = rrfK): RankedItem[] {
  const fused = new Map<string, RankedItem>();
  for (const ranking of rankings) {
    ranking.forEach((item, index) => {
      const key = keyOf(item);
      const score = 1 / (k + index + 1);
      const seen = fused.get(key);
      if (seen) seen.score += score;
      else fused.set(key, { kind: item.kind, id: item.id, score });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
