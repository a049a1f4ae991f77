import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

type Settings = Record<string, Record<string, unknown>>;

describe('settings over HTTP', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const settingsFile = () => path.join(server.dataDir, 'settings.json');
  const fileContent = () => (fs.existsSync(settingsFile()) ? fs.readFileSync(settingsFile(), 'utf8') : null);

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  // Which keys clients rely on is checked against the schema in packages/core/test/settings/defaults.test.ts.
  it('returns every settings group with its defaults, secrets masked', async () => {
    const result = await call('GET', '/settings');
    expect(result.status).toBe(200);
    const settings = result.body as Settings;
    expect(Object.keys(settings).sort()).toEqual(Object.keys(defaultSettings()).sort());
    expect(settings.export.export_version).toBe('1.0.0');
    expect(settings.priorities).toMatchObject({ interactive: 10, background: 50, default: 0 });
    expect(settings.batching).toMatchObject({ max_upload_files: 20 });
    expect(settings.local_auth).toMatchObject({ cookie_name: 'cc_session', cookie_ttl_seconds: 2592000 });
    expect(settings.llm.openai_api_key).toBeNull();
    expect((settings as Record<string, unknown>).data_dir).toBe(server.dataDir);
  });

  it('deep-merges a group, persists it and masks secrets in every response', async () => {
    const result = await call('PATCH', '/settings', {
      llm: { ai_temperature: 0.7, openai_api_key: 'sk-test-secret-value' },
      dark_mode: true,
    });
    expect(result.status).toBe(200);
    const body = result.body as { settings: Settings; warnings: unknown[] };
    expect(body.settings.llm).toMatchObject({
      ai_temperature: 0.7,
      openai_api_key: 'configured',
      ai_max_tokens: 65536,
    });
    expect(body.settings.dark_mode).toBe(true);
    expect(Array.isArray(body.warnings)).toBe(true);
    expect(fileContent()).toContain('sk-test-secret-value');
    const read = await call('GET', '/settings');
    expect(read.text).not.toContain('sk-test-secret-value');
    expect((read.body as Settings).llm.openai_api_key).toBe('configured');

    const placeholder = await call('PATCH', '/settings', {
      llm: { openai_api_key: 'configured', ai_temperature: 0.5 },
    });
    expect((placeholder.body as { settings: Settings }).settings.llm.ai_temperature).toBe(0.5);
    expect(fileContent()).toContain('sk-test-secret-value');
  });

  it.each([
    [{ llm: { ai_temperature: 'hot' } }, ['body', 'llm', 'ai_temperature']],
    [{ llm: { ai_temperature: 3 } }, ['body', 'llm', 'ai_temperature']],
    [{ local_auth: { cookie_ttl_seconds: -5 } }, ['body', 'local_auth', 'cookie_ttl_seconds']],
    [{ llm: { chat_provider: 'telepathy' } }, ['body', 'llm', 'chat_provider']],
    [{ batching: { max_upload_files: 'many' } }, ['body', 'batching', 'max_upload_files']],
  ])('refuses %j with 422 and changes nothing', async (patch, loc) => {
    const before = fileContent();
    const result = await call('PATCH', '/settings', patch);
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ error: 'VALIDATION_FAILED' });
    const errors = (result.body as { details: { errors: { loc: unknown[] }[] } }).details.errors;
    expect(errors.map((error) => error.loc)).toContainEqual(loc);
    expect(fileContent()).toBe(before);
  });

  it('ignores unknown keys and does not let PATCH /settings move the active database', async () => {
    const result = await call('PATCH', '/settings', {
      no_such_group: { x: 1 },
      current_database: 'elsewhere',
      llm: { no_such_key: 1 },
    });
    expect(result.status).toBe(200);
    const settings = (result.body as { settings: Settings }).settings as Record<string, unknown>;
    expect(settings.no_such_group).toBeUndefined();
    expect(settings.current_database).toBe('default');
  });

  it('refuses a model server base URL at a link-local or cloud metadata address, and keeps private ones', async () => {
    const before = fileContent();
    const refused = await call('PATCH', '/settings', {
      llm: {
        openai_base_url: 'http://169.254.169.254/latest',
        localllm_instances: [
          { id: 'meta', name: 'Metadata', base_url: 'http://metadata.google.internal', enabled: true },
        ],
      },
      embedding: { api_base: 'http://[fe80::1]:8080/v1' },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(
      (refused.body as { details: { errors: { loc: unknown[] }[] } }).details.errors.map((issue) => issue.loc),
    ).toEqual([
      ['body', 'llm', 'openai_base_url'],
      ['body', 'llm', 'localllm_instances', 0, 'base_url'],
      ['body', 'embedding', 'api_base'],
    ]);
    expect(fileContent()).toBe(before);
    const privateServer = await call('PATCH', '/settings', { llm: { openai_base_url: 'http://10.0.0.5:8000/v1' } });
    expect(privateServer.status, privateServer.text).toBe(200);
  });

  it('warns when a change orphans existing embeddings', async () => {
    const result = await call('PATCH', '/settings', { search: { vector_dimensions: 384 } });
    const warnings = (result.body as { warnings: { field: string; severity: string }[] }).warnings;
    expect(warnings.some((warning) => warning.field.includes('vector_dimensions'))).toBe(true);
  });

  it('changes the logging level at runtime', async () => {
    expect((await call('GET', '/settings/logging/level')).body).toEqual({
      level: 'INFO',
      numeric_level: 20,
      available_levels: ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'],
    });
    const changed = await call('POST', '/settings/logging/level', { level: 'DEBUG' });
    expect(changed.body).toMatchObject({ success: true, old_level: 'INFO', new_level: 'DEBUG' });
    expect(server.platform.logger.level).toBe('debug');
    expect((await call('GET', '/settings/logging/level')).body).toMatchObject({ level: 'DEBUG', numeric_level: 10 });
    const bad = await call('POST', '/settings/logging/level', { level: 'LOUD' });
    expect(bad.status).toBe(422);
    expect((await call('GET', '/settings/logging/level')).body).toMatchObject({ level: 'DEBUG' });
  });

  it('resets to defaults, keeping the active database', async () => {
    const result = await call('POST', '/settings/reset');
    expect(result.status).toBe(200);
    const settings = result.body as Settings;
    expect(settings.llm).toMatchObject({ ai_temperature: 0.3, openai_api_key: null });
    expect((settings as Record<string, unknown>).dark_mode).toBe(false);
    expect((settings as Record<string, unknown>).current_database).toBe('default');
    expect(fileContent()).not.toContain('sk-test-secret-value');
  });
});
