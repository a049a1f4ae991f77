import { Type, type Static, type TNumber } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { chatProviders, filteringModes, type ChatProvider } from '../settings.ts';
import { AnyObject, Body, Nullable, OneOf, Page, PageQuery, QueuedTask } from './common.ts';

const tag = 'sources';
const SourceId = Type.Object({ source_id: Type.String() });
const Timestamp = Nullable(Type.String());

/** Here an extraction "chunk" is one extraction group (a few consecutive chunks sent to the model together). */
const ExtractionProgress = Type.Object({
  source_id: Type.String(),
  job_id: Nullable(Type.String()),
  status: Type.String(),
  has_extraction_job: Type.Boolean(),
  message: Type.Optional(Type.String()),
  total_chunks: Type.Optional(Type.Integer()),
  completed_chunks: Type.Optional(Type.Integer()),
  failed_chunks: Type.Optional(Type.Integer()),
  progress_percent: Type.Optional(Type.Number()),
  chunks_by_status: Type.Optional(Type.Record(Type.String(), Type.Integer())),
  total_entities: Type.Optional(Type.Integer()),
  total_relationships: Type.Optional(Type.Integer()),
  extraction_depth: Type.Optional(Type.String()),
  domain: Type.Optional(Type.String()),
  started_at: Type.Optional(Timestamp),
  completed_at: Type.Optional(Timestamp),
  timing: Type.Optional(
    Type.Object({
      avg_duration_ms: Nullable(Type.Number()),
      min_duration_ms: Nullable(Type.Number()),
      max_duration_ms: Nullable(Type.Number()),
    }),
  ),
  current_chunk: Type.Optional(
    Nullable(Type.Object({ chunk_index: Type.Integer(), status: Type.String(), started_at: Timestamp })),
  ),
  estimated_tokens: Type.Optional(Type.Integer()),
  estimated_cost_usd: Type.Optional(Nullable(Type.Number())),
  error_message: Type.Optional(Nullable(Type.String())),
  stats: Type.Optional(Nullable(AnyObject)),
});
export type ExtractionProgressBody = Static<typeof ExtractionProgress>;

const ExtractionTask = Type.Object({
  group_index: Type.Integer(),
  first_chunk_index: Type.Integer(),
  last_chunk_index: Type.Integer(),
  status: Type.String(),
  task_id: Nullable(Type.String()),
  attempts: Type.Integer(),
  entity_count: Nullable(Type.Integer()),
  relationship_count: Nullable(Type.Integer()),
  error_message: Nullable(Type.String()),
  started_at: Timestamp,
  completed_at: Timestamp,
  duration_ms: Nullable(Type.Integer()),
});

const RunOptions = {
  analysis_depth: Type.Optional(OneOf(['full', 'quick'] as const)),
  domain: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  filtering_mode: Type.Optional(Nullable(OneOf(filteringModes))),
  content_filtering: Type.Optional(Type.Boolean()),
  enable_vision: Type.Optional(Nullable(Type.Boolean())),
};

const BulkProgress = Type.Object({
  task_id: Type.String(),
  task_status: Type.String(),
  total: Type.Integer({
    description: 'Sources the run extracts (those it skipped left out once it has finished starting them)',
  }),
  not_started: Type.Integer(),
  in_progress: Type.Integer(),
  completed: Type.Integer(),
  failed: Type.Integer(),
  cancelled: Type.Integer(),
  progress_percent: Type.Number(),
  failures: Type.Array(Type.Object({ source_id: Type.String(), error: Nullable(Type.String()) })),
  skipped: Type.Array(Type.Object({ source_id: Type.String(), reason: Type.String() })),
});
export type BulkExtractionProgressBody = Static<typeof BulkProgress>;

const ChunkParams = Type.Object({ source_id: Type.String(), chunk_index: Type.Integer({ minimum: 0 }) });
const AttemptSummary = Type.Object({
  id: Type.String(),
  source_id: Type.String(),
  job_id: Type.String(),
  group_index: Type.Integer(),
  attempt_number: Type.Integer(),
  first_chunk_index: Type.Integer(),
  last_chunk_index: Type.Integer(),
  task_id: Nullable(Type.String()),
  status: OneOf(['completed', 'failed', 'cancelled'] as const),
  provider: Nullable(Type.String()),
  model: Nullable(Type.String()),
  entity_count: Type.Integer(),
  relationship_count: Type.Integer(),
  dropped_count: Type.Integer(),
  input_tokens: Type.Integer(),
  output_tokens: Type.Integer(),
  llm_duration_ms: Type.Integer(),
  input_text_length: Type.Integer(),
  llm_response_length: Type.Integer(),
  finish_reason: Nullable(Type.String()),
  aborted_by_loop: Nullable(Type.String({ description: 'The loop guard that cut an answer short' })),
  error_message: Nullable(Type.String()),
  error_type: Nullable(Type.String()),
  started_at: Type.String(),
  completed_at: Type.String(),
});
export type AttemptSummaryBody = Static<typeof AttemptSummary>;
const DroppedItem = Type.Object({
  stage: OneOf([
    'content_filter',
    'parser',
    'loop_guard',
    'evidence',
    'exclusion',
    'plausibility',
    'edge_type',
  ] as const),
  kind: OneOf(['chunk', 'line', 'entity', 'relationship'] as const),
  item: Type.String(),
  reason: Type.String(),
});
export type DroppedItemBody = Static<typeof DroppedItem>;
const AttemptCall = Type.Object({
  pass: OneOf(['entities', 'relationships'] as const),
  system_prompt: Type.String(),
  user_prompt: Type.String(),
  raw_output: Type.String(),
  finish_reason: Nullable(Type.String()),
  model: Nullable(Type.String()),
  input_tokens: Type.Integer(),
  output_tokens: Type.Integer(),
  duration_ms: Type.Integer(),
  tripped_by: Nullable(Type.String()),
});
const AttemptDetail = Type.Composite([
  AttemptSummary,
  Type.Object({
    calls: Type.Array(AttemptCall),
    raw_entities: Type.Array(AnyObject),
    raw_relationships: Type.Array(AnyObject),
    dropped: Type.Array(DroppedItem, { description: 'At most 500 kept; dropped_count counts all' }),
  }),
]);
export type AttemptDetailBody = Static<typeof AttemptDetail>;
const Model = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Another model for this re-run (of the provider given, else of the configured one)',
  }),
);
const Provider = Type.Optional(
  Type.Unsafe<ChatProvider>({
    type: 'string',
    enum: [...chatProviders],
    description: 'Another provider for this re-run (its configured model unless model is given)',
  }),
);
const QueuedRerun = Type.Object({
  chunk_index: Type.Integer(),
  queue_task_id: Type.String(),
  attempt_number: Type.Integer({ description: 'The number the re-run attempt will have' }),
});
const RerunResult = Type.Object({
  source_id: Type.String(),
  job_id: Type.String(),
  source_status: Type.String(),
  reruns: Type.Array(QueuedRerun),
});
export type RerunResultBody = Static<typeof RerunResult>;
const FilteringLog = Type.Object({
  source_id: Type.String(),
  job_id: Type.String(),
  by_stage: Type.Record(Type.String(), Type.Integer()),
  groups: Type.Array(
    Type.Object({
      chunk_index: Type.Integer(),
      attempt_id: Type.String(),
      first_chunk_index: Type.Integer(),
      last_chunk_index: Type.Integer(),
      dropped_count: Type.Integer(),
      dropped: Type.Array(DroppedItem),
    }),
  ),
  finalize: Nullable(Type.Record(Type.String(), Type.Number())),
});
export type FilteringLogBody = Static<typeof FilteringLog>;
const minMaxAvg = <N extends string>(name: N) =>
  ({
    [`min_${name}`]: Type.Number(),
    [`max_${name}`]: Type.Number(),
    [`avg_${name}`]: Type.Number(),
  }) as Record<`min_${N}` | `max_${N}` | `avg_${N}`, TNumber>;
const NamedTemplate = Type.Object({ name: Type.String(), description: Type.String() });
const ExtractionStats = Type.Object({
  source_id: Type.String(),
  job_id: Type.String(),
  domain: Type.String(),
  total_tasks: Type.Integer(),
  context_window: Type.Integer(),
  ...minMaxAvg('input_tokens'),
  ...minMaxAvg('output_tokens'),
  ...minMaxAvg('total_tokens'),
  ...minMaxAvg('utilization'),
  ...minMaxAvg('duration_ms'),
  total_entities: Type.Integer(),
  avg_entities_per_task: Type.Number(),
  total_relationships: Type.Integer(),
  avg_relationships_per_task: Type.Number(),
  total_retries: Type.Integer(),
  max_retries_single_task: Type.Integer(),
  total_invalid_relationships: Type.Integer(),
  avg_invalid_per_task: Type.Number(),
  total_entities_filtered: Type.Integer(),
  total_relationships_filtered: Type.Integer(),
  filtering_stage_summary: Type.Array(Type.Object({ stage: Type.String(), count: Type.Integer() })),
  system_prompt: Type.String(),
  extraction_rules_template: Type.Optional(Type.String({ description: "The entity pass's prompt, without sentences" })),
  relationship_instructions: Type.Optional(
    Type.String({ description: "The relationship pass's prompt, without sentences or entities" }),
  ),
  entity_templates: Type.Optional(Type.Array(NamedTemplate)),
  relationship_templates: Type.Optional(Type.Array(NamedTemplate)),
  domain_guidance: Type.Optional(Type.String()),
  relationship_guidance: Type.Optional(Type.String()),
  domain_examples: Type.Optional(Type.Array(Type.String())),
});
export type ExtractionStatsBody = Static<typeof ExtractionStats>;
const ChartPoint = Type.Object({
  id: Type.String(),
  chunk_index: Type.Integer(),
  status: Type.String(),
  retry_count: Type.Integer(),
  entity_count: Type.Integer(),
  relationship_count: Type.Integer(),
  invalid_relationship_count: Type.Integer(),
  input_text_length: Type.Integer(),
  input_tokens: Type.Integer(),
  output_tokens: Type.Integer(),
  llm_duration_ms: Type.Integer(),
  completed_at: Type.String(),
});
export type ChartPointBody = Static<typeof ChartPoint>;
const LlmCall = Type.Object({
  id: Type.Integer(),
  database_name: Type.String(),
  source_id: Type.String(),
  chunk_task_id: Nullable(Type.String()),
  operation_type: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  input_tokens: Type.Integer(),
  output_tokens: Type.Integer(),
  duration_ms: Type.Number(),
  started_at: Type.String(),
  success: Type.Boolean(),
  error_type: Nullable(Type.String()),
  was_retry: Type.Boolean(),
  chunk_index: Nullable(Type.Integer()),
  chunk_size_chars: Nullable(Type.Integer()),
  entities_extracted: Nullable(Type.Integer()),
  relationships_extracted: Nullable(Type.Integer()),
  created_at: Type.String(),
});
export type LlmCallBody = Static<typeof LlmCall>;
const RecoveryEvent = Type.Object({
  id: Type.Integer(),
  source_id: Type.String(),
  database_name: Type.String(),
  attempt_at: Type.String(),
  from_status: Type.String(),
  action_taken: Type.String({
    description: 'index_document, extract_chunk, finalize_extraction or settle_status (no task queued)',
  }),
  reason: Type.String(),
  enqueued_count: Type.Integer(),
  detail: Nullable(Type.String()),
});
export type RecoveryEventBody = Static<typeof RecoveryEvent>;

export const extractionEndpoints = {
  start: endpoint({
    method: 'POST',
    path: '/sources/{source_id}/extraction',
    tag,
    status: 202,
    errors: [400, 404, 409, 422],
    summary:
      'Extract entities and relationships from an indexed or extracted source. force restarts a running extraction, and re-extracts a committed source (or one whose extraction failed): what it contributed to the graph is replaced when the new extraction commits, and stays until then. A source whose domain was never chosen waits at the confirmation gate first (status awaiting_confirmation, no job yet)',
    params: SourceId,
    body: Body({ ...RunOptions, force: Type.Optional(Type.Boolean({ default: false })) }),
    response: Type.Object({
      source_id: Type.String(),
      job_id: Nullable(Type.String()),
      status: OneOf(['queued', 'awaiting_confirmation'] as const),
      message: Type.String(),
    }),
  }),
  bulkStart: endpoint({
    method: 'POST',
    path: '/sources/extraction',
    tag,
    status: 202,
    errors: [400, 404, 409, 422],
    summary:
      'Re-extract many sources as queued work, for instance after switching to another model: by source_ids, or all (every committed or extracted source and every one whose extraction failed). Each source is replaced in the graph only when its new extraction commits. Running extractions are refused (by id) or skipped (all) unless force. Follow it with GET /sources/extraction/{task_id}',
    body: Body({
      source_ids: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 100_000 })),
      all: Type.Optional(Type.Boolean()),
      force: Type.Optional(Type.Boolean({ default: false })),
      ...RunOptions,
    }),
    response: Type.Intersect([QueuedTask, Type.Object({ total: Type.Integer() })]),
  }),
  bulkProgress: endpoint({
    method: 'GET',
    path: '/sources/extraction/{task_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'Progress of a bulk extraction: its sources by the state of the extraction it started',
    params: Type.Object({ task_id: Type.String() }),
    response: BulkProgress,
  }),
  progress: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/extraction',
    tag,
    status: 200,
    errors: [404],
    summary: "Progress of the source's extraction",
    params: SourceId,
    response: ExtractionProgress,
  }),
  cancel: endpoint({
    method: 'DELETE',
    path: '/sources/{source_id}/extraction',
    tag,
    status: 204,
    errors: [404],
    summary: 'Cancel the pending and queued groups of a running extraction; the source returns to indexed',
    params: SourceId,
  }),
  tasks: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/extraction/tasks',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      'Per-group status, attempts, entity and relationship counts and errors of the latest extraction: a page under `data`, and the same page as `tasks` with `total`, `page` and `page_size`',
    params: SourceId,
    query: Type.Object(PageQuery),
    response: Type.Composite([
      Page(ExtractionTask),
      Type.Object({
        tasks: Type.Array(ExtractionTask),
        total: Type.Integer(),
        page: Type.Integer(),
        page_size: Type.Integer(),
      }),
    ]),
  }),
  attempts: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/chunks/{chunk_index}/attempts',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      'Every extraction attempt of one extraction chunk (group) of the source, over all its runs, newest first: tokens, time, counts, why an answer ended',
    params: ChunkParams,
    response: Type.Object({ data: Type.Array(AttemptSummary) }),
  }),
  attempt: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/chunks/{chunk_index}/attempts/{attempt_id}',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      'One attempt with each model call (system and user prompt, raw answer), the parsed entities and relationships, and what the filters and guards dropped with the reason',
    params: Type.Object({
      source_id: Type.String(),
      chunk_index: Type.Integer({ minimum: 0 }),
      attempt_id: Type.String(),
    }),
    response: AttemptDetail,
  }),
  rerun: endpoint({
    method: 'POST',
    path: '/sources/{source_id}/chunks/{chunk_index}/rerun',
    tag,
    status: 202,
    errors: [400, 404, 409, 422, 503],
    summary:
      "Extract one chunk (group) again, optionally with another provider or model: when it ends the source is finalised and committed again, the other chunks' results unchanged. 409 while the extraction finalises or commits, or the chunk is still running",
    params: ChunkParams,
    body: Body({ provider: Provider, model: Model }),
    response: RerunResult,
  }),
  rerunMany: endpoint({
    method: 'POST',
    path: '/sources/{source_id}/chunks/rerun',
    tag,
    status: 202,
    errors: [400, 404, 409, 422, 503],
    summary:
      'Extract several chunks (groups) again at once, optionally with another provider or model; as the single re-run',
    params: SourceId,
    body: Body({
      chunk_indexes: Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1, maxItems: 1000 }),
      provider: Provider,
      model: Model,
    }),
    response: RerunResult,
  }),
  filteringLog: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/extraction/filteringlog',
    tag,
    status: 200,
    errors: [404],
    summary:
      "What the current run dropped: per chunk (its latest attempt's dropped items with the reason, counted by stage) and source-wide at finalisation (merges, caps, orphans). 404 without a run",
    params: SourceId,
    response: FilteringLog,
  }),
  stats: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/extraction/stats',
    tag,
    status: 200,
    errors: [404],
    summary:
      "Token, context-use, time and yield statistics over the current run's latest attempts, and the prompts the extractor builds from the run's domain (read-only). 404 without a run",
    params: SourceId,
    response: ExtractionStats,
  }),
  charts: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/extraction/charts',
    tag,
    status: 200,
    errors: [404],
    summary: 'One point per chunk (group) of the current run, from its latest attempt; empty without a run',
    params: SourceId,
    response: Type.Array(ChartPoint),
  }),
  llmMetrics: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/llm_metrics',
    tag,
    status: 200,
    errors: [404],
    summary: "The source's model use: calls, failures, tokens and time",
    params: SourceId,
    response: Type.Object({
      source_id: Type.String(),
      has_metrics: Type.Boolean(),
      summary: Type.Object({
        total_calls: Type.Integer(),
        successful_calls: Type.Integer(),
        failed_calls: Type.Integer(),
        total_input_tokens: Type.Integer(),
        total_output_tokens: Type.Integer(),
        total_duration_ms: Type.Number(),
        avg_call_duration_ms: Type.Number(),
        success_rate: Type.Number(),
      }),
    }),
  }),
  llmCalls: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/llm_metrics/calls',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      "The source's model and embedding calls, newest first, each with the chunk (group) its task extracted when it extracted one",
    params: SourceId,
    query: Type.Object({ ...PageQuery, success: Type.Optional(Type.Boolean()) }),
    response: Type.Object({ calls: Type.Array(LlmCall), pagination: Page(LlmCall).properties.pagination }),
  }),
  recoveryEvents: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/recovery_events',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'What the recovery scan did to the source (what it queued again, and why), newest first',
    params: SourceId,
    query: Type.Object(PageQuery),
    response: Page(RecoveryEvent),
  }),
};
