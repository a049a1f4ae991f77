import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { filteringModes } from '../settings.ts';
import { AnyObject, Body, Nullable, OneOf, Page, PageQuery } from './common.ts';

const tag = 'sources';

export const sourceStatuses = [
  'pending',
  'indexing',
  'vision_pending',
  'indexed',
  'awaiting_confirmation',
  'extracting',
  'mcp_extracting',
  'extracted',
  'committing',
  'committed',
  'error',
] as const;
export type SourceStatus = (typeof sourceStatuses)[number];
export const errorStages = ['indexing', 'extraction', 'commit', 'url_fetch', 'recovery_exhausted'] as const;

const NullableBool = Nullable(Type.Boolean());
const SourceId = Type.Object({ source_id: Type.String() });

/** Upload parameters; multipart fields arrive as strings and are coerced. */
export const UploadOptions = {
  extract_entities: Type.Optional(Type.Boolean({ default: true })),
  analysis_depth: Type.Optional(OneOf(['full', 'quick'] as const)),
  domain: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  auto_confirm: Type.Optional(Type.Boolean({ default: false })),
  enable_normalization: Type.Optional(NullableBool),
  enable_vision: Type.Optional(NullableBool),
  content_filtering: Type.Optional(Type.Boolean({ default: true })),
  filtering_mode: Type.Optional(Nullable(OneOf(filteringModes))),
  skip_duplicates: Type.Optional(Type.Boolean({ default: false })),
  enable_direction_correction: Type.Optional(NullableBool),
  protect_orphans: Type.Optional(NullableBool),
  enable_inverse_relationships: Type.Optional(NullableBool),
  max_entity_degree_override: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
};
const UploadForm = Type.Object(UploadOptions);
export type UploadOptionsInput = Static<typeof UploadForm>;

const SourceTag = Type.Object({ id: Type.String(), name: Type.String(), color: Nullable(Type.String()) });
const Timestamp = Nullable(Type.String());

export const SourceResponse = Type.Object({
  id: Type.String(),
  title: Nullable(Type.String()),
  filename: Nullable(Type.String()),
  file_type: Nullable(Type.String()),
  file_size: Nullable(Type.Integer()),
  content_type: Nullable(Type.String()),
  content_hash: Nullable(Type.String()),
  status: OneOf(sourceStatuses),
  enabled: Type.Boolean(),
  paused: Type.Boolean(),
  progress: OneOf(['waiting_to_index', 'indexing', 'awaiting_input', 'extracting', 'ready'] as const),
  source_type: Type.String(),
  origin_url: Nullable(Type.String()),
  extraction_depth: OneOf(['full', 'quick'] as const),
  extract_entities: Type.Boolean(),
  forced_domain: Nullable(Type.String()),
  extraction_domain: Nullable(Type.String()),
  auto_confirm: Type.Boolean(),
  enable_normalization: NullableBool,
  enable_vision: NullableBool,
  content_filtering: Type.Boolean(),
  filtering_mode: Nullable(Type.String()),
  enable_direction_correction: NullableBool,
  protect_orphans: NullableBool,
  enable_inverse_relationships: NullableBool,
  max_entity_degree_override: Nullable(Type.Integer()),
  detection_proposal: Nullable(AnyObject),
  extraction_confirmed_at: Timestamp,
  current_step: Nullable(Type.String()),
  step_description: Nullable(Type.String()),
  error_stage: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  chunk_count: Type.Integer(),
  embedded_chunk_count: Type.Integer(),
  embedding_model: Nullable(Type.String()),
  embedding_dimensions: Nullable(Type.Integer()),
  indexing_started_at: Timestamp,
  indexing_completed_at: Timestamp,
  extraction_started_at: Timestamp,
  extraction_completed_at: Timestamp,
  commit_started_at: Timestamp,
  commit_completed_at: Timestamp,
  index_timings: Nullable(AnyObject),
  loader_warnings: Type.Array(Type.String()),
  llm_total_calls: Type.Integer(),
  llm_failed_calls: Type.Integer(),
  llm_total_input_tokens: Type.Integer(),
  llm_total_output_tokens: Type.Integer(),
  llm_total_duration_ms: Type.Number(),
  extraction_entities_count: Type.Integer(),
  extraction_relationships_count: Type.Integer(),
  cached_quality_grade: Nullable(
    Type.String({ description: 'Label of the cached quality grade (Outstanding … Low); null until scored' }),
  ),
  cached_quality_score: Nullable(Type.Number({ description: 'The cached quality grade, 0-100' })),
  extraction_job_id: Nullable(Type.String()),
  estimated_tokens: Nullable(Type.Integer()),
  estimated_cost_usd: Nullable(Type.Number()),
  tags: Type.Array(SourceTag),
  user_metadata: AnyObject,
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type SourceResponseBody = Static<typeof SourceResponse>;

const Chunk = Type.Object({
  id: Type.String(),
  source_id: Type.String(),
  chunk_index: Type.Integer(),
  content: Type.String(),
  page_number: Nullable(Type.Integer()),
  section: Nullable(Type.String()),
  start_offset: Nullable(Type.Integer()),
  end_offset: Nullable(Type.Integer()),
  original_start: Nullable(Type.Integer()),
  original_end: Nullable(Type.Integer()),
  offset_match: Nullable(Type.String()),
  token_estimate: Nullable(Type.Integer()),
  created_at: Type.String(),
});
const ChunkParams = Type.Object({ source_id: Type.String(), chunk_id: Type.String() });
const TagBody = {
  name: Type.String({ minLength: 1, maxLength: 64 }),
  color: Type.Optional(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
};
const Tag = Type.Object({
  id: Type.String(),
  database_name: Type.String(),
  name: Type.String(),
  color: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: Type.String(),
});
export type TagBody = Static<typeof Tag>;
const CountedTag = Type.Intersect([Tag, Type.Object({ source_count: Type.Integer() })]);
const TagParams = Type.Object({ tag_id: Type.String() });
const SourceCitation = Type.Object({
  id: Type.String(),
  entity_uri: Type.String(),
  entity_label: Type.String(),
  entity_type: Type.String(),
  source_id: Type.String(),
  chunk_id: Nullable(Type.String()),
  confidence: Type.Number(),
  extraction_method: Type.String(),
  context_snippet: Nullable(Type.String()),
  created_at: Type.String(),
});
const SourceTagParams = Type.Object({ source_id: Type.String(), tag_id: Type.String() });
const ConfirmationOptions = {
  domain: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  analysis_depth: Type.Optional(OneOf(['full', 'quick'] as const)),
  filtering_mode: Type.Optional(Nullable(OneOf(filteringModes))),
  content_filtering: Type.Optional(Type.Boolean()),
  enable_direction_correction: Type.Optional(NullableBool),
  protect_orphans: Type.Optional(NullableBool),
  enable_inverse_relationships: Type.Optional(NullableBool),
  max_entity_degree_override: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
};
const ConfirmationResult = Type.Object({
  source_id: Type.String(),
  status: Type.String(),
  confirmed: Type.Boolean(),
  domain: Nullable(Type.String()),
  message: Type.String(),
});

/** What narrows the source list; a bulk job given a filter acts on every source it matches. */
const sourceListFilter = {
  source_type: Type.Optional(Type.String()),
  status: Type.Optional(OneOf(sourceStatuses)),
  enabled: Type.Optional(OneOf(['enabled', 'disabled'] as const)),
  search: Type.Optional(Type.String({ maxLength: 500 })),
  tag_id: Type.Optional(Type.String()),
};

/** The most sources one bulk job is given by id (a filter may match more). */
export const sourceBulkJobMax = 100_000;

const SourceBulkJob = Type.Object({
  job_id: Type.String(),
  task_id: Nullable(Type.String()),
  action: Type.String(),
  tag_id: Nullable(Type.String()),
  status: OneOf(['queued', 'running', 'completed', 'failed', 'cancelled'] as const),
  total: Type.Integer(),
  processed: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  failures: Type.Array(Type.Object({ index: Type.Integer(), id: Type.String(), error: Type.String() }), {
    description: 'each source the action failed on, with the reason, in the order tried',
  }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** What POST /sources/bulk does to each source it is given. */
export const sourceBulkActions = ['delete', 'enable', 'disable', 'tag', 'untag'] as const;
export type SourceBulkAction = (typeof sourceBulkActions)[number];
/** The most sources one bulk request takes, as for the bulk pause, resume and confirmation. */
export const sourceBulkMax = 500;

export const sourceEndpoints = {
  upload: endpoint({
    method: 'POST',
    path: '/sources',
    tag,
    status: 202,
    errors: [400, 413, 422],
    consumes: 'multipart/form-data',
    files: { field: 'file', multiple: false },
    summary:
      'Upload one file; it is indexed in the background. An archive or mailbox answers with its first member, the others in `unpacked`',
    body: UploadForm,
    response: Type.Intersect([
      SourceResponse,
      Type.Object({
        unpacked: Type.Optional(
          Type.Object(
            {
              source_ids: Type.Array(Type.String()),
              errors: Type.Array(Type.Object({ filename: Type.String(), error: Type.String() })),
            },
            { description: 'An archive or mailbox: every source it became, and the members that became none' },
          ),
        ),
      }),
    ]),
  }),
  uploadBatch: endpoint({
    method: 'POST',
    path: '/sources/batch',
    tag,
    status: 202,
    errors: [400, 413, 422],
    consumes: 'multipart/form-data',
    files: { field: 'files', multiple: true },
    summary: 'Upload several files (at most batching.max_upload_files); per-file errors are reported',
    body: UploadForm,
    response: Type.Object({
      uploaded: Type.Integer(),
      failed: Type.Integer(),
      files: Type.Array(SourceResponse),
      errors: Type.Array(Type.Object({ filename: Type.String(), error: Type.String() })),
    }),
  }),
  importUrl: endpoint({
    method: 'POST',
    path: '/sources/url',
    tag,
    status: 202,
    errors: [400, 422],
    summary: 'Import a web page (or a file at a URL)',
    body: Body({ url: Type.String({ minLength: 1, maxLength: 8192 }), ...UploadOptions }),
    response: SourceResponse,
  }),
  list: endpoint({
    method: 'GET',
    path: '/sources',
    tag,
    status: 200,
    errors: [422],
    summary: 'Sources, newest first',
    query: Type.Object({ ...PageQuery, ...sourceListFilter }),
    response: Page(SourceResponse),
  }),
  domains: endpoint({
    method: 'GET',
    path: '/sources/domains',
    tag,
    status: 200,
    summary: 'Built-in and custom extraction domains',
    response: Type.Object({
      domains: Type.Array(
        Type.Object({
          name: Type.String(),
          description: Type.String(),
          builtin: Type.Boolean(),
          extraction_density: Type.Number(),
          prompt_tokens: Type.Integer(),
        }),
      ),
    }),
  }),
  stats: endpoint({
    method: 'GET',
    path: '/sources/stats',
    tag,
    status: 200,
    summary: 'Counts over all sources',
    response: Type.Object({
      total_files: Type.Integer(),
      by_status: Type.Record(Type.String(), Type.Integer()),
      total_chunks: Type.Integer(),
      total_entities: Type.Integer(),
      total_relationships: Type.Integer(),
    }),
  }),
  confirmMany: endpoint({
    method: 'POST',
    path: '/sources/confirmation',
    tag,
    status: 200,
    errors: [422],
    summary: 'Confirm the detected (or given) domain of several parked sources',
    body: Body({ source_ids: Type.Array(Type.String(), { minItems: 1, maxItems: 500 }), ...ConfirmationOptions }),
    response: Type.Object({
      confirmed: Type.Integer(),
      results: Type.Array(
        Type.Object({
          source_id: Type.String(),
          success: Type.Boolean(),
          status: Nullable(Type.String()),
          error: Nullable(Type.String()),
        }),
      ),
    }),
  }),
  bulk: endpoint({
    method: 'POST',
    path: '/sources/bulk',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      'Delete, enable, disable, tag or untag up to 500 sources at once; each source is reported on its own (a missing one fails alone), in the order given. tag and untag need tag_id; untagging a source without the tag succeeds',
    body: Body({
      action: OneOf(sourceBulkActions),
      source_ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: sourceBulkMax }),
      tag_id: Type.Optional(Type.String({ minLength: 1 })),
    }),
    response: Type.Object({
      results: Type.Array(
        Type.Object({
          index: Type.Integer(),
          operation: OneOf(sourceBulkActions),
          success: Type.Boolean(),
          id: Type.String(),
          error: Type.Optional(Type.String()),
        }),
      ),
      succeeded: Type.Integer(),
      failed: Type.Integer(),
    }),
  }),
  startBulkJob: endpoint({
    method: 'POST',
    path: '/sources/bulk-jobs',
    tag,
    status: 202,
    errors: [404, 422],
    summary:
      'Delete, enable, disable, tag or untag many sources as a queue task: the sources listed, or every one the list filter matches now. Progress and each failure with its reason are read from GET /sources/bulk-jobs/{job_id}',
    body: Body({
      action: OneOf(sourceBulkActions),
      source_ids: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: sourceBulkJobMax })),
      filter: Type.Optional(Body(sourceListFilter)),
      tag_id: Type.Optional(Type.String({ minLength: 1 })),
    }),
    response: SourceBulkJob,
  }),
  bulkJob: endpoint({
    method: 'GET',
    path: '/sources/bulk-jobs/{job_id}',
    tag,
    status: 200,
    errors: [404],
    summary: "A bulk job: its task's state, how many sources were done, and each failure with its reason",
    params: Type.Object({ job_id: Type.String({ minLength: 1 }) }),
    response: SourceBulkJob,
  }),
  listTags: endpoint({
    method: 'GET',
    path: '/sources/tags',
    tag,
    status: 200,
    summary: 'Source tags, by name, with how many sources carry each',
    response: Type.Array(CountedTag),
  }),
  createTag: endpoint({
    method: 'POST',
    path: '/sources/tags',
    tag,
    status: 201,
    errors: [422],
    summary: 'Create a source tag; a name that exists (in any case) answers that tag instead',
    body: Body(TagBody),
    response: Tag,
  }),
  getTag: endpoint({
    method: 'GET',
    path: '/sources/tags/{tag_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One source tag with how many sources carry it',
    params: TagParams,
    response: CountedTag,
  }),
  updateTag: endpoint({
    method: 'PATCH',
    path: '/sources/tags/{tag_id}',
    tag,
    status: 200,
    errors: [404, 409, 422],
    summary: 'Rename, recolour or describe a tag',
    params: TagParams,
    body: Body({ name: Type.Optional(TagBody.name), color: TagBody.color, description: TagBody.description }),
    response: Tag,
  }),
  deleteTag: endpoint({
    method: 'DELETE',
    path: '/sources/tags/{tag_id}',
    tag,
    status: 204,
    errors: [404],
    summary: 'Delete a tag (sources keep everything else)',
    params: TagParams,
  }),
  get: endpoint({
    method: 'GET',
    path: '/sources/{source_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One source',
    params: SourceId,
    response: SourceResponse,
  }),
  patch: endpoint({
    method: 'PATCH',
    path: '/sources/{source_id}',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Rename, enable/disable, set user metadata or force a status',
    params: SourceId,
    body: Body({
      title: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
      processing_status: Type.Optional(OneOf(['ready', 'error'] as const)),
      enabled: Type.Optional(Type.Boolean()),
      user_metadata: Type.Optional(AnyObject),
    }),
    response: SourceResponse,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/sources/{source_id}',
    tag,
    status: 204,
    errors: [404],
    summary: 'Delete a source with its chunks, citations, nodes, edges and index entries',
    params: SourceId,
  }),
  confirm: endpoint({
    method: 'POST',
    path: '/sources/{source_id}/confirmation',
    tag,
    status: 200,
    errors: [404, 409, 422],
    params: SourceId,
    summary:
      'Confirm the domain of a parked source (it moves to indexed); before the gate the choice is recorded; a repeat is 409',
    body: Body(ConfirmationOptions),
    response: ConfirmationResult,
  }),
  chunks: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/chunks',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'The chunks of a source in order',
    params: SourceId,
    query: Type.Object(PageQuery),
    response: Page(Chunk),
  }),
  chunk: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/chunks/{chunk_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One chunk',
    params: ChunkParams,
    response: Chunk,
  }),
  citations: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/citations',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'The citations a source holds (entity, chunk, confidence, snippet), oldest first, a page at a time',
    params: SourceId,
    query: Type.Object(PageQuery),
    response: Type.Object({
      citations: Type.Array(SourceCitation),
      total: Type.Integer(),
      page: Type.Integer(),
      page_size: Type.Integer(),
    }),
  }),
  sourceStats: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/stats',
    tag,
    status: 200,
    errors: [404],
    summary: 'Chunk, entity, relationship and model-call counts and timings of a source',
    params: SourceId,
    response: Type.Object({
      source_id: Type.String(),
      chunk_count: Type.Integer(),
      embedded_chunk_count: Type.Integer(),
      entity_count: Type.Integer(),
      relationship_count: Type.Integer(),
      citation_count: Type.Integer(),
      index_timings: Nullable(AnyObject),
      llm: Type.Object({
        calls: Type.Integer(),
        failed_calls: Type.Integer(),
        input_tokens: Type.Integer(),
        output_tokens: Type.Integer(),
        duration_ms: Type.Number(),
      }),
    }),
  }),
  original: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/original',
    tag,
    status: 200,
    errors: [404],
    produces: 'application/octet-stream',
    summary: 'Download the uploaded file',
    params: SourceId,
  }),
  stopProcessing: endpoint({
    method: 'DELETE',
    path: '/sources/{source_id}/processing',
    tag,
    status: 200,
    errors: [404],
    params: SourceId,
    summary: 'Stop all processing of a source (its queued and running tasks) and leave it resumable',
    response: Type.Object({ source_id: Type.String(), cancelled_tasks: Type.Integer(), status: Type.String() }),
  }),
  sourceTags: endpoint({
    method: 'GET',
    path: '/sources/{source_id}/tags',
    tag,
    status: 200,
    errors: [404],
    summary: 'Tags of a source, by name',
    params: SourceId,
    response: Type.Array(Tag),
  }),
  addTag: endpoint({
    method: 'POST',
    path: '/sources/{source_id}/tags/{tag_id}',
    tag,
    status: 204,
    errors: [404],
    summary: 'Tag a source (404 SOURCE_OR_TAG_NOT_FOUND when either is unknown)',
    params: SourceTagParams,
  }),
  removeTag: endpoint({
    method: 'DELETE',
    path: '/sources/{source_id}/tags/{tag_id}',
    tag,
    status: 204,
    errors: [404],
    summary: 'Untag a source (404 when the source does not carry the tag)',
    params: SourceTagParams,
  }),
};
