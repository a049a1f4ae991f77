import { extractionEndpoints as api } from '@rhizome/contracts/api/extraction';
import { extractionModule } from '@rhizome/core/extraction';
import { ApiError } from '@rhizome/contracts/errors';
import { pageWindow, pagination } from '../http/pagination.ts';
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
}
