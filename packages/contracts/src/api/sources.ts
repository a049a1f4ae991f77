import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { filteringModes } from '../settings.ts';
import { AnyObject, Body, Nullable, OneOf, Page, PageQuery } from './common.ts';

const tag = 'sources';

export const sourceStatuses = [
  'pending', 'indexing', 'vision_pending', 'indexed', 'awaiting_confirmation', 'extracting', 'mcp_extracting', 'extracted', 'committing', 'committed', 'error',
] as const;
export type SourceStatus = (typeof sourceStatuses)[number];
export const errorStages = ['indexing', 'extraction', 'commit', 'url_fetch', 'recovery_exhausted'] as const;

const NullableBool = Nullable(Type.Boolean());
const SourceId = Type.Object({ source_id: Type.String() });

/** Spec Part C upload parameters; multipart fields arrive as strings and are coerced. */
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
  id: Type.String(), title: Nullable(Type.String()), filename: Nullable(Type.String()), file_type: Nullable(Type.String()), file_size: Nullable(Type.Integer()),
  content_type: Nullable(Type.String()), content_hash: Nullable(Type.String()),
  status: OneOf(sourceStatuses), enabled: Type.Boolean(), paused: Type.Boolean(),
  progress: OneOf(['waiting_to_index', 'indexing', 'awaiting_input', 'extracting', 'ready'] as const),
  source_type: Type.String(), origin_url: Nullable(Type.String()),
  extraction_depth: OneOf(['full', 'quick'] as const), extract_entities: Type.Boolean(),
  forced_domain: Nullable(Type.String()), extraction_domain: Nullable(Type.String()), auto_confirm: Type.Boolean(),
  enable_normalization: NullableBool, enable_vision: NullableBool, content_filtering: Type.Boolean(), filtering_mode: Nullable(Type.String()),
  enable_direction_correction: NullableBool, protect_orphans: NullableBool, enable_inverse_relationships: NullableBool,
  max_entity_degree_override: Nullable(Type.Integer()),
  detection_proposal: Nullable(AnyObject), extraction_confirmed_at: Timestamp,
  current_step: Nullable(Type.String()), step_description: Nullable(Type.String()),
  error_stage: Nullable(Type.String()), error_message: Nullable(Type.String()),
  chunk_count: Type.Integer(), embedded_chunk_count: Type.Integer(), embedding_model: Nullable(Type.String()), embedding_dimensions: Nullable(Type.Integer()),
  indexing_started_at: Timestamp, indexing_completed_at: Timestamp, extraction_started_at: Timestamp, extraction_completed_at: Timestamp,
  commit_started_at: Timestamp, commit_completed_at: Timestamp, index_timings: Nullable(AnyObject), loader_warnings: Type.Array(Type.String()),
  llm_total_calls: Type.Integer(), llm_failed_calls: Type.Integer(), llm_total_input_tokens: Type.Integer(), llm_total_output_tokens: Type.Integer(), llm_total_duration_ms: Type.Number(),
  extraction_entities_count: Type.Integer(), extraction_relationships_count: Type.Integer(),
  cached_quality_grade: Nullable(Type.String({ description: 'Label of the cached quality grade (Outstanding … Low); null until scored' })),
  cached_quality_score: Nullable(Type.Number({ description: 'The cached quality grade, 0-100' })),
  extraction_job_id: Nullable(Type.String()), estimated_tokens: Nullable(Type.Integer()), estimated_cost_usd: Nullable(Type.Number()),
  tags: Type.Array(SourceTag), user_metadata: AnyObject, created_at: Type.String(), updated_at: Type.String(),
});
export type SourceResponseBody = Static<typeof SourceResponse>;

const Chunk = Type.Object({
  id: Type.String(), source_id: Type.String(), chunk_index: Type.Integer(), content: Type.String(), page_number: Nullable(Type.Integer()), section: Nullable(Type.String()),
  start_offset: Nullable(Type.Integer()), end_offset: Nullable(Type.Integer()), original_start: Nullable(Type.Integer()), original_end: Nullable(Type.Integer()),
  offset_match: Nullable(Type.String()), token_estimate: Nullable(Type.Integer()), created_at: Type.String(),
});
const ChunkParams = Type.Object({ source_id: Type.String(), chunk_id: Type.String() });
const TagBody = { name: Type.String({ minLength: 1, maxLength: 64 }), color: Type.Optional(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }))) };
const TagParams = Type.Object({ tag_id: Type.String() });
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
  source_id: Type.String(), status: Type.String(), confirmed: Type.Boolean(), domain: Nullable(Type.String()),
  message: Type.String(),
});

export const sourceEndpoints = {
  upload: endpoint({
    method: 'POST', path: '/sources', tag, status: 202, errors: [400, 413, 422], consumes: 'multipart/form-data', files: { field: 'file', multiple: false },
    summary: 'Upload one file; it is indexed in the background', body: UploadForm, response: SourceResponse,
  }),
  uploadBatch: endpoint({
    method: 'POST', path: '/sources/batch', tag, status: 202, errors: [400, 413, 422], consumes: 'multipart/form-data', files: { field: 'files', multiple: true },
    summary: 'Upload several files (at most batching.max_upload_files); per-file errors are reported', body: UploadForm,
    response: Type.Object({ uploaded: Type.Integer(), failed: Type.Integer(), files: Type.Array(SourceResponse), errors: Type.Array(Type.Object({ filename: Type.String(), error: Type.String() })) }),
  }),
  importUrl: endpoint({
    method: 'POST', path: '/sources/url', tag, status: 202, errors: [400, 422], summary: 'Import a web page (or a file at a URL)',
    body: Body({ url: Type.String({ minLength: 1, maxLength: 8192 }), ...UploadOptions }), response: SourceResponse,
  }),
  list: endpoint({
    method: 'GET', path: '/sources', tag, status: 200, errors: [422], summary: 'Sources, newest first',
    query: Type.Object({
      ...PageQuery, source_type: Type.Optional(Type.String()), status: Type.Optional(OneOf(sourceStatuses)),
      enabled: Type.Optional(OneOf(['enabled', 'disabled'] as const)), search: Type.Optional(Type.String({ maxLength: 500 })), tag_id: Type.Optional(Type.String()),
    }),
    response: Page(SourceResponse),
  }),
  domains: endpoint({
    method: 'GET', path: '/sources/domains', tag, status: 200, summary: 'Built-in and custom extraction domains',
    response: Type.Object({ domains: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), builtin: Type.Boolean(), extraction_density: Type.Number(), prompt_tokens: Type.Integer() })) }),
  }),
  stats: endpoint({
    method: 'GET', path: '/sources/stats', tag, status: 200, summary: 'Counts over all sources',
    response: Type.Object({ total_files: Type.Integer(), by_status: Type.Record(Type.String(), Type.Integer()), total_chunks: Type.Integer(), total_entities: Type.Integer(), total_relationships: Type.Integer() }),
  }),
  confirmMany: endpoint({
    method: 'POST', path: '/sources/confirmation', tag, status: 200, errors: [422], summary: 'Confirm the detected (or given) domain of several parked sources',
    body: Body({ source_ids: Type.Array(Type.String(), { minItems: 1, maxItems: 500 }), ...ConfirmationOptions }),
    response: Type.Object({ confirmed: Type.Integer(), results: Type.Array(Type.Object({ source_id: Type.String(), success: Type.Boolean(), status: Nullable(Type.String()), error: Nullable(Type.String()) })) }),
  }),
  listTags: endpoint({ method: 'GET', path: '/sources/tags', tag, status: 200, summary: 'Source tags with how many sources carry each', response: Type.Object({ tags: Type.Array(Type.Intersect([SourceTag, Type.Object({ source_count: Type.Integer() })])) }) }),
  createTag: endpoint({ method: 'POST', path: '/sources/tags', tag, status: 201, errors: [409, 422], summary: 'Create a source tag', body: Body(TagBody), response: SourceTag }),
  updateTag: endpoint({
    method: 'PATCH', path: '/sources/tags/{tag_id}', tag, status: 200, errors: [404, 409, 422], summary: 'Rename or recolour a tag', params: TagParams,
    body: Body({ name: Type.Optional(TagBody.name), color: TagBody.color }), response: SourceTag,
  }),
  deleteTag: endpoint({ method: 'DELETE', path: '/sources/tags/{tag_id}', tag, status: 204, errors: [404], summary: 'Delete a tag (sources keep everything else)', params: TagParams }),
  get: endpoint({ method: 'GET', path: '/sources/{source_id}', tag, status: 200, errors: [404], summary: 'One source', params: SourceId, response: SourceResponse }),
  patch: endpoint({
    method: 'PATCH', path: '/sources/{source_id}', tag, status: 200, errors: [404, 422], summary: 'Rename, enable/disable, set user metadata or force a status', params: SourceId,
    body: Body({
      title: Type.Optional(Nullable(Type.String({ maxLength: 500 }))), processing_status: Type.Optional(OneOf(['ready', 'error'] as const)),
      enabled: Type.Optional(Type.Boolean()), user_metadata: Type.Optional(AnyObject),
    }),
    response: SourceResponse,
  }),
  delete: endpoint({ method: 'DELETE', path: '/sources/{source_id}', tag, status: 204, errors: [404], summary: 'Delete a source with its chunks, citations, nodes, edges and index entries', params: SourceId }),
  confirm: endpoint({
    method: 'POST', path: '/sources/{source_id}/confirmation', tag, status: 200, errors: [404, 409, 422], params: SourceId,
    summary: 'Confirm the domain of a parked source (it moves to indexed); before the gate the choice is recorded; a repeat is 409',
    body: Body(ConfirmationOptions), response: ConfirmationResult,
  }),
  chunks: endpoint({
    method: 'GET', path: '/sources/{source_id}/chunks', tag, status: 200, errors: [404, 422], summary: 'The chunks of a source in order', params: SourceId,
    query: Type.Object(PageQuery), response: Page(Chunk),
  }),
  chunk: endpoint({ method: 'GET', path: '/sources/{source_id}/chunks/{chunk_id}', tag, status: 200, errors: [404], summary: 'One chunk', params: ChunkParams, response: Chunk }),
  sourceStats: endpoint({
    method: 'GET', path: '/sources/{source_id}/stats', tag, status: 200, errors: [404], summary: 'Chunk, entity, relationship and model-call counts and timings of a source', params: SourceId,
    response: Type.Object({
      source_id: Type.String(), chunk_count: Type.Integer(), embedded_chunk_count: Type.Integer(), entity_count: Type.Integer(), relationship_count: Type.Integer(), citation_count: Type.Integer(),
      index_timings: Nullable(AnyObject), llm: Type.Object({ calls: Type.Integer(), failed_calls: Type.Integer(), input_tokens: Type.Integer(), output_tokens: Type.Integer(), duration_ms: Type.Number() }),
    }),
  }),
  original: endpoint({ method: 'GET', path: '/sources/{source_id}/original', tag, status: 200, errors: [404], produces: 'application/octet-stream', summary: 'Download the uploaded file', params: SourceId }),
  stopProcessing: endpoint({
    method: 'DELETE', path: '/sources/{source_id}/processing', tag, status: 200, errors: [404], params: SourceId,
    summary: 'Stop all processing of a source (its queued and running tasks) and leave it resumable',
    response: Type.Object({ source_id: Type.String(), cancelled_tasks: Type.Integer(), status: Type.String() }),
  }),
  sourceTags: endpoint({ method: 'GET', path: '/sources/{source_id}/tags', tag, status: 200, errors: [404], summary: 'Tags of a source', params: SourceId, response: Type.Object({ tags: Type.Array(SourceTag) }) }),
  addTag: endpoint({ method: 'POST', path: '/sources/{source_id}/tags/{tag_id}', tag, status: 200, errors: [404], summary: 'Tag a source', params: SourceTagParams, response: Type.Object({ tags: Type.Array(SourceTag) }) }),
  removeTag: endpoint({ method: 'DELETE', path: '/sources/{source_id}/tags/{tag_id}', tag, status: 200, errors: [404], summary: 'Untag a source', params: SourceTagParams, response: Type.Object({ tags: Type.Array(SourceTag) }) }),
};
