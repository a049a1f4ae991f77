import { sentenceCase } from '../../lib/sentence-case.ts';

/**
 * What the settings screen says about each setting: a label a person understands, the unit its number
 * is in and, where the label alone is not enough, one line on what it does. Keys are `group.key`.
 */
export interface SettingText {
  label: string;
  /** Shown beside the number: "ms", "s", "MB"… */
  unit?: string;
  /** The stored value is this many units (bytes shown as MB: 1048576). */
  perUnit?: number;
  description?: string;
}

/** Choice values whose words are not just the value's (`openai` is "OpenAI"). */
const choiceWords: Record<string, string> = {
  builtin: 'Built-in',
  localllm: 'Local model server',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  gemini: 'Gemini',
  redis: 'Redis',
};

/** A setting's choice as the screen shows it: `round_robin` → "Round robin". */
export function choiceLabel(choice: string): string {
  return choiceWords[choice] ?? sentenceCase(choice);
}

const MB = 1024 * 1024;
const KB = 1024;

export const settingTexts: Record<string, SettingText> = {
  app_name: { label: 'Application name', description: 'Shown in the header and the browser tab.' },
  current_database: { label: 'Active database' },
  data_dir: { label: 'Data folder' },
  dark_mode: { label: 'Dark colour scheme by default' },
  auto_enable: { label: 'Use new sources right away', description: 'Processed sources start enabled for search.' },

  'local_auth.cookie_name': { label: 'Session cookie name' },
  'local_auth.cookie_ttl_seconds': { label: 'Stay signed in for', unit: 's', description: '2592000 s is 30 days.' },
  'local_auth.cookie_secure': { label: 'Send the session cookie over HTTPS only' },
  'local_auth.login_max_attempts': { label: 'Sign-in attempts allowed per window' },
  'local_auth.setup_max_attempts': { label: 'Account setup attempts allowed per window' },
  'local_auth.api_key_create_max_attempts': { label: 'API keys that may be created per window' },
  'local_auth.rate_limit_window_seconds': {
    label: 'Attempt window',
    unit: 's',
    description: 'The attempt limits above count within this time.',
  },

  'llm.chat_provider': { label: 'Chat provider' },
  'llm.localllm_instances': { label: 'Local model servers' },
  'llm.localllm_load_balancing': {
    label: 'Sharing work between local servers',
    description: 'How requests are spread when several local model servers are enabled.',
  },
  'llm.localllm_chat_model': { label: 'Local chat model' },
  'llm.localllm_extraction_model': { label: 'Local extraction model' },
  'llm.localllm_vision_model': { label: 'Local vision model', description: 'Reads images and scanned pages.' },
  'llm.localllm_num_ctx': { label: 'Local context window', unit: 'tokens' },
  'llm.localllm_num_batch': { label: 'Local prompt batch size', unit: 'tokens' },
  'llm.localllm_quick_preset': { label: 'Local model preset', description: 'The preset last applied, if any.' },
  'llm.openai_api_key': { label: 'OpenAI API key' },
  'llm.openai_base_url': { label: 'OpenAI API address' },
  'llm.openai_chat_model': { label: 'OpenAI chat model' },
  'llm.anthropic_api_key': { label: 'Anthropic API key' },
  'llm.anthropic_base_url': { label: 'Anthropic API address' },
  'llm.anthropic_chat_model': { label: 'Anthropic chat model' },
  'llm.gemini_api_key': { label: 'Gemini API key' },
  'llm.gemini_base_url': { label: 'Gemini API address' },
  'llm.gemini_chat_model': { label: 'Gemini chat model' },
  'llm.ai_context_window': { label: 'Context window', unit: 'tokens' },
  'llm.ai_max_tokens': { label: 'Longest answer', unit: 'tokens' },
  'llm.ai_temperature': {
    label: 'Chat temperature',
    description: '0 answers the same way each time; higher varies more.',
  },
  'llm.extraction_temperature': { label: 'Extraction temperature', description: 'Keep it low for consistent graphs.' },
  'llm.extraction_max_tokens': { label: 'Longest extraction reply', unit: 'tokens' },
  'llm.vision_max_tokens': { label: 'Longest image description', unit: 'tokens' },
  'llm.vision_dpi': { label: 'Page image resolution', unit: 'DPI', description: 'Used when pages are read as images.' },
  'ocr.mode': {
    label: 'Read text in images with',
    description:
      'Auto: the vision model when one is set, the offline OCR (tesseract) for a page it cannot read or when none is set. Both: the two texts, the model’s first.',
  },
  'ocr.languages': { label: 'OCR languages', description: 'Tesseract language codes joined by +, e.g. eng+deu.' },
  'ocr.max_pages': { label: 'Most scanned pages read per PDF', unit: 'pages' },
  'ocr.page_timeout_seconds': { label: 'Time allowed per scanned page', unit: 's' },
  'ocr.max_page_pixels': {
    label: 'Largest page image',
    unit: 'pixels',
    description: 'A larger page is rendered at a lower resolution.',
  },
  'transcription.provider': {
    label: 'Transcribe speech with',
    description: 'Auto: the transcription server when its address is set, else pocketsphinx offline.',
  },
  'transcription.api_base': {
    label: 'Transcription server address',
    description: 'An OpenAI-compatible server up to /v1: OpenAI, whisper.cpp or faster-whisper.',
  },
  'transcription.api_key': { label: 'Transcription server key' },
  'transcription.model': { label: 'Transcription model' },
  'transcription.language': { label: 'Speech language', description: 'Empty lets the server detect it.' },
  'transcription.request_timeout_seconds': { label: 'Time allowed per transcription request', unit: 's' },
  'transcription.max_duration_seconds': { label: 'Longest recording read', unit: 's' },
  'llm.thinking_for_chat': { label: 'Let the model think before chat answers' },
  'llm.thinking_for_tools': { label: 'Let the model think before using tools' },
  'llm.thinking_for_extraction': { label: 'Let the model think during extraction' },
  'llm.enable_llm_queueing': {
    label: 'Queue model requests',
    description: 'Requests wait their turn instead of running all at once.',
  },
  'llm.llm_request_timeout': { label: 'Model request time limit', unit: 's' },
  'llm.cost_input_per_million': { label: 'Price per million input tokens', unit: 'USD' },
  'llm.cost_output_per_million': { label: 'Price per million output tokens', unit: 'USD' },
  'llm.max_tokens_per_source': { label: 'Token budget per source', unit: 'tokens', description: 'Empty: no limit.' },
  'llm.max_tokens_per_day': { label: 'Token budget per day', unit: 'tokens', description: 'Empty: no limit.' },

  'queue.backend': { label: 'Queue type', description: 'Embedded needs nothing else; Redis is a separate server.' },
  'queue.queue_host': { label: 'Redis host' },
  'queue.queue_port': { label: 'Redis port' },
  'queue.queue_database': { label: 'Redis database number' },
  'queue.queue_password': { label: 'Redis password' },
  'queue.queue_ssl': { label: 'Connect to Redis over TLS' },
  'queue.max_pending_queue_depth': {
    label: 'Most tasks waiting',
    description: 'New work is refused while this many tasks wait.',
  },

  'chunking.small_chunk_size': { label: 'Passage length aimed at', unit: 'chars' },
  'chunking.small_chunk_overlap': { label: 'Overlap between passages', unit: 'chars' },
  'chunking.min_chunk_size': { label: 'Shortest passage', unit: 'chars' },
  'chunking.max_chunk_size': { label: 'Longest passage', unit: 'chars' },
  'chunking.respect_boundaries': { label: 'Cut at paragraph and sentence ends' },
  'chunking.group_size': { label: 'Passages per extraction group' },
  'chunking.group_overlap': { label: 'Passages shared by neighbouring groups' },
  'chunking.target_group_tokens': { label: 'Group length aimed at', unit: 'tokens' },
  'chunking.output_tokens_per_chunk': { label: 'Reply allowance per passage', unit: 'tokens' },
  'chunking.default_extraction_density': {
    label: 'Extraction density',
    description: 'How much to extract per passage: 1 is normal, higher finds more.',
  },
  'chunking.normalize_newlines': { label: 'Tidy line breaks' },
  'chunking.normalize_remove_structural_noise': {
    label: 'Remove page furniture',
    description: 'Drops repeated headers, footers and page numbers.',
  },
  'chunking.preserve_original_text_for_citations': { label: 'Keep the original text for citations' },
  'chunking.quick_mode_max_groups': {
    label: 'Groups read by a quick analysis',
    description: 'A quick analysis reads an even sample of this many groups.',
  },
  'chunking.max_groups_per_source': { label: 'Most groups read per source' },

  'embedding.provider': { label: 'Embedding provider' },
  'embedding.model': { label: 'Embedding model' },
  'embedding.default_localllm_model': { label: 'Local embedding model' },
  'embedding.localllm_instance_id': { label: 'Local server used for embeddings' },
  'embedding.api_key': { label: 'Embedding API key' },
  'embedding.api_base': { label: 'Embedding API address' },
  'embedding.max_text_length': { label: 'Longest text embedded', unit: 'chars', description: 'Longer text is cut.' },
  'embedding.allow_model_download': { label: 'Allow downloading the embedding model' },
  'embedding.enable_auto_embedding': { label: 'Embed new passages automatically' },
  'embedding.vector_sweep_interval_seconds': {
    label: 'Look for nodes left without a vector every',
    unit: 's',
    description: 'Nodes still lacking one after this long are embedded then.',
  },

  'search.enable_vector_search': { label: 'Search by meaning', description: 'Adds semantic matches to word matches.' },
  'search.embedding_model': { label: 'Model of the stored vectors' },
  'search.vector_dimensions': { label: 'Numbers per vector' },
  'search.min_similarity_threshold': {
    label: 'Lowest similarity kept',
    description: 'Meaning matches below this are dropped.',
  },
  'search.enable_rerank': { label: 'Rerank results', description: 'Sorts the best candidates again, more precisely.' },
  'search.rerank_multiplier': {
    label: 'Candidates reranked per result',
    description: 'With 10 results and 3, the best 30 candidates are reranked.',
  },
  'search.rerank_min_candidates': { label: 'Fewest candidates reranked' },
  'search.max_search_results': { label: 'Most search results' },
  'search.search_chunks_min_limit': { label: 'Fewest passages a search returns' },
  'search.default_result_limit': { label: 'Results shown by default' },
  'search.fulltext_language': {
    label: 'Word search language',
    description: 'A language code such as en; words are matched by their stems in it.',
  },
  'search.debounce_ms': {
    label: 'Typing pause before searching',
    unit: 'ms',
    description: 'The search box waits this long after the last key.',
  },

  'graphrag.seed_similarity_threshold': {
    label: 'Lowest similarity of a starting entity',
    description: 'Entities matching the question less are not used as starting points.',
  },
  'graphrag.ppr_top_k': { label: 'Entities kept from the graph walk' },
  'graphrag.ppr_damping': {
    label: 'Graph walk reach',
    description: 'Higher follows relationships further from the starting entities.',
  },
  'graphrag.max_triples': { label: 'Most facts given to an answer' },
  'graphrag.vector_overfetch_multiplier': {
    label: 'Starting candidates per entity needed',
    description: 'Fetches this many times the needed starting entities, then keeps the best.',
  },
  'graphrag.max_graph_nodes': { label: 'Largest graph walked', unit: 'nodes' },

  'source_processing.auto_extract_entities': { label: 'Extract entities from new sources' },
  'source_processing.analysis_depth': {
    label: 'Analysis depth',
    description: 'Quick reads a sample of each source; full reads all of it.',
  },
  'source_processing.entity_deduplication_mode': { label: 'How duplicate entities are found' },
  'source_processing.entity_deduplication_similarity_threshold': {
    label: 'Similarity that makes entities duplicates',
    description: 'Higher merges only very close names.',
  },
  'source_processing.entity_max_description_length': { label: 'Longest entity description', unit: 'chars' },
  'source_processing.merge_undo_retention_days': { label: 'Days a merge can be undone', unit: 'days' },
  'source_processing.attempt_retention_days': {
    label: 'Days extraction attempts are kept',
    description:
      'Prompts and raw model answers of each chunk, shown on the source page. 0 records none, and the hourly sweep then removes those kept.',
    unit: 'days',
  },
  'source_processing.relationship_confidence_threshold': { label: 'Lowest relationship confidence kept' },

  'web.allow_private_addresses': {
    label: 'Allow importing from private addresses',
    description: 'Lets web import reach this machine and the local network.',
  },
  'web.max_redirects': { label: 'Most redirects followed' },
  'web.max_fetch_bytes': { label: 'Largest page imported', unit: 'MB', perUnit: MB },
  'web.connect_timeout': { label: 'Connection time limit', unit: 's' },

  'extraction.extraction_filtering_mode': {
    label: 'Filtering strictness',
    description: 'How readily doubtful entities and relationships are dropped.',
  },
  'extraction.evidence_validation_mode': {
    label: 'Evidence checking',
    description: 'How strictly a relationship must be backed by its cited sentence.',
  },
  'extraction.max_relationship_ratio': {
    label: 'Most relationships per entity, on average',
    description: 'A source yielding more keeps its most confident relationships.',
  },
  'extraction.max_entity_degree': { label: 'Most relationships touching one entity' },
  'extraction.max_same_source_type': {
    label: 'Most relationships of one kind from one entity',
    description: 'Stops lists such as dozens of "mentions" from one entity.',
  },
  'extraction.semantic_dedup_threshold': { label: 'Similarity that makes relationships duplicates' },
  'extraction.plausibility_threshold': {
    label: 'Lowest plausibility of a named entity',
    description: 'Named entities scoring less are dropped.',
  },
  'extraction.non_named_plausibility_threshold': {
    label: 'Lowest plausibility of an unnamed entity',
    description: 'For things without a proper name, like "the committee".',
  },
  'extraction.enable_direction_correction': { label: 'Fix relationships pointing the wrong way' },
  'extraction.protect_orphans': { label: 'Keep entities without relationships' },
  'extraction.enable_inverse_relationships': {
    label: 'Add inverse relationships',
    description: '"received award" also adds "awarded to".',
  },
  'extraction.filter_structural_entities': {
    label: 'Drop document parts as entities',
    description: 'Such as "Chapter 3" or "Table 2".',
  },
  'extraction.strict_edge_type_constraints': {
    label: 'Only allow relationships the templates define',
  },
  'extraction.domain_detection_sample_count': { label: 'Passages sampled to detect the domain' },
  'extraction.domain_detection_sample_chars': { label: 'Text sampled per passage', unit: 'chars' },

  'export.export_version': { label: 'Package version' },
  'export.export_license': { label: 'Package license', description: 'An SPDX name such as CC-BY-SA-4.0.' },
  'export.export_package_name': { label: 'Package name' },

  'registry.url': { label: 'Registry address' },
  'registry.api_path': { label: 'Registry API path' },
  'registry.timeout': { label: 'Request time limit', unit: 's' },
  'registry.upload_timeout': { label: 'Upload time limit', unit: 's' },
  'registry.token': { label: 'Registry token' },
  'registry.credentials': { label: 'Registry credentials' },

  'paths.settings_file': { label: 'Settings file' },
  'paths.credentials_file': { label: 'Credentials file' },
  'paths.secrets_dir': { label: 'Secrets folder' },
  'paths.queue_db': { label: 'Queue database file' },
  'paths.logs_dir': { label: 'Logs folder' },
  'paths.databases_dir': { label: 'Databases folder' },
  'paths.backups_dir': { label: 'Backups folder' },

  'priorities.interactive': { label: 'Interactive work', description: 'Chat and other work a person waits for.' },
  'priorities.background': { label: 'Background work', description: 'Extraction and indexing.' },
  'priorities.default': { label: 'Everything else' },

  'timeouts.llm_chat_wait': { label: 'Wait for a chat answer', unit: 's' },
  'timeouts.llm_embedding_wait': { label: 'Wait for embeddings', unit: 's' },
  'timeouts.llm_operation_max': { label: 'Longest model operation', unit: 's' },
  'timeouts.llm_stream_chunk_timeout': {
    label: 'Silence allowed while streaming',
    unit: 's',
    description: 'A streamed answer that sends nothing for this long is stopped.',
  },
  'timeouts.http_request': { label: 'HTTP request time limit', unit: 's' },
  'timeouts.url_fetch': { label: 'Web page download time limit', unit: 's' },
  'timeouts.hot_reload_delay': { label: 'Delay before applying changed settings', unit: 's' },
  'timeouts.localllm_verify_timeout': { label: 'Local server check time limit', unit: 's' },
  'timeouts.llm_worker_default': { label: 'Longest model task', unit: 's' },
  'timeouts.operations_worker_default': { label: 'Longest background task', unit: 's' },
  'timeouts.operations_result_ttl': { label: 'Keep background task results for', unit: 's' },
  'timeouts.llm_result_ttl': { label: 'Keep model task results for', unit: 's' },
  'timeouts.failed_result_ttl': {
    label: 'Keep failed task results for',
    unit: 's',
    description: '1209600 s is 14 days.',
  },
  'timeouts.reconcile_lock_ttl': {
    label: 'Startup check lock',
    unit: 's',
    description: 'How long one process holds the lock while tidying unfinished work.',
  },
  'timeouts.queue_poll_interval': { label: 'Queue check interval', unit: 's' },
  'timeouts.proxy_read': { label: 'Proxy read time limit', unit: 's' },
  'timeouts.proxy_send': { label: 'Proxy send time limit', unit: 's' },
  'timeouts.proxy_connect': { label: 'Proxy connect time limit', unit: 's' },

  'ports.http': { label: 'HTTP port' },
  'ports.https': { label: 'HTTPS port' },
  'ports.api': { label: 'API port' },
  'ports.auth_verify': { label: 'Sign-in check port' },

  'batching.embedding_batch_size': { label: 'Passages embedded per batch' },
  'batching.embedding_concurrency': { label: 'Embedding batches at once' },
  'batching.embedding_api_batch_size': { label: 'Passages per embedding API call' },
  'batching.embedding_wave_size': {
    label: 'Passages prepared ahead for embedding',
    description: 'Embedding works through a source this many passages at a time.',
  },
  'batching.max_upload_files': { label: 'Most files per upload' },
  'batching.max_upload_bytes': { label: 'Largest upload', unit: 'MB', perUnit: MB },
  'batching.upload_max_concurrent': { label: 'Uploads at once' },
  'batching.upload_disk_headroom_bytes': {
    label: 'Free disk space kept',
    unit: 'MB',
    perUnit: MB,
    description: 'Uploads are refused when they would leave less free space.',
  },
  'batching.max_request_body_mb': { label: 'Largest request body', unit: 'MB' },
  'batching.bulk_request_max_operations': { label: 'Most operations per bulk request' },
  'batching.graph_analysis_node_limit': { label: 'Largest graph analysed', unit: 'nodes' },
  'batching.graph_analysis_edge_limit': { label: 'Most relationships analysed', unit: 'edges' },
  'batching.graphrag_edge_query_limit': { label: 'Relationships read per entity in graph retrieval' },
  'batching.export_page_size': { label: 'Rows written per export step' },
  'batching.chunk_fetch_limit': { label: 'Most passages read at once' },
  'batching.allowed_content_types': { label: 'Accepted file types', description: 'As MIME types.' },

  'pagination.default_page_size': { label: 'Rows per page' },
  'pagination.max_page_size': { label: 'Most rows per page' },
  'pagination.default_list_limit': { label: 'Items listed by default' },
  'pagination.canvas_max_nodes': { label: 'Most entities drawn on the graph canvas' },
  'pagination.canvas_max_edges': { label: 'Most relationships drawn on the graph canvas' },
  'pagination.max_citation_page_size': { label: 'Most citations per page' },
  'pagination.default_search_results': { label: 'Search results per page' },
  'pagination.extraction_tasks_page_size': { label: 'Extraction tasks per page' },
  'pagination.log_tail_lines': { label: 'Log lines shown', unit: 'lines' },

  'retries.llm_max_retries': { label: 'Model request retries' },
  'retries.llm_worker_max_tries': { label: 'Tries of a model task' },
  'retries.operations_worker_max_tries': { label: 'Tries of a background task' },
  'retries.ai_executor_retries': { label: 'Tool call retries in chat' },
  'retries.http_max_retries': { label: 'HTTP request retries' },
  'retries.sqlite_max_attempts': { label: 'Tries when the database is busy' },
  'retries.extraction_chunk_max': { label: 'Retries of a failed extraction group' },
  'retries.extraction_finalize_max': { label: 'Retries of saving an extraction' },
  'retries.structured_extraction_max': {
    label: 'Retries of an unreadable model reply',
    description: 'When the reply is not the expected JSON.',
  },
  'retries.embedding_max_retries': { label: 'Embedding request retries' },

  'services.api_internal_url': { label: 'API address' },
  'services.auth_verify_internal_url': { label: 'Sign-in check address' },

  'backoff.retry_delays': { label: 'Waits between retries, in seconds', description: 'One per retry, in order.' },
  'backoff.max_seconds': { label: 'Longest wait between retries', unit: 's' },
  'backoff.exponential_multiplier': {
    label: 'Growth of the wait',
    description: 'Each wait after the listed ones is this many times the one before.',
  },

  'analysis.quick_sample_size': { label: 'Items sampled by a quick analysis' },
  'analysis.low_quality_threshold': {
    label: 'Weak entity or relationship below',
    description: 'Out of 100. Items scoring less count as weak and lower their source’s quality grade.',
  },

  'chat_context.default_context_window': { label: 'Context window when the model does not say', unit: 'tokens' },
  'chat_context.history_allocation_percent': {
    label: 'Share of the context for earlier messages',
    description: '0.5 gives half of what is left after the room kept for the answer.',
  },
  'chat_context.min_history_budget_tokens': { label: 'Least room for earlier messages', unit: 'tokens' },
  'chat_context.response_token_reserve': { label: 'Room kept for the answer', unit: 'tokens' },
  'chat_context.title_generation_max_chars': {
    label: 'Question text used for a title',
    unit: 'chars',
  },

  'workers.operations_max_concurrent': { label: 'Background tasks at once' },
  'workers.llm_max_concurrent': { label: 'Model tasks at once' },
  'workers.health_report_interval': { label: 'Worker status report interval', unit: 's' },

  'cors.allowed_origins': {
    label: 'Allowed web origins',
    description: 'Addresses like https://app.example.com whose pages may call the API.',
  },
  'cors.allow_credentials': { label: 'Let those origins send cookies' },
  'cors.allow_methods': { label: 'Allowed request methods' },
  'cors.allow_headers': { label: 'Allowed request headers' },

  custom_settings: { label: 'Values (JSON object)' },

  'chat.tool_approval': { label: 'Ask before using tools' },
  'chat.tool_approval_timeout_seconds': {
    label: 'Wait for a tool approval',
    unit: 's',
    description: 'An unanswered request is refused after this long.',
  },
  'chat.max_tool_iterations': { label: 'Tool rounds per answer' },
  'chat.max_total_tool_calls': { label: 'Tool calls per answer' },
  'chat.max_tools': { label: 'Tools offered to the model' },

  'logging.level': { label: 'Log detail' },

  'backup.enabled': { label: 'Back up on a schedule' },
  'backup.schedule': { label: 'How often' },
  'backup.keep': { label: 'Backups kept' },

  'mcp.mode': { label: 'What AI agents may do', description: 'Read only, or also write to the graph.' },
  'mcp.auto_extract': {
    label: 'Extract what agents add with the server model',
    description: 'Off: a document an agent adds is only indexed, and the agent extracts it itself.',
  },
  'mcp.confirmation_required_default': {
    label: 'Agent documents wait for domain confirmation',
    description: 'Unless the agent asks to confirm the detected domain at once.',
  },
  'mcp.max_extraction_payload_bytes': {
    label: 'Largest extraction an agent may send',
    unit: 'KB',
    perUnit: KB,
  },
  'mcp.abandon_after_hours': {
    label: 'Give up on an idle agent run after',
    unit: 'h',
    description: 'The run ends in error with the reason.',
  },
};
