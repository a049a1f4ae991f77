import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../src/settings/index.ts';
import { readJson, tempSettingsFile } from './support.ts';

describe('SettingsStore: environment overrides', () => {
  it('applies RHIZOME_SETTINGS__<GROUP>__<KEY> as JSON when it parses, else as a string', () => {
    const store = SettingsStore.open(tempSettingsFile(), {
      RHIZOME_SETTINGS__LLM__AI_TEMPERATURE: '1.5',
      RHIZOME_SETTINGS__LLM__THINKING_FOR_CHAT: 'false',
      RHIZOME_SETTINGS__LLM__OPENAI_CHAT_MODEL: 'gpt-5',
      RHIZOME_SETTINGS__APP_NAME: '123',
      RHIZOME_SETTINGS__CORS__ALLOWED_ORIGINS: '["http://a.example"]',
      RHIZOME_SETTINGS__CUSTOM_SETTINGS__FLAG: 'true',
    });
    const settings = store.get();
    expect(settings.llm.ai_temperature).toBe(1.5);
    expect(settings.llm.thinking_for_chat).toBe(false);
    expect(settings.llm.openai_chat_model).toBe('gpt-5');
    expect(settings.app_name).toBe('123');
    expect(settings.cors.allowed_origins).toEqual(['http://a.example']);
    expect(settings.custom_settings).toEqual({ flag: true });
    expect(store.loadWarnings).toEqual([]);
  });

  it('wins over the file and is never written to it', () => {
    const file = tempSettingsFile();
    SettingsStore.open(file, {}).patch({ llm: { ai_temperature: 0.7 } });
    const store = SettingsStore.open(file, {
      RHIZOME_SETTINGS__LLM__AI_TEMPERATURE: '1.5',
      RHIZOME_SETTINGS__LLM__OPENAI_API_KEY: 'sk-from-env',
    });
    expect(store.get().llm.ai_temperature).toBe(1.5);
    expect(store.get().llm.openai_api_key).toBe('sk-from-env');
    expect(store.masked().llm.openai_api_key).toBe('configured');

    const { warnings, settings } = store.patch({ llm: { ai_temperature: 0.9, ai_max_tokens: 123 } });
    expect(settings.llm.ai_temperature).toBe(1.5);
    expect(warnings).toEqual([expect.objectContaining({ field: 'llm.ai_temperature', severity: 'info' })]);
    const llmOnDisk = readJson(file).llm as Record<string, unknown>;
    expect(llmOnDisk).toMatchObject({ ai_temperature: 0.9, ai_max_tokens: 123, openai_api_key: null });
    expect(SettingsStore.open(file, {}).get().llm.ai_temperature).toBe(0.9);
  });

  it('does not notify listeners of a change the environment hides', () => {
    const store = SettingsStore.open(tempSettingsFile(), { RHIZOME_SETTINGS__LLM__AI_TEMPERATURE: '1.5' });
    let notified = 0;
    store.onChange(() => notified++);
    store.patch({ llm: { ai_temperature: 0.9 } });
    expect(notified).toBe(0);
  });

  it('maps REGISTRY_URL and RHIZOME_LOG_LEVEL', () => {
    const settings = SettingsStore.open(tempSettingsFile(), {
      REGISTRY_URL: 'http://127.0.0.1:9999',
      RHIZOME_LOG_LEVEL: 'debug',
    }).get();
    expect(settings.registry.url).toBe('http://127.0.0.1:9999');
    expect(settings.logging.level).toBe('DEBUG');
  });

  it('maps RHIZOME_QUEUE_URL onto the queue group', () => {
    const store = SettingsStore.open(tempSettingsFile(), { RHIZOME_QUEUE_URL: 'redis://:p%40ss@valkey.local:6380/2' });
    expect(store.get().queue).toMatchObject({
      backend: 'redis',
      queue_host: 'valkey.local',
      queue_port: 6380,
      queue_password: 'p@ss',
      queue_database: 2,
      queue_ssl: false,
    });
    expect(store.masked().queue.queue_password).toBe('configured');

    const tls = SettingsStore.open(tempSettingsFile(), { RHIZOME_QUEUE_URL: 'rediss://[::1]' }).get().queue;
    expect(tls).toMatchObject({
      backend: 'redis',
      queue_host: '::1',
      queue_port: 6379,
      queue_password: null,
      queue_database: 0,
      queue_ssl: true,
    });
  });

  it('ignores invalid or unknown overrides and reports them as load warnings', () => {
    const store = SettingsStore.open(tempSettingsFile(), {
      RHIZOME_SETTINGS__LLM__AI_TEMPERATURE: '9',
      RHIZOME_SETTINGS__NOPE__X: '1',
      RHIZOME_SETTINGS__DATA_DIR: '/elsewhere',
      RHIZOME_QUEUE_URL: 'http://not-redis:6379',
      RHIZOME_LOG_LEVEL: 'TRACE',
    });
    const settings = store.get();
    expect(settings.llm.ai_temperature).toBe(0.3);
    expect(settings.queue.backend).toBe('embedded');
    expect(settings.logging.level).toBe('INFO');
    expect(settings.data_dir).not.toBe('/elsewhere');
    expect(store.loadWarnings.map((warning) => warning.field).sort()).toEqual([
      'data_dir',
      'llm.ai_temperature',
      'logging.level',
      'nope.x',
      'queue',
    ]);
    expect(store.loadWarnings.find((warning) => warning.field === 'llm.ai_temperature')?.message).toMatch(
      /RHIZOME_SETTINGS__LLM__AI_TEMPERATURE.*must be <= 2/,
    );
  });
});
