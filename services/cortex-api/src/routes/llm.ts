import { llmEndpoints as api } from '@rhizome/contracts/api/llm';
import { ApiError } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import { llmConcurrency } from '@rhizome/core/tasks';
import { cloudModelsOf } from '@rhizome/core/providers';
import type { LlmStatsRow } from '@rhizome/core/providers';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';
import { detail, summary } from './queue.ts';

const hourMs = 3_600_000;

/** The /llm group: provider health and status, call statistics, and the llm lane's tasks. */
export function mountLlmRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { providers, settings, tasks } = platform;

  routes.add(api.health, async ({ query }) => {
    const current = settings.get();
    const [readiness, instances] = await Promise.all([
      providers.readiness.status({ fresh: query.fresh }),
      usesLocalServers(current) ? providers.localPool.probeAll(AbortSignal.timeout(5000)) : Promise.resolve([]),
    ]);
    return { ...readiness, models: { ...readiness.models, embedding: providers.embeddings.identity().model }, instances };
  });
  routes.add(api.status, async () => {
    const current = settings.get();
    const [readiness, lanes, recent] = await Promise.all([
      providers.readiness.status(),
      tasks.counts(),
      providers.metrics.stats(new Date(Date.now() - 24 * hourMs)),
    ]);
    const lane = lanes.find((entry) => entry.queue === 'llm');
    return {
      provider: current.llm.chat_provider,
      verified: readiness.verified,
      queueing: current.llm.enable_llm_queueing,
      lane: { queued: lane?.queued ?? 0, running: lane?.running ?? 0, concurrency: llmConcurrency(current) },
      embedding: providers.embeddings.identity(),
      last_24h: totalsOf(recent),
    };
  });
  routes.add(api.stats, async ({ query }) => {
    const since = new Date(Date.now() - (query.hours ?? 24) * hourMs);
    const rows = await providers.metrics.stats(since);
    return { since: since.toISOString(), totals: { ...totalsOf(rows), estimated_cost_usd: estimatedCost(rows, settings.get()) }, by_model: rows };
  });
  routes.add(api.tasks, async ({ query }) => {
    const window = pageWindow(query, settings.get().pagination);
    const { tasks: page, total } = await tasks.list({ queues: ['llm'], offset: window.offset, limit: window.pageSize });
    return { data: page.map(summary), pagination: pagination(total, window) };
  });
  routes.add(api.task, async ({ params }) => {
    const task = await tasks.get(params.task_id);
    if (!task || task.queue !== 'llm') throw ApiError.notFound('llm_task', params.task_id);
    return detail(task);
  });
}

function usesLocalServers(settings: Settings): boolean {
  return settings.llm.chat_provider === 'localllm' || settings.embedding.provider === 'localllm';
}

function totalsOf(rows: LlmStatsRow[]) {
  const sum = (pick: (row: LlmStatsRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return { calls: sum((row) => row.calls), errors: sum((row) => row.errors), input_tokens: sum((row) => row.input_tokens), output_tokens: sum((row) => row.output_tokens) };
}

/** Hosted providers cost money (catalogue prices, else the settings' defaults); builtin and local calls do not. */
function estimatedCost(rows: LlmStatsRow[], settings: Settings): number {
  const paid = rows.filter((row) => row.provider !== 'builtin' && row.provider !== 'localllm');
  const cost = paid.reduce((total, row) => {
    const pricing = cloudModelsOf(row.provider)?.find((model) => model.id === row.model)?.pricing;
    const input = pricing?.input_per_million ?? settings.llm.cost_input_per_million;
    const output = pricing?.output_per_million ?? settings.llm.cost_output_per_million;
    return total + (row.input_tokens * input + row.output_tokens * output) / 1e6;
  }, 0);
  return Math.round(cost * 10_000) / 10_000;
}
