import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings, secretSettingPaths, type Settings } from '@rhizome/contracts/settings';
import { SettingsStore } from '../../src/settings/index.ts';
import { failureOf, readJson, tempSettingsFile } from './support.ts';

/** The parts of the effective settings that come from the file or defaults (no runtime info). */
function stored(settings: Settings): Omit<Settings, 'data_dir' | 'paths'> {
  const { data_dir: _dataDir, paths: _paths, ...rest } = settings;
  return rest;
}

describe('SettingsStore: file', () => {
  it('starts from defaults and creates no file until the first write', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    expect(stored(store.get())).toEqual(stored(defaultSettings()));
    expect(store.loadWarnings).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('round-trips a patch through the real file', () => {
    const file = tempSettingsFile();
    SettingsStore.open(file, {}).patch({ app_name: 'Mine', llm: { ai_temperature: 1.2 }, dark_mode: true });
    const onDisk = readJson(file);
    expect(onDisk.app_name).toBe('Mine');
    expect((onDisk.llm as Record<string, unknown>).ai_temperature).toBe(1.2);
    const reopened = SettingsStore.open(file, {}).get();
    expect(reopened.app_name).toBe('Mine');
    expect(reopened.dark_mode).toBe(true);
    expect(reopened.llm.ai_temperature).toBe(1.2);
  });

  it('writes the whole stored object as pretty JSON, mode 0600, without runtime keys or a temporary file', () => {
    const file = tempSettingsFile();
    SettingsStore.open(file, {}).patch({ app_name: 'Mine' });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toMatch(/^\{\n {2}"app_name": "Mine",\n/);
    const onDisk = readJson(file);
    expect(Object.keys(onDisk)).toEqual(Object.keys(stored(defaultSettings())));
    expect(onDisk).not.toHaveProperty('data_dir');
    expect(onDisk).not.toHaveProperty('paths');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['settings.json']);
  });

  it('fills data_dir and paths at runtime and ignores them in a patch', () => {
    const file = tempSettingsFile();
    const dataDir = path.dirname(file);
    const store = SettingsStore.open(file, {});
    store.patch({ data_dir: '/elsewhere', paths: { logs_dir: '/elsewhere/logs' }, app_name: 'X' });
    store.patch({ data_dir: 5, paths: 'not even an object' });
    const settings = store.get();
    expect(settings.data_dir).toBe(dataDir);
    expect(settings.paths.logs_dir).toBe(path.join(dataDir, 'logs'));
    expect(settings.paths.settings_file).toBe(file);
    expect(SettingsStore.open(file, {}, { dataDir: '/srv/rhizome' }).get().data_dir).toBe('/srv/rhizome');
  });
});

describe('SettingsStore: merging a patch', () => {
  it('merges within a group and keeps the other keys of the group', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    store.patch({ llm: { ai_temperature: 1 } });
    store.patch({ llm: { ai_max_tokens: 100 } });
    const llm = SettingsStore.open(file, {}).get().llm;
    expect(llm.ai_temperature).toBe(1);
    expect(llm.ai_max_tokens).toBe(100);
    expect(llm.localllm_chat_model).toBe(defaultSettings().llm.localllm_chat_model);
  });

  it('replaces arrays and fills the defaults of array items', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    store.patch({
      llm: { localllm_instances: [{ id: 'gpu', base_url: 'http://10.0.0.2:11434' }] },
      backoff: { retry_delays: [1] },
    });
    const settings = store.get();
    expect(settings.llm.localllm_instances).toEqual([
      { id: 'gpu', name: '', base_url: 'http://10.0.0.2:11434', enabled: true, healthy: false },
    ]);
    expect(settings.backoff.retry_delays).toEqual([1]);
  });

  it('ignores unknown keys at every level', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    store.patch({
      bogus_key: 1,
      llm: {
        nope_key: 2,
        ai_temperature: 0.5,
        localllm_instances: [{ id: 'a', base_url: 'http://h', extra_key: true }],
      },
    });
    expect(store.get().llm.ai_temperature).toBe(0.5);
    const text = fs.readFileSync(file, 'utf8');
    for (const unknown of ['bogus_key', 'nope_key', 'extra_key']) expect(text).not.toContain(unknown);
  });

  it('merges custom_settings as a free-form map where null removes a key', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    store.patch({ custom_settings: { theme: { accent: 'green' }, keep: 1 } });
    store.patch({ custom_settings: { theme: { font: 'serif' } } });
    expect(store.get().custom_settings).toEqual({ theme: { accent: 'green', font: 'serif' }, keep: 1 });
    store.patch({ custom_settings: { keep: null } });
    expect(store.get().custom_settings).toEqual({ theme: { accent: 'green', font: 'serif' } });
  });

  it('rejects a body that is not an object', () => {
    const error = failureOf(() => SettingsStore.open(tempSettingsFile(), {}).patch([1]));
    expect(error.kind).toBe('invalid');
    expect(error.details).toEqual({ errors: [{ loc: ['body'], msg: 'must be an object', type: 'type' }] });
  });
});

describe('SettingsStore: secrets', () => {
  it('masks secrets in masked() and in the patch result but stores them in the file', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    const result = store.patch({ llm: { openai_api_key: 'sk-secret-1' }, registry: { token: 'tok-2' } });
    for (const view of [result.settings, store.masked()]) {
      expect(view.llm.openai_api_key).toBe('configured');
      expect(view.registry.token).toBe('configured');
      expect(view.llm.anthropic_api_key).toBeNull();
      expect(JSON.stringify(view)).not.toMatch(/sk-secret-1|tok-2/);
    }
    expect(store.get().llm.openai_api_key).toBe('sk-secret-1');
    expect((readJson(file).llm as Record<string, unknown>).openai_api_key).toBe('sk-secret-1');
  });

  it('masks every secret field', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    const body: Record<string, Record<string, string>> = {};
    for (const [group, key] of secretSettingPaths) body[group] = { ...body[group], [key]: `value-of-${group}-${key}` };
    const { settings } = store.patch(body);
    expect(JSON.stringify(settings)).not.toContain('value-of-');
    for (const [group, key] of secretSettingPaths) {
      expect((settings[group] as Record<string, unknown>)[key], `${group}.${key}`).toBe('configured');
    }
  });

  it('ignores the masked placeholder sent back and clears a secret on an empty string', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    store.patch({ llm: { openai_api_key: 'sk-keep' } });
    store.patch({ llm: { openai_api_key: 'configured', gemini_api_key: 'configured', ai_temperature: 1 } });
    expect(store.get().llm).toMatchObject({ openai_api_key: 'sk-keep', gemini_api_key: null, ai_temperature: 1 });
    store.patch({ llm: { openai_api_key: '' } });
    expect(store.get().llm.openai_api_key).toBeNull();
    expect(store.masked().llm.openai_api_key).toBeNull();
  });
});

describe('SettingsStore: warnings', () => {
  it('warns that changing the vector dimensions or the embedding model orphans embeddings', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    const { warnings } = store.patch({ search: { vector_dimensions: 384 }, embedding: { model: 'nomic-embed-text' } });
    expect(warnings.map((warning) => [warning.field, warning.severity])).toEqual([
      ['embedding.model', 'warning'],
      ['search.vector_dimensions', 'warning'],
    ]);
    expect(warnings[1].message).toMatch(/re-embed/);
  });

  it('does not warn when those values stay the same or other values change', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    const dimensions = store.get().search.vector_dimensions;
    expect(store.patch({ search: { vector_dimensions: dimensions }, llm: { ai_temperature: 1 } }).warnings).toEqual([]);
  });
});

describe('SettingsStore: reset, reload and change notification', () => {
  it('reset overwrites the file with the defaults', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    store.patch({ app_name: 'Mine', llm: { openai_api_key: 'sk-x' } });
    const result = store.reset();
    expect(stored(result)).toEqual(stored(defaultSettings()));
    expect(stored(store.get())).toEqual(stored(defaultSettings()));
    expect(readJson(file)).toEqual(stored(defaultSettings()));
  });

  it('reload picks up what another store instance wrote', () => {
    const file = tempSettingsFile();
    const reader = SettingsStore.open(file, {});
    SettingsStore.open(file, {}).patch({ llm: { chat_provider: 'openai' } });
    expect(reader.get().llm.chat_provider).toBe('builtin');
    reader.reload();
    expect(reader.get().llm.chat_provider).toBe('openai');
  });

  it('notifies once per real change with the new and previous settings', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    const calls: [Settings, Settings][] = [];
    store.onChange((next, prev) => calls.push([next, prev]));

    store.patch({ llm: { ai_temperature: 1.5 } });
    expect(calls).toHaveLength(1);
    expect(calls[0][0].llm.ai_temperature).toBe(1.5);
    expect(calls[0][1].llm.ai_temperature).toBe(0.3);

    const before = fs.statSync(file).mtimeMs;
    store.patch({ llm: { ai_temperature: 1.5 }, unknown: true });
    store.patch({});
    expect(calls).toHaveLength(1);
    expect(fs.statSync(file).mtimeMs).toBe(before);

    SettingsStore.open(file, {}).patch({ app_name: 'Elsewhere' });
    store.reload();
    store.reload();
    expect(calls).toHaveLength(2);
    expect(calls[1][0].app_name).toBe('Elsewhere');

    store.reset();
    expect(calls).toHaveLength(3);
    store.reset();
    expect(calls).toHaveLength(3);
  });

  it('stops notifying after unsubscribing', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    let count = 0;
    const unsubscribe = store.onChange(() => count++);
    store.patch({ dark_mode: true });
    unsubscribe();
    store.patch({ dark_mode: false });
    expect(count).toBe(1);
  });

  it('hands out a frozen snapshot and masked copies that cannot change the store', () => {
    const store = SettingsStore.open(tempSettingsFile(), {});
    expect(() => {
      store.get().llm.ai_temperature = 2;
    }).toThrow(TypeError);
    const before = store.get();
    store.patch({ llm: { ai_temperature: 0.9 } });
    expect(before.llm.ai_temperature).toBe(0.3);
    expect(store.get().llm.ai_temperature).toBe(0.9);
    store.patch({ llm: { ai_temperature: 0.3 } });
    store.masked().app_name = 'changed';
    expect(store.get().llm.ai_temperature).toBe(0.3);
    expect(store.get().app_name).toBe('Rhizome');
  });
});

describe('SettingsStore: a damaged file', () => {
  it('tolerates a file that is not JSON and keeps it until the next write', () => {
    const file = tempSettingsFile();
    fs.writeFileSync(file, '{ not json');
    const store = SettingsStore.open(file, {});
    expect(stored(store.get())).toEqual(stored(defaultSettings()));
    expect(store.loadWarnings).toHaveLength(1);
    expect(store.loadWarnings[0]).toMatchObject({ field: 'settings.json', severity: 'warning' });
    expect(fs.readFileSync(file, 'utf8')).toBe('{ not json');
    store.patch({ app_name: 'Fixed' });
    expect(readJson(file).app_name).toBe('Fixed');
  });

  it('ignores runtime keys found in the file', () => {
    const file = tempSettingsFile();
    fs.writeFileSync(file, JSON.stringify({ data_dir: 42, paths: { logs_dir: '/old/logs' }, app_name: 'Kept' }));
    const store = SettingsStore.open(file, {});
    expect(store.loadWarnings).toEqual([]);
    expect(store.get().app_name).toBe('Kept');
    expect(store.get().data_dir).toBe(path.dirname(file));
    expect(store.get().paths.logs_dir).toBe(path.join(path.dirname(file), 'logs'));
  });

  it('tolerates a file that holds no object', () => {
    const file = tempSettingsFile();
    fs.writeFileSync(file, '[1, 2]');
    const store = SettingsStore.open(file, {});
    expect(stored(store.get())).toEqual(stored(defaultSettings()));
    expect(store.loadWarnings.map((warning) => warning.field)).toEqual(['settings.json']);
  });

  it('keeps the valid parts of a partly invalid file and uses defaults for the rest', () => {
    const file = tempSettingsFile();
    fs.writeFileSync(
      file,
      JSON.stringify({
        app_name: 'Kept',
        llm: {
          ai_temperature: 9,
          ai_max_tokens: 1000,
          localllm_instances: [{ name: 'no id' }, { id: 'ok', base_url: 'http://h' }],
        },
        queue: 5,
        logging: { level: 'TRACE' },
      }),
    );
    const store = SettingsStore.open(file, {});
    const settings = store.get();
    const defaults = defaultSettings();
    expect(settings.app_name).toBe('Kept');
    expect(settings.llm.ai_max_tokens).toBe(1000);
    expect(settings.llm.ai_temperature).toBe(defaults.llm.ai_temperature);
    expect(settings.llm.localllm_instances).toEqual(defaults.llm.localllm_instances);
    expect(settings.queue).toEqual(defaults.queue);
    expect(settings.logging.level).toBe('INFO');
    expect(store.loadWarnings.map((warning) => warning.field).sort()).toEqual([
      'llm.ai_temperature',
      'llm.localllm_instances',
      'logging.level',
      'queue',
    ]);
  });

  it('reports the problems of the file read last after a reload', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    fs.writeFileSync(file, '{');
    store.reload();
    expect(store.loadWarnings).toHaveLength(1);
    fs.writeFileSync(file, '{}');
    store.reload();
    expect(store.loadWarnings).toEqual([]);
  });
});
