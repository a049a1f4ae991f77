import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body, Nullable, Pagination, PageNumber } from './common.ts';
import { TaskDetail } from './queue.ts';

const tag = 'llm';

const ConfiguredModels = Type.Object({
  chat: Type.String(),
  extraction: Type.String(),
  vision: Nullable(Type.String()),
  embedding: Type.String(),
});
export const LocalInstanceHealth = Type.Object({
  id: Type.String(),
  name: Type.String(),
  base_url: Type.String(),
  enabled: Type.Boolean(),
  healthy: Type.Boolean(),
  version: Nullable(Type.String()),
  models: Nullable(Type.Array(Type.String())),
  latency_ms: Nullable(Type.Number()),
  error: Nullable(Type.String()),
});
const LlmHealth = Type.Object({
  verified: Type.Boolean({ description: 'the configured chat provider answers and accepts the credentials' }),
  provider: Type.String(),
  models: ConfiguredModels,
  missing_models: Type.Array(Type.String()),
  message: Type.String(),
  checked_at: Type.String({ format: 'date-time' }),
  instances: Type.Array(LocalInstanceHealth, {
    description: 'local model servers (empty unless the local provider is configured for chat or embeddings)',
  }),
});
const LlmStatus = Type.Object({
  provider: Type.String(),
  verified: Type.Boolean(),
  queueing: Type.Boolean({ description: 'llm.enable_llm_queueing' }),
  lane: Type.Object({ queued: Type.Integer(), running: Type.Integer(), concurrency: Type.Integer() }),
  embedding: Type.Object({ provider: Type.String(), model: Type.String(), dimensions: Nullable(Type.Integer()) }),
  last_24h: Type.Object({
    calls: Type.Integer(),
    errors: Type.Integer(),
    input_tokens: Type.Integer(),
    output_tokens: Type.Integer(),
  }),
});
const StatsRow = Type.Object({
  provider: Type.String(),
  model: Type.String(),
  operation: Type.String(),
  calls: Type.Integer(),
  errors: Type.Integer(),
  input_tokens: Type.Integer(),
  output_tokens: Type.Integer(),
  avg_duration_ms: Type.Number(),
  p95_duration_ms: Type.Number(),
  last_call_at: Type.String(),
});
const TokenTotals = {
  total_input_tokens: Type.Integer(),
  total_output_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  total_cost_usd: Type.Number({
    description:
      'tokens of non-builtin, non-local calls priced with llm.cost_input_per_million / cost_output_per_million',
  }),
};
const LlmQueue = Type.Object({
  queue: Type.Literal('llm'),
  queued: Type.Integer(),
  running: Type.Integer(),
  completed_recent: Type.Integer({ description: 'not tracked: always 0, as in GET /queue/stats' }),
  failed_recent: Type.Integer({ description: 'not tracked: always 0, as in GET /queue/stats' }),
  workers: Type.Integer({ description: 'worker processes serving the llm lane' }),
  max_depth: Type.Integer({ description: 'pending tasks the lane accepts before it answers queue full' }),
  depth_percent: Type.Number({ minimum: 0, maximum: 100 }),
  ...TokenTotals,
});
const Estimate = Nullable(
  Type.String({ description: '"45s", "3m 5s" or "1h 2m"; null when no finished task tells how long one takes' }),
);
const SlotStats = Type.Object(
  {
    max_concurrent: Type.Integer({ description: 'tasks the llm lane runs at once' }),
    reserved_high_priority: Type.Integer(),
    active_count: Type.Integer({ description: 'running llm tasks' }),
    active_high_priority: Type.Integer(),
    active_low_priority: Type.Integer(),
    waiting_high_priority: Type.Integer(),
    waiting_low_priority: Type.Integer(),
    total_high_priority: Type.Integer(),
    total_low_priority: Type.Integer(),
    avg_wait_time_high: Nullable(Type.Number()),
    avg_wait_time_low: Nullable(Type.Number()),
  },
  {
    description:
      'model calls are limited by the llm lane running max_concurrent tasks at once; there is no separate ' +
      'priority semaphore, so its reservation, priority split and waits are 0 (averages null)',
  },
);
export const LlmQueueStats = Type.Object({
  queues: Type.Array(LlmQueue),
  total_queued: Type.Integer(),
  ...TokenTotals,
  estimated_completion_time_seconds: Nullable(Type.Integer({ description: 'of the llm lane' })),
  estimated_completion_time_human: Estimate,
  estimated_completion_times_human: Type.Object({ llm: Estimate, operations: Estimate }),
  semaphore_stats: SlotStats,
  since: Type.String({
    format: 'date-time',
    description: 'calls counted from here: `hours` ago, or the last DELETE /llm/stats if later',
  }),
  by_model: Type.Array(StatsRow),
});
const LlmTask = Type.Intersect([TaskDetail, Type.Object({ payload_version: Type.Integer() })]);
const TaskId = Type.Object({ task_id: Type.String() });

const VerifyResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  version: Nullable(Type.String()),
  models: Nullable(Type.Array(Type.String())),
  model_count: Nullable(Type.Integer()),
  response_time_ms: Nullable(Type.Number()),
  error_type: Nullable(Type.String()),
});
const LocalModel = Type.Object(
  {
    name: Type.String(),
    size: Type.Integer(),
    modified_at: Type.String(),
    digest: Type.String(),
    instance_id: Type.String(),
  },
  { additionalProperties: true },
);

export const llmEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/llm/health',
    tag,
    status: 200,
    summary: 'Whether the configured providers answer and have their models',
    query: Type.Object({
      fresh: Type.Optional(Type.Boolean({ description: 'skip the 15 s cache and check now', default: false })),
    }),
    response: LlmHealth,
  }),
  status: endpoint({
    method: 'GET',
    path: '/llm/status',
    tag,
    status: 200,
    summary: 'Provider, llm lane and recent call counts',
    response: LlmStatus,
  }),
  stats: endpoint({
    method: 'GET',
    path: '/llm/stats',
    tag,
    status: 200,
    errors: [422, 503],
    summary: 'The llm lane, model call tokens and cost, and how long the queued work should take',
    query: Type.Object({ hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 8760, default: 24 })) }),
    response: Type.Object({ data: LlmQueueStats }),
  }),
  clearStats: endpoint({
    method: 'DELETE',
    path: '/llm/stats',
    tag,
    status: 204,
    errors: [422, 503],
    summary:
      'Restart the token and cost totals from now and drop finished llm tasks older than older_than_hours (0: all)',
    query: Type.Object({
      older_than_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 8760, default: 24 })),
    }),
  }),
  tasks: endpoint({
    method: 'GET',
    path: '/llm/tasks',
    tag,
    status: 200,
    errors: [422, 503],
    summary: 'Tasks of the llm lane, newest first',
    query: Type.Object({
      page: Type.Optional(PageNumber),
      page_size: Type.Optional(Type.Integer({ minimum: 1, default: 50 })),
    }),
    response: Type.Object({ data: Type.Array(LlmTask), pagination: Pagination }),
  }),
  task: endpoint({
    method: 'GET',
    path: '/llm/tasks/{task_id}',
    tag,
    status: 200,
    errors: [404, 503],
    summary: 'One task of the llm lane',
    params: TaskId,
    response: Type.Object({ data: LlmTask }),
  }),
  cancelTask: endpoint({
    method: 'DELETE',
    path: '/llm/tasks/{task_id}',
    tag,
    status: 204,
    errors: [400, 503],
    summary: 'Cancel a queued or running task of the llm lane (400 when there is none to cancel)',
    params: TaskId,
  }),
  cancelTasks: endpoint({
    method: 'DELETE',
    path: '/llm/tasks',
    tag,
    status: 200,
    errors: [503],
    summary: 'Cancel every queued and running task of the llm lane',
    response: Type.Object({ data: Type.Object({ cancelled: Type.Integer(), message: Type.String() }) }),
  }),
  clearSemaphore: endpoint({
    method: 'DELETE',
    path: '/llm/semaphore',
    tag,
    status: 200,
    summary: 'Release callers waiting for a model call slot; the llm lane has no such waiters, so always 0',
    response: Type.Object({
      data: Type.Object({
        high_priority_cleared: Type.Integer(),
        low_priority_cleared: Type.Integer(),
        total_cleared: Type.Integer(),
      }),
    }),
  }),
  verifyLocal: endpoint({
    method: 'POST',
    path: '/settings/localllm/verify',
    tag: 'settings',
    status: 200,
    summary:
      'Check that a local (Ollama-compatible) model server answers; always 200, success false with error_type on failure',
    body: Body({
      url: Type.String({ minLength: 1, maxLength: 2048 }),
      timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 300 })),
    }),
    response: VerifyResult,
  }),
  localModels: endpoint({
    method: 'GET',
    path: '/settings/localllm/models',
    tag: 'settings',
    status: 200,
    errors: [503],
    summary: 'Models installed on the enabled local model servers',
    response: Type.Object({ models: Type.Array(LocalModel) }),
  }),
};
