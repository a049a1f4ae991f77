import { llmEndpoints as api } from '@rhizome/contracts/api/llm';
import { NotFound } from '@rhizome/contracts/errors';
import { llmConcurrency, taskDetail, taskSummary } from '@rhizome/core/tasks';
import { estimatedCost, hoursAgo, usageTotals, usesLocalServers } from '@rhizome/core/providers';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** The /llm group: provider health and status, call statistics, and the llm lane's tasks. */
export function mountLlmRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { providers, settings, tasks } = platform;

  routes.add(api.health, async ({ query }) => {
    const [readiness, instances] = await Promise.all([
      providers.readiness.status({ fresh: query.fresh }),
      usesLocalServers(settings.get()) ? providers.localPool.probeAll(AbortSignal.timeout(5000)) : Promise.resolve([]),
    ]);
    return {
      ...readiness,
      models: { ...readiness.models, embedding: providers.embeddings.identity().model },
      instances,
    };
  });
  routes.add(api.status, async () => {
    const current = settings.get();
    const [readiness, lanes, recent] = await Promise.all([
      providers.readiness.status(),
      tasks.counts(),
      providers.metrics.stats(hoursAgo(24)),
    ]);
    const lane = lanes.find((entry) => entry.queue === 'llm');
    return {
      provider: current.llm.chat_provider,
      verified: readiness.verified,
      queueing: current.llm.enable_llm_queueing,
      lane: { queued: lane?.queued ?? 0, running: lane?.running ?? 0, concurrency: llmConcurrency(current) },
      embedding: providers.embeddings.identity(),
      last_24h: usageTotals(recent),
    };
  });
  routes.add(api.stats, async ({ query }) => {
    const since = hoursAgo(query.hours ?? 24);
    const rows = await providers.metrics.stats(since);
    return {
      since: since.toISOString(),
      totals: { ...usageTotals(rows), estimated_cost_usd: estimatedCost(rows, settings.get()) },
      by_model: rows,
    };
  });
  routes.add(api.tasks, async ({ query }) => {
    const window = pageWindow(query, settings.get().pagination);
    const { tasks: page, total } = await tasks.list({ queues: ['llm'], offset: window.offset, limit: window.pageSize });
    return { data: page.map(taskSummary), pagination: pagination(total, window) };
  });
  routes.add(api.task, async ({ params }) => {
    const task = await tasks.get(params.task_id);
    if (!task || task.queue !== 'llm') throw NotFound.resource('llm_task', params.task_id);
    return taskDetail(task);
  });
}
