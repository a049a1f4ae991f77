import { llmEndpoints as api } from '@rhizome/contracts/api/llm';
import { BadInput, NotFound } from '@rhizome/contracts/errors';
import type { TaskRecord } from '@rhizome/queue';
import { llmConcurrency, taskDetail } from '@rhizome/core/tasks';
import { hoursAgo, llmQueueStats, usageTotals, usesLocalServers } from '@rhizome/core/providers';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

const hourMs = 3_600_000;

/** A task of the llm lane as the /llm task endpoints show it. */
const llmTask = (task: TaskRecord) => ({ ...taskDetail(task), payload_version: task.payload_version });

/** The /llm group: provider health and status, the llm lane's monitor, and its tasks. */
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
  routes.add(api.stats, async ({ query }) => ({
    data: await llmQueueStats(
      { tasks, metrics: providers.metrics, settings: settings.get() },
      hoursAgo(query.hours ?? 24),
    ),
  }));
  routes.add(api.clearStats, async ({ query }) => {
    const hours = query.older_than_hours ?? 24;
    await providers.metrics.resetMonitor(new Date());
    await tasks.clearHistory({
      queue: 'llm',
      finishedBefore: hours === 0 ? Number.MAX_SAFE_INTEGER : Date.now() - hours * hourMs,
    });
  });
  routes.add(api.tasks, async ({ query }) => {
    const window = pageWindow(query, settings.get().pagination);
    const { tasks: page, total } = await tasks.list({ queues: ['llm'], offset: window.offset, limit: window.pageSize });
    return { data: page.map(llmTask), pagination: pagination(total, window) };
  });
  routes.add(api.task, async ({ params }) => {
    const task = await tasks.get(params.task_id);
    if (!task || task.queue !== 'llm') throw NotFound.resource('llm_task', params.task_id);
    return { data: llmTask(task) };
  });
  routes.add(api.cancelTask, async ({ params }) => {
    const task = await tasks.get(params.task_id);
    const outcome = task?.queue === 'llm' ? await tasks.cancel(params.task_id, Date.now()) : 'not_found';
    if (outcome === 'not_found') throw new BadInput(`No llm task '${params.task_id}' to cancel`);
    if (outcome === 'finished') throw new BadInput(`Task '${params.task_id}' is already ${task!.status}`);
  });
  routes.add(api.cancelTasks, async () => {
    const cancelled = await tasks.cancelMatching({ queue: 'llm' }, Date.now());
    return { data: { cancelled, message: `Cancelled ${cancelled} llm task${cancelled === 1 ? '' : 's'}` } };
  });
  routes.add(api.clearSemaphore, () => ({
    data: { high_priority_cleared: 0, low_priority_cleared: 0, total_cleared: 0 },
  }));
}
