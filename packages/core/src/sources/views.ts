import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { LlmTotals } from '../providers/index.ts';
import type { GraphCounts } from './read-model.ts';
import type { SourceRow, TagRow } from './repo.ts';

export interface SourceViewContext {
  paused: boolean;
  llm: LlmTotals;
  graph: GraphCounts;
  tags: TagRow[];
  /** The cached quality grade, when the source has been scored. */
  quality: { grade: number; label: string } | undefined;
}

const nullableBool = (value: number | null) => (value === null ? null : value === 1);
const json = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/** The public phase of a status: what a client shows without knowing every internal step. */
function progressOf(status: SourceRow['status']): SourceResponseBody['progress'] {
  switch (status) {
    case 'pending':
    case 'error':
      return 'waiting_to_index';
    case 'indexing':
    case 'vision_pending':
      return 'indexing';
    case 'awaiting_confirmation':
      return 'awaiting_input';
    case 'committed':
      return 'ready';
    default:
      return 'extracting';
  }
}

export function sourceView(row: SourceRow, context: SourceViewContext): SourceResponseBody {
  return {
    id: row.id,
    title: row.title,
    filename: row.filename,
    file_type: row.file_type,
    file_size: row.file_size,
    content_type: row.content_type,
    content_hash: row.content_hash,
    status: row.status,
    enabled: row.enabled === 1,
    paused: context.paused,
    progress: progressOf(row.status),
    source_type: row.source_type,
    origin_url: row.origin_url,
    extraction_depth: row.analysis_depth,
    extract_entities: row.extract_entities === 1,
    forced_domain: row.forced_domain,
    extraction_domain: row.extraction_domain,
    auto_confirm: row.auto_confirm === 1,
    enable_normalization: nullableBool(row.enable_normalization),
    enable_vision: nullableBool(row.enable_vision),
    content_filtering: row.content_filtering === 1,
    filtering_mode: row.filtering_mode,
    enable_direction_correction: nullableBool(row.enable_direction_correction),
    protect_orphans: nullableBool(row.protect_orphans),
    enable_inverse_relationships: nullableBool(row.enable_inverse_relationships),
    max_entity_degree_override: row.max_entity_degree_override,
    detection_proposal: json(row.detection_proposal, null),
    extraction_confirmed_at: row.extraction_confirmed_at,
    current_step: row.current_step,
    step_description: row.step_description,
    error_stage: row.error_stage,
    error_message: row.error_message,
    chunk_count: row.chunk_count,
    embedded_chunk_count: row.embedded_chunk_count,
    embedding_model: row.embedding_model,
    embedding_dimensions: row.embedding_dimensions,
    indexing_started_at: row.indexing_started_at,
    indexing_completed_at: row.indexing_completed_at,
    extraction_started_at: row.extraction_started_at,
    extraction_completed_at: row.extraction_completed_at,
    commit_started_at: row.commit_started_at,
    commit_completed_at: row.commit_completed_at,
    index_timings: json(row.index_timings, null),
    loader_warnings: json(row.loader_warnings, []),
    llm_total_calls: context.llm.calls,
    llm_failed_calls: context.llm.failed_calls,
    llm_total_input_tokens: context.llm.input_tokens,
    llm_total_output_tokens: context.llm.output_tokens,
    llm_total_duration_ms: context.llm.duration_ms,
    extraction_entities_count: context.graph.entities,
    extraction_relationships_count: context.graph.relationships,
    cached_quality_grade: context.quality?.label ?? null,
    cached_quality_score: context.quality?.grade ?? null,
    extraction_job_id: row.extraction_job_id,
    estimated_tokens: row.estimated_tokens,
    estimated_cost_usd: row.estimated_cost_usd,
    tags: context.tags,
    user_metadata: json(row.user_metadata, {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
