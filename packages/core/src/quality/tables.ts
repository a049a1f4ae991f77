import type { QualityLabel } from '@rhizome/contracts/api/quality';

/** A cached score: the columns corpus queries sort and average on, and the whole score as JSON. */
export interface QualityScoreRow {
  source_id: string;
  cached_scores_version: number;
  computed_at: string;
  entity_count: number;
  relationship_count: number;
  total_score: number;
  avg_entity_quality: number;
  avg_relationship_quality: number;
  connectivity_ratio: number;
  quality_grade: number;
  quality_label: QualityLabel;
  score: string;
}

/** The table the quality module owns (migration 0007). */
declare module 'knex/types/tables.js' {
  interface Tables {
    source_quality_scores: QualityScoreRow;
  }
}
