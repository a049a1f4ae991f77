import type { SourceQualityScoreBody } from '@rhizome/contracts/api/quality';
import type { Db } from '../storage/index.ts';
import { scoringVersion } from './grade.ts';

const table = 'source_quality_scores';
const insertBatch = 50;

/** Stores scores in the cache, replacing a source's earlier one. */
export async function storeScores(db: Db, scores: SourceQualityScoreBody[]): Promise<void> {
  const computedAt = new Date().toISOString();
  const rows = scores.map((score) => ({
    source_id: score.source_id,
    cached_scores_version: scoringVersion,
    computed_at: computedAt,
    entity_count: score.entity_count,
    relationship_count: score.relationship_count,
    total_score: score.total_score,
    avg_entity_quality: score.avg_entity_quality,
    avg_relationship_quality: score.avg_relationship_quality,
    connectivity_ratio: score.connectivity_ratio,
    quality_grade: score.quality_grade,
    quality_label: score.quality_label,
    score: JSON.stringify(score),
  }));
  await db.transaction(async (trx) => {
    for (let start = 0; start < rows.length; start += insertBatch)
      await trx(table)
        .insert(rows.slice(start, start + insertBatch))
        .onConflict('source_id')
        .merge();
  });
}
