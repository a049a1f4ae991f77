import { queueEndpoints as api } from '@rhizome/contracts/api/queue';
import { ApiError, describeError } from '@rhizome/contracts/errors';
import { TaskNotFoundError, TaskStateError, queueNames, type QueueName } from '@rhizome/queue';
import { queueStats, taskDetail, taskSummary } from '@rhizome/core/tasks';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

const hourMs = 3_600_000;

export function mountQueueRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { tasks, queue } = platform;
  const now = () => Date.now();
  const requireTask = async (taskId: string) => {
    const task = await tasks.get(taskId);
    if (!task) throw ApiError.notFound('task', taskId);
    return task;
  };

  routes.add(api.submit, async ({ body }) => ({ task_id: (await queue.submit(body)).task_id }));
  routes.add(api.list, async ({ query }) => {
    const selected = parseQueues(query.queues);
    const window = pageWindow(query, platform.settings.get().pagination);
    const { tasks: page, total } = await tasks.list({
      queues: selected,
      offset: window.offset,
      limit: window.pageSize,
    });
    const counts = (await tasks.counts()).filter((lane) => !selected || selected.includes(lane.queue));
    return {
      data: page.map(taskSummary),
      pagination: pagination(total, window),
      total_in_queue: counts.reduce((sum, lane) => sum + lane.queued + lane.running, 0),
      queues: selected ?? null,
    };
  });
  routes.add(api.get, async ({ params }) => taskDetail(await requireTask(params.task_id)));
  routes.add(api.result, async ({ params }) => {
    const stored = await tasks.result(params.task_id, now());
    if (!stored) throw ApiError.notFound('task_result', params.task_id);
    return stored;
  });
  // Before DELETE /queue/tasks/{task_id}, which would otherwise take 'history' for a task id.
  routes.add(api.clearHistory, async ({ query }) => {
    const hours = query.older_than_hours ?? 0;
    return {
      cleared: await tasks.clearHistory({
        queue: query.queue,
        finishedBefore: hours === 0 ? Number.MAX_SAFE_INTEGER : now() - hours * hourMs,
      }),
      queue: query.queue ?? null,
    };
  });
  routes.add(api.cancel, async ({ params }) => {
    const outcome = await tasks.cancel(params.task_id, now());
    if (outcome === 'not_found') throw ApiError.notFound('task', params.task_id);
    if (outcome === 'finished') {
      const task = await requireTask(params.task_id);
      throw ApiError.badRequest(`Task '${params.task_id}' is already ${task.status}`);
    }
    return { status: 'cancelled' as const };
  });
  routes.add(api.retry, async ({ params }) => {
    try {
      return await queue.retry(params.task_id);
    } catch (error) {
      if (error instanceof TaskNotFoundError) throw ApiError.notFound('task', params.task_id);
      if (error instanceof TaskStateError) throw ApiError.badRequest(error.message);
      throw error;
    }
  });
  routes.add(api.cancelAll, async ({ query }) => ({
    cancelled: await tasks.cancelMatching({ queue: query.queue }, now()),
    queue: query.queue ?? null,
  }));
  routes.add(api.cancelMany, async ({ body }) => {
    if (body.task_ids && body.metadata) throw ApiError.badRequest('Give either task_ids or metadata, not both');
    if (body.metadata)
      return { cancelled: await tasks.cancelMatching({ queue: body.queue, metadata: body.metadata }, now()) };
    if (!body.task_ids) throw ApiError.badRequest('Give task_ids (batch mode) or metadata (metadata mode)');
    const failed: { task_id: string; reason: string }[] = [];
    for (const taskId of new Set(body.task_ids)) {
      const outcome = await tasks.cancel(taskId, now());
      if (outcome !== 'cancelled')
        failed.push({ task_id: taskId, reason: outcome === 'not_found' ? 'not found' : 'already finished' });
    }
    return {
      cancelled_count: new Set(body.task_ids).size - failed.length,
      requested_count: body.task_ids.length,
      failed,
    };
  });
  routes.add(api.stats, () => queueStats(tasks));
  routes.add(api.laneStats, async ({ params }) => {
    if (!(queueNames as readonly string[]).includes(params.queue_name))
      throw ApiError.notFound('queue', params.queue_name);
    const stats = await queueStats(tasks);
    const lane = stats.queues.find((entry) => entry.queue === params.queue_name);
    if (!lane) throw new ApiError(503, 'HTTP_503', stats.note);
    return lane;
  });
  routes.add(api.health, async () => {
    try {
      await tasks.ping();
      return {
        status: 'healthy',
        enabled: true,
        connected: true,
        system: tasks.kind,
        note: `${tasks.kind} task queue answers`,
      };
    } catch (error) {
      return { status: 'unavailable', enabled: true, connected: false, system: tasks.kind, note: describeError(error) };
    }
  });
  routes.add(api.reconcile, async ({ body }) => (await tasks.reconcile(body.queue ?? undefined, 30_000, now())).counts);
}

function parseQueues(value: string | undefined): QueueName[] | undefined {
  if (!value) return undefined;
  const names = [
    ...new Set(
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((name) => !(queueNames as readonly string[]).includes(name));
  if (unknown.length)
    throw ApiError.validation(
      unknown.map((name) => ({ loc: ['query', 'queues'], msg: `Unknown queue '${name}'`, type: 'enum' })),
    );
  return names as QueueName[];
}
