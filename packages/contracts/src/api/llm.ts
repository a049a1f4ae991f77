import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body, Nullable, Pagination, PageNumber } from './common.ts';
import { TaskDetail, TaskSummary } from './queue.ts';

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
const LlmStats = Type.Object({
  since: Type.String({ format: 'date-time' }),
  totals: Type.Object({
    calls: Type.Integer(),
    errors: Type.Integer(),
    input_tokens: Type.Integer(),
    output_tokens: Type.Integer(),
    estimated_cost_usd: Type.Number({
      description:
        'tokens of non-builtin, non-local calls priced with llm.cost_input_per_million / cost_output_per_million',
    }),
  }),
  by_model: Type.Array(StatsRow),
});
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
    errors: [422],
    summary: 'Calls, errors, tokens and latency per provider, model and operation',
    query: Type.Object({ hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 8760, default: 24 })) }),
    response: LlmStats,
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
    response: Type.Object({ data: Type.Array(TaskSummary), pagination: Pagination }),
  }),
  task: endpoint({
    method: 'GET',
    path: '/llm/tasks/{task_id}',
    tag,
    status: 200,
    errors: [404, 503],
    summary: 'One task of the llm lane',
    params: Type.Object({ task_id: Type.String() }),
    response: TaskDetail,
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
