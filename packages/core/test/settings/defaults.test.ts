import { describe, expect, it } from 'vitest';
import { defaultSettings, secretSettingPaths, SettingsSchema } from '@rhizome/contracts/settings';
import { validateSettings } from '../../src/settings/validate.ts';

describe('the settings schema and its defaults', () => {
  it('validates its own defaults', () => {
    expect(validateSettings(defaultSettings())).toEqual([]);
  });

  it('has every top-level key and group clients rely on', () => {
    const documentedKeys = [
      'app_name',
      'current_database',
      'data_dir',
      'dark_mode',
      'auto_enable',
      'local_auth',
      'llm',
      'queue',
      'chunking',
      'embedding',
      'search',
      'source_processing',
      'export',
      'registry',
      'paths',
      'priorities',
      'timeouts',
      'ports',
      'batching',
      'pagination',
      'retries',
      'services',
      'backoff',
      'analysis',
      'chat_context',
      'workers',
      'cors',
      'custom_settings',
      'chat',
    ];
    expect(Object.keys(SettingsSchema.properties)).toEqual(expect.arrayContaining(documentedKeys));
    expect(Object.keys(defaultSettings())).toEqual(Object.keys(SettingsSchema.properties));
  });

  it('has every key clients rely on within the groups', () => {
    const settings = defaultSettings();
    const named: Record<string, string[]> = {
      local_auth: ['cookie_name', 'cookie_ttl_seconds', 'cookie_secure'],
      llm: [
        'chat_provider',
        'localllm_instances',
        'localllm_load_balancing',
        'localllm_chat_model',
        'localllm_num_ctx',
        'openai_api_key',
        'openai_chat_model',
        'anthropic_api_key',
        'anthropic_chat_model',
        'gemini_api_key',
        'gemini_chat_model',
        'ai_max_tokens',
        'ai_temperature',
        'thinking_for_chat',
        'enable_llm_queueing',
      ],
      queue: ['queue_host', 'queue_port', 'queue_database', 'queue_password', 'queue_ssl'],
      chunking: ['small_chunk_size', 'small_chunk_overlap', 'group_size'],
      embedding: [
        'provider',
        'model',
        'default_localllm_model',
        'api_key',
        'api_base',
        'max_text_length',
        'allow_model_download',
      ],
      search: [
        'enable_vector_search',
        'embedding_model',
        'vector_dimensions',
        'min_similarity_threshold',
        'enable_rerank',
      ],
      source_processing: ['auto_extract_entities', 'entity_deduplication_mode', 'relationship_confidence_threshold'],
      export: ['export_version', 'export_license'],
      registry: ['url', 'api_path', 'timeout', 'token', 'credentials'],
      timeouts: [
        'llm_chat_wait',
        'http_request',
        'hot_reload_delay',
        'localllm_verify_timeout',
        'operations_result_ttl',
        'llm_result_ttl',
        'failed_result_ttl',
      ],
      batching: [
        'embedding_batch_size',
        'embedding_concurrency',
        'max_upload_files',
        'max_upload_bytes',
        'allowed_content_types',
      ],
      pagination: ['default_page_size', 'max_page_size', 'canvas_max_nodes', 'canvas_max_edges'],
      retries: ['llm_max_retries', 'llm_worker_max_tries', 'operations_worker_max_tries'],
      backoff: ['retry_delays', 'max_seconds'],
      chat_context: ['default_context_window', 'history_allocation_percent'],
      workers: ['operations_max_concurrent', 'health_report_interval'],
      cors: ['allowed_origins', 'allow_credentials', 'allow_methods', 'allow_headers'],
      chat: ['tool_approval', 'tool_approval_timeout_seconds'],
    };
    for (const [group, keys] of Object.entries(named)) {
      expect(Object.keys(settings[group as keyof typeof settings] as object), group).toEqual(
        expect.arrayContaining(keys),
      );
    }
  });

  it('uses the defaults clients rely on', () => {
    const settings = defaultSettings();
    expect(settings.app_name).toBe('Rhizome');
    expect(settings.current_database).toBe('default');
    expect(settings.local_auth).toMatchObject({
      cookie_name: 'cc_session',
      cookie_ttl_seconds: 2_592_000,
      cookie_secure: false,
    });
    expect(settings.local_auth).toMatchObject({
      login_max_attempts: 5,
      setup_max_attempts: 3,
      rate_limit_window_seconds: 60,
    });
    expect(settings.priorities).toEqual({ interactive: 10, background: 50, default: 0 });
    expect(settings.export.export_version).toBe('1.0.0');
    expect(settings.registry).toMatchObject({ api_path: '/api/v1', timeout: 60, token: null, credentials: null });
    expect(settings.chat.tool_approval_timeout_seconds).toBe(120);
    expect(settings.batching).toMatchObject({ max_upload_files: 20, max_upload_bytes: 5_368_709_120 });
    expect(settings.batching.allowed_content_types).toContain('application/pdf');
    expect(settings.batching.allowed_content_types).not.toContain('application/octet-stream');
    expect(settings.llm.chat_provider).toBe('builtin');
    expect(settings.llm.localllm_instances).toEqual([
      { id: 'default', name: 'Local', base_url: 'http://127.0.0.1:11434', enabled: true, healthy: false },
    ]);
    expect(settings.embedding.provider).toBe('builtin');
    expect(settings.queue.backend).toBe('embedded');
    expect(settings.logging.level).toBe('INFO');
    expect(settings.backup).toEqual({ enabled: true, schedule: 'daily', keep: 7 });
    expect(settings.custom_settings).toEqual({});
  });

  it('returns a fresh deep copy on every call', () => {
    const first = defaultSettings();
    first.llm.localllm_instances[0].name = 'changed';
    first.batching.allowed_content_types.push('x/y');
    const second = defaultSettings();
    expect(second.llm.localllm_instances[0].name).toBe('Local');
    expect(second.batching.allowed_content_types).not.toContain('x/y');
  });

  it('lists secrets that exist and are unset by default', () => {
    const settings = defaultSettings();
    expect(secretSettingPaths.length).toBeGreaterThanOrEqual(7);
    for (const [group, key] of secretSettingPaths) {
      expect(Object.keys(settings[group]), `${group}.${key}`).toContain(key);
      expect((settings[group] as Record<string, unknown>)[key], `${group}.${key}`).toBeNull();
    }
  });
});
