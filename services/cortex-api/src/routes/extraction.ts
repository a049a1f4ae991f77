import { extractionEndpoints as api } from '@rhizome/contracts/api/extraction';
import { extractionModule } from '@rhizome/core/extraction';
import { ApiError } from '@rhizome/contracts/errors';
import type { ChatProvider } from '@rhizome/contracts/settings';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RequestScope } from '../http/request-scope.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

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
  routes.add(api.bulkProgress, async ({ params, scope }) =>
    (await scope.service(extractionModule)).bulkStatus(params.task_id),
  );
  routes.add(api.start, async ({ params, body, scope }) => {
    const service = await scope.service(extractionModule);
    const { job, status, message } = await service.start(params.source_id, body);
    return { source_id: params.source_id, job_id: job?.id ?? null, status, message };
  });
  routes.add(api.progress, async ({ params, scope }) =>
    (await scope.service(extractionModule)).progress(params.source_id),
  );
  routes.add(api.cancel, async ({ params, scope }) => {
    await (await scope.service(extractionModule)).cancel(params.source_id);
  });
  routes.add(api.tasks, async ({ params, query, scope }) => {
    const service = await scope.service(extractionModule);
    const job = await service.job(params.source_id);
    if (!job) throw ApiError.notFound('Extraction job', params.source_id);
    const window = pageWindow(query, platform.settings.get().pagination);
    const groups = await service.groups(job, { offset: window.offset, limit: window.pageSize });
    return {
      data: groups,
      pagination: pagination(job.total_groups, window),
      tasks: groups,
      total: job.total_groups,
      page: window.page,
      page_size: window.pageSize,
    };
  });
  mountChunkHistoryRoutes(routes, platform);
}

/** A chunk's attempts and re-runs, and what the source page reads about its extraction. */
function mountChunkHistoryRoutes(routes: RouteTable, platform: CortexDeps['platform']): void {
  const history = async (scope: RequestScope) => (await scope.service(extractionModule)).history;
  const rerun = async (
    scope: RequestScope,
    sourceId: string,
    indexes: number[],
    choice: { provider?: ChatProvider; model?: string },
  ) => {
    const { job, reruns } = await (await scope.service(extractionModule)).rerun(sourceId, indexes, choice);
    return { source_id: sourceId, job_id: job.id, source_status: 'extracting', reruns };
  };
  routes.add(api.attempts, async ({ params, scope }) => ({
    data: await (await history(scope)).attempts(params.source_id, params.chunk_index),
  }));
  routes.add(api.attempt, async ({ params, scope }) =>
    (await history(scope)).attempt(params.source_id, params.chunk_index, params.attempt_id),
  );
  routes.add(api.rerun, async ({ params, body, scope }) =>
    rerun(scope, params.source_id, [params.chunk_index], { provider: body.provider, model: body.model }),
  );
  routes.add(api.rerunMany, async ({ params, body, scope }) =>
    rerun(scope, params.source_id, body.chunk_indexes, { provider: body.provider, model: body.model }),
  );
  routes.add(api.filteringLog, async ({ params, scope }) => (await history(scope)).filteringLog(params.source_id));
  routes.add(api.stats, async ({ params, scope }) => (await history(scope)).stats(params.source_id));
  routes.add(api.charts, async ({ params, scope }) => (await history(scope)).charts(params.source_id));
  routes.add(api.llmMetrics, async ({ params, scope }) => (await history(scope)).llmSummary(params.source_id));
  routes.add(api.llmCalls, async ({ params, query, scope }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const { calls, total } = await (
      await history(scope)
    ).llmCalls(params.source_id, { offset: window.offset, limit: window.pageSize }, query.success);
    return { calls, pagination: pagination(total, window) };
  });
  routes.add(api.recoveryEvents, async ({ params, query, scope }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const { rows, total } = await (
      await history(scope)
    ).recoveryEvents(params.source_id, { offset: window.offset, limit: window.pageSize });
    return {
      data: rows.map((row) => ({ ...row, database_name: scope.databaseName() })),
      pagination: pagination(total, window),
    };
  });
}
