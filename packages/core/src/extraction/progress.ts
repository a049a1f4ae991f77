import type { ExtractionProgressBody } from '@rhizome/contracts/api/extraction';
import type { GroupRow, JobRow } from './jobs.ts';

function timing(groups: GroupRow[]): ExtractionProgressBody['timing'] {
  const durations = groups.flatMap((group) =>
    group.status === 'completed' && group.duration_ms !== null ? [group.duration_ms] : [],
  );
  if (!durations.length) return { avg_duration_ms: null, min_duration_ms: null, max_duration_ms: null };
  return {
    avg_duration_ms: Math.round(durations.reduce((sum, value) => sum + value, 0) / durations.length),
    min_duration_ms: Math.min(...durations),
    max_duration_ms: Math.max(...durations),
  };
}

/** A run's progress from its groups: how many are in each state, the share done, the group at work, the totals so far. */
export function jobProgress(sourceId: string, job: JobRow, groups: GroupRow[]): ExtractionProgressBody {
  const byStatus: Record<string, number> = { pending: 0, queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };
  for (const group of groups) byStatus[group.status] = (byStatus[group.status] ?? 0) + 1;
  const stats = job.stats
    ? (JSON.parse(job.stats) as { entities: number; relationships: number } & Record<string, unknown>)
    : null;
  const current =
    groups.find((group) => group.status === 'running') ?? groups.find((group) => group.status === 'queued') ?? null;
  const done = byStatus.completed + byStatus.failed + byStatus.cancelled;
  return {
    source_id: sourceId,
    job_id: job.id,
    status: job.status,
    has_extraction_job: true,
    total_chunks: job.total_groups,
    completed_chunks: byStatus.completed,
    failed_chunks: byStatus.failed,
    progress_percent: job.total_groups ? Math.round((1000 * done) / job.total_groups) / 10 : 100,
    chunks_by_status: byStatus,
    total_entities: stats ? stats.entities : groups.reduce((sum, group) => sum + (group.entity_count ?? 0), 0),
    total_relationships: stats
      ? stats.relationships
      : groups.reduce((sum, group) => sum + (group.relationship_count ?? 0), 0),
    extraction_depth: job.depth,
    domain: job.domain,
    started_at: job.started_at ?? job.created_at,
    completed_at: job.completed_at,
    timing: timing(groups),
    current_chunk: current
      ? { chunk_index: current.group_index, status: current.status, started_at: current.started_at }
      : null,
    estimated_tokens: job.estimated_input_tokens + job.estimated_output_tokens,
    estimated_cost_usd: job.estimated_cost_usd,
    error_message: job.error_message,
    stats,
  };
}
