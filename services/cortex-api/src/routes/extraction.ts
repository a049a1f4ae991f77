import { extractionEndpoints as api, type ExtractionProgressBody } from '@rhizome/contracts/api/extraction';
import type { GroupRow, JobRow } from '@rhizome/core/extraction';
import {
  bulkExtractionOperation,
  bulkProgress,
  extractionModule,
  type BulkExtractionResult,
} from '@rhizome/core/extraction';
import { sourcesModule } from '@rhizome/core/sources';
import { ApiError } from '@rhizome/contracts/errors';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

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

function progress(sourceId: string, job: JobRow, groups: GroupRow[]): ExtractionProgressBody {
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

/** Start, watch and cancel the extraction of a source, or of many at once. */
export function mountExtractionRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.bulkStart, async ({ body, scope }) => {
    const { taskId, total } = await (await scope.service(extractionModule)).queueBulk(body);
    return {
      task_id: taskId,
      status: 'queued' as const,
      message: `Extraction of ${total} sources queued; follow it at /sources/extraction/${taskId}`,
      total,
    };
  });
  routes.add(api.bulkProgress, async ({ params }) => {
    const task = await platform.tasks.get(params.task_id);
    if (!task || task.operation !== bulkExtractionOperation) throw ApiError.notFound('Bulk extraction', params.task_id);
    const db = await platform.databases.connection(String(task.data.database));
    const result =
      task.status === 'completed'
        ? ((await platform.tasks.result(task.task_id, Date.now()))?.result as BulkExtractionResult | undefined)
        : undefined;
    const skipped = result?.skipped ?? [];
    const left = new Set(skipped.map((entry) => entry.source_id));
    const ids = (task.data.source_ids as string[]).filter((id) => !left.has(id));
    return {
      task_id: task.task_id,
      task_status: task.status,
      ...(await bulkProgress(db, ids, task.created_at)),
      skipped,
    };
  });
  routes.add(api.start, async ({ params, body, scope }) => {
    const service = await scope.service(extractionModule);
    const { job, status, message } = await service.start(params.source_id, body);
    return { source_id: params.source_id, job_id: job?.id ?? null, status, message };
  });
  routes.add(api.progress, async ({ params, scope }) => {
    const service = await scope.service(extractionModule);
    const job = await service.job(params.source_id);
    if (!job) {
      const source = await (await scope.service(sourcesModule)).require(params.source_id);
      return {
        source_id: params.source_id,
        job_id: null,
        status: source.status,
        has_extraction_job: false,
        message: 'This source has not been extracted yet',
      };
    }
    return progress(params.source_id, job, await service.groups(job));
  });
  routes.add(api.cancel, async ({ params, scope }) => {
    await (await scope.service(extractionModule)).cancel(params.source_id);
  });
  routes.add(api.tasks, async ({ params, query, scope }) => {
    const service = await scope.service(extractionModule);
    const job = await service.job(params.source_id);
    if (!job) throw ApiError.notFound('Extraction job', params.source_id);
    const window = pageWindow(query, platform.settings.get().pagination);
    return {
      data: await service.groups(job, { offset: window.offset, limit: window.pageSize }),
      pagination: pagination(job.total_groups, window),
    };
  });
}
