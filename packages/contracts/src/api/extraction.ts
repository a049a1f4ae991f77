import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { filteringModes } from '../settings.ts';
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
};
