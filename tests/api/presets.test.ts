import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudModel, Preset } from '@rhizome/contracts/api/presets';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { freePort } from '../support/ports.ts';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';

type Settings = Record<string, Record<string, unknown>>;

interface ApplyResult {
  success: boolean;
  preset_id: string;
  preset_name: string;
  settings_updated: Record<string, unknown>;
  message: string;
  missing_models: string[];
}

const presetNames = ['vram_16gb', 'vram_20gb', 'vram_24gb', 'vram_32gb', 'vram_48gb', 'vram_96gb', 'vram_128gb'];
const cloudProviders = ['openai', 'anthropic', 'gemini'];

function ok<T>(result: CallResult): T {
  expect(result.status, result.text).toBe(200);
  return result.body as T;
}

function expectNotFound(result: CallResult, resourceType: string, identifier: string): void {
  expect(result.status).toBe(404);
  expect(result.body).toEqual({
    error: 'NOT_FOUND',
    message: expect.any(String),
    details: { resource_type: resourceType, identifier },
  });
}

/** The llm keys applying `preset` must write, with their values. */
function presetKeys(preset: Preset): Record<string, unknown> {
  return { ...preset.localllm_settings, ...preset.llm_settings, localllm_quick_preset: preset.name };
}

describe('VRAM presets and cloud models over HTTP', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const settings = async () => ok<Settings>(await call('GET', '/settings'));
  const preset = async (name: string) => ok<Preset>(await call('GET', `/settings/presets/${name}`));

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    // A local model server nobody listens on, and values a preset must leave alone.
    const deadServer = `http://127.0.0.1:${await freePort()}`;
    ok(
      await call('PATCH', '/settings', {
        llm: {
          localllm_instances: [{ id: 'default', name: 'Local', base_url: deadServer, enabled: true, healthy: false }],
          openai_api_key: 'sk-test-preset-secret',
          ai_temperature: 0.7,
          thinking_for_chat: true,
        },
      }),
    );
  });
  afterAll(() => server.stop());

  describe('presets', () => {
    it('lists the seven presets, smallest VRAM first, with a count', async () => {
      const body = ok<{ presets: Preset[]; count: number }>(await call('GET', '/settings/presets'));
      expect(body.count).toBe(7);
      expect(body.presets.map((item) => item.name)).toEqual(presetNames);
      const sizes = body.presets.map((item) => item.vram_gb);
      expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    });

    it('returns one preset by name with every field', async () => {
      const body = await preset('vram_24gb');
      expect(body).toEqual({
        name: 'vram_24gb',
        display_name: expect.any(String),
        description: expect.any(String),
        vram_gb: 24,
        gpu_examples: expect.arrayContaining([expect.any(String)]),
        version: expect.any(String),
        author: expect.any(String),
        builtin: true,
        localllm_settings: {
          localllm_chat_model: 'qwen3:30b',
          localllm_extraction_model: 'qwen3:30b-instruct',
          localllm_vision_model: 'qwen3-vl:30b',
          localllm_num_ctx: 16384,
          localllm_num_batch: 2048,
        },
        llm_settings: {
          ai_context_window: 16384,
          ai_max_tokens: expect.any(Number),
          extraction_max_tokens: 16384,
          thinking_for_chat: false,
        },
      });
    });

    it('answers 404 for an unknown preset', async () => {
      expectNotFound(await call('GET', '/settings/presets/vram_1gb'), 'preset', 'vram_1gb');
    });
  });

  describe('applying a preset', () => {
    it('writes exactly the preset keys and reports every model missing when no local model server answers', async () => {
      const target = await preset('vram_48gb');
      const before = await settings();
      const body = ok<ApplyResult>(await call('POST', '/settings/presets/apply', { preset_id: 'vram_48gb' }));
      expect(body).toEqual({
        success: true,
        preset_id: 'vram_48gb',
        preset_name: target.display_name,
        settings_updated: presetKeys(target),
        message: expect.stringContaining('could not be reached'),
        missing_models: ['qwen3:30b', 'qwen3:30b-instruct', 'qwen3-vl:30b'],
      });

      const after = await settings();
      expect(after.llm).toEqual({ ...before.llm, ...presetKeys(target) });
      expect(after.llm).toMatchObject({
        openai_api_key: 'configured',
        ai_temperature: 0.7,
        thinking_for_chat: false,
        localllm_quick_preset: 'vram_48gb',
      });
      expect(after.llm.localllm_instances).toEqual(before.llm.localllm_instances);
      expect({ ...after, llm: null }).toEqual({ ...before, llm: null });
    });

    it.each(presetNames)('applies %s: its values pass settings validation', async (name) => {
      const target = await preset(name);
      const body = ok<ApplyResult>(await call('POST', '/settings/presets/apply', { preset_id: name }));
      expect(body.settings_updated).toEqual(presetKeys(target));
      expect((await settings()).llm).toMatchObject(presetKeys(target));
    });

    it('answers 404 for an unknown preset and writes nothing', async () => {
      const before = await settings();
      expectNotFound(await call('POST', '/settings/presets/apply', { preset_id: 'vram_1gb' }), 'preset', 'vram_1gb');
      expect(await settings()).toEqual(before);
    });

    it('answers 422 without a preset_id', async () => {
      expect(
        validationIssuesOf(await call('POST', '/settings/presets/apply', {})).map((issue) => issue.loc),
      ).toContainEqual(['body', 'preset_id']);
      expect(
        validationIssuesOf(await call('POST', '/settings/presets/apply', { preset_id: 24 })).map((issue) => issue.loc),
      ).toContainEqual(['body', 'preset_id']);
    });
  });

  describe('cloud models', () => {
    const expectCloudModel = (model: CloudModel) => {
      expect(model).toEqual({
        id: expect.any(String),
        display_name: expect.any(String),
        context_window: expect.any(Number),
        max_output_tokens: expect.any(Number),
        supports_vision: expect.any(Boolean),
        supports_tools: expect.any(Boolean),
        recommended: expect.any(Boolean),
        pricing: { input_per_million: expect.any(Number), output_per_million: expect.any(Number) },
        notes: model.notes === null ? null : expect.any(String),
      });
      expect(Number.isInteger(model.context_window) && Number.isInteger(model.max_output_tokens)).toBe(true);
    };

    it('lists the models of the three cloud providers', async () => {
      const { providers } = ok<{ providers: Record<string, { display_name: string; models: CloudModel[] }> }>(
        await call('GET', '/settings/cloudmodels'),
      );
      expect(Object.keys(providers).sort()).toEqual([...cloudProviders].sort());
      for (const { display_name, models } of Object.values(providers)) {
        expect(display_name).toEqual(expect.any(String));
        expect(models.length).toBeGreaterThan(0);
        models.forEach(expectCloudModel);
      }
      const recommended = Object.values(providers).flatMap(({ models }) =>
        models.filter((model) => model.recommended).map((model) => model.id),
      );
      expect(recommended.sort()).toEqual(['claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4.1']);
    });

    it.each(cloudProviders)('lists the models of %s alone', async (provider) => {
      const { providers } = ok<{ providers: Record<string, { models: CloudModel[] }> }>(
        await call('GET', '/settings/cloudmodels'),
      );
      expect(ok<CloudModel[]>(await call('GET', `/settings/cloudmodels/${provider}`))).toEqual(
        providers[provider].models,
      );
    });

    it('answers 404 for a provider without a cloud catalogue', async () => {
      expectNotFound(await call('GET', '/settings/cloudmodels/localllm'), 'cloud_provider', 'localllm');
      expectNotFound(await call('GET', '/settings/cloudmodels/mistral'), 'cloud_provider', 'mistral');
    });
  });

  it('documents every preset and cloud model endpoint in the OpenAPI document', async () => {
    const paths = ok<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
      await call('GET', '/openapi.json'),
    ).paths;
    expect(Object.keys(paths['/settings/presets'])).toEqual(['get']);
    expect(Object.keys(paths['/settings/presets/{preset_id}'].get.responses)).toContain('404');
    expect(Object.keys(paths['/settings/presets/apply'].post.responses)).toEqual(
      expect.arrayContaining(['200', '404', '422']),
    );
    expect(Object.keys(paths['/settings/cloudmodels'])).toEqual(['get']);
    expect(Object.keys(paths['/settings/cloudmodels/{provider}'].get.responses)).toContain('404');
  });
});
