import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CloudModelSchema, PresetSchema, type Preset } from '@rhizome/contracts/api/presets';
import { chatProviders, defaultSettings } from '@rhizome/contracts/settings';
import { cloudModelCatalog, cloudModelsOf } from '../../src/providers/catalog/cloud-models.ts';
import {
  findPreset,
  missingPresetModels,
  presetSettingsPatch,
  vramPresets,
} from '../../src/providers/catalog/presets.ts';
import { validateSettings } from '../../src/settings/validate.ts';

const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
const isPreset = ajv.compile(PresetSchema);
const isCloudModel = ajv.compile(CloudModelSchema);

// The presets' reference values: chat, extraction, vision, num_ctx, num_batch, num_parallel, max extraction tokens.
const priorArt: [string, string, string, string, number, number, number | null, number][] = [
  ['vram_16gb', 'phi4:14b', 'phi4:14b', 'qwen3-vl:8b', 16384, 2048, null, 8192],
  ['vram_20gb', 'phi4:14b', 'phi4:14b', 'qwen3-vl:8b', 24576, 1536, null, 8192],
  ['vram_24gb', 'qwen3:30b', 'qwen3:30b-instruct', 'qwen3-vl:30b', 16384, 2048, null, 16384],
  ['vram_32gb', 'qwen3:30b', 'qwen3:30b-instruct', 'qwen3-vl:30b', 32768, 2048, null, 16384],
  ['vram_48gb', 'qwen3:30b', 'qwen3:30b-instruct', 'qwen3-vl:30b', 49152, 4096, 2, 16384],
  ['vram_96gb', 'gpt-oss:120b', 'gpt-oss:120b', 'qwen3-vl:30b', 49152, 4096, 2, 16384],
  ['vram_128gb', 'gpt-oss:120b', 'gpt-oss:120b', 'qwen3-vl:30b', 65536, 4096, 4, 32768],
];

const presetNamed = (name: string) => findPreset(name)!;

describe('VRAM presets', () => {
  it('are the seven reference presets, smallest first', () => {
    expect(vramPresets.map((preset) => preset.name)).toEqual(priorArt.map(([name]) => name));
    const sizes = vramPresets.map((preset) => preset.vram_gb);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });

  it.each(priorArt)(
    '%s has the reference values',
    (name, chat, extraction, vision, numCtx, numBatch, numParallel, extractionMaxTokens) => {
      const preset = presetNamed(name);
      expect(isPreset(preset), JSON.stringify(isPreset.errors)).toBe(true);
      expect(preset.vram_gb).toBe(Number(/\d+/.exec(name)![0]));
      expect(preset.builtin).toBe(true);
      expect(preset.gpu_examples.length).toBeGreaterThan(0);
      expect(preset.localllm_settings).toEqual({
        localllm_chat_model: chat,
        localllm_extraction_model: extraction,
        localllm_vision_model: vision,
        localllm_num_ctx: numCtx,
        localllm_num_batch: numBatch,
      });
      expect(preset.llm_settings).toMatchObject({
        ai_context_window: numCtx,
        extraction_max_tokens: extractionMaxTokens,
        thinking_for_chat: false,
      });
      expect(preset.llm_settings.ai_max_tokens).toBeLessThanOrEqual(numCtx);
      if (numParallel === null) expect(preset.description).not.toContain('NUM_PARALLEL');
      else expect(preset.description).toContain(`OLLAMA_NUM_PARALLEL=${numParallel}`);
    },
  );

  it.each(vramPresets.map((preset) => [preset.name, preset] as const))(
    '%s passes settings validation',
    (_name, preset) => {
      const settings = defaultSettings();
      const candidate = { ...settings, llm: { ...settings.llm, ...presetSettingsPatch(preset) } };
      expect(validateSettings(candidate)).toEqual([]);
    },
  );

  it('patches exactly the preset keys and the quick preset', () => {
    const preset = presetNamed('vram_24gb');
    expect(presetSettingsPatch(preset)).toEqual({
      ...preset.localllm_settings,
      ...preset.llm_settings,
      localllm_quick_preset: 'vram_24gb',
    });
  });

  it('finds a preset by name only', () => {
    expect(findPreset('vram_32gb')?.vram_gb).toBe(32);
    expect(findPreset('vram_1gb')).toBeUndefined();
    expect(findPreset('32 GB VRAM')).toBeUndefined();
  });
});

describe('missing preset models', () => {
  const withModels = (chat: string, vision: string | null): Preset => {
    const base = presetNamed('vram_24gb');
    return {
      ...base,
      localllm_settings: { ...base.localllm_settings, localllm_chat_model: chat, localllm_vision_model: vision },
    };
  };

  it('lists every distinct model when no local model server answered', () => {
    expect(missingPresetModels(presetNamed('vram_24gb'), null)).toEqual([
      'qwen3:30b',
      'qwen3:30b-instruct',
      'qwen3-vl:30b',
    ]);
    expect(missingPresetModels(presetNamed('vram_16gb'), null)).toEqual(['phi4:14b', 'qwen3-vl:8b']);
  });

  it('lists the models the servers lack', () => {
    expect(missingPresetModels(presetNamed('vram_24gb'), ['qwen3:30b', 'qwen3-vl:30b', 'llama3:latest'])).toEqual([
      'qwen3:30b-instruct',
    ]);
    expect(missingPresetModels(presetNamed('vram_24gb'), ['qwen3:30b', 'qwen3:30b-instruct', 'qwen3-vl:30b'])).toEqual(
      [],
    );
    expect(missingPresetModels(presetNamed('vram_24gb'), [])).toHaveLength(3);
  });

  it('reads a name without a tag as its :latest tag, on either side', () => {
    expect(missingPresetModels(withModels('qwen3', null), ['qwen3:latest', 'qwen3:30b-instruct'])).toEqual([]);
    expect(missingPresetModels(withModels('qwen3:latest', null), ['qwen3', 'qwen3:30b-instruct'])).toEqual([]);
    expect(missingPresetModels(withModels('qwen3', null), ['qwen3:8b', 'qwen3:30b-instruct'])).toEqual(['qwen3']);
    expect(
      missingPresetModels(withModels('registry.local:5000/team/qwen3', null), [
        'registry.local:5000/team/qwen3:latest',
        'qwen3:30b-instruct',
      ]),
    ).toEqual([]);
  });
});

describe('cloud model catalogue', () => {
  const cloudProviders = ['openai', 'anthropic', 'gemini'];

  it('covers the three cloud chat providers by their settings ids', () => {
    expect(Object.keys(cloudModelCatalog)).toEqual(cloudProviders);
    for (const provider of cloudProviders) expect(chatProviders).toContain(provider);
  });

  it.each(cloudProviders)('%s models are well formed, unique and within their limits', (provider) => {
    const { display_name, models } = cloudModelCatalog[provider as keyof typeof cloudModelCatalog];
    expect(display_name).not.toBe('');
    expect(models.length).toBeGreaterThanOrEqual(4);
    expect(new Set(models.map((model) => model.id)).size).toBe(models.length);
    for (const model of models) {
      expect(isCloudModel(model), `${model.id}: ${JSON.stringify(isCloudModel.errors)}`).toBe(true);
      expect(model.max_output_tokens).toBeLessThanOrEqual(model.context_window);
      expect(model.pricing.input_per_million).toBeGreaterThan(0);
      expect(model.pricing.output_per_million).toBeGreaterThanOrEqual(model.pricing.input_per_million);
    }
  });

  it('recommends exactly the settings defaults', () => {
    const llm = defaultSettings().llm;
    const defaults = {
      openai: llm.openai_chat_model,
      anthropic: llm.anthropic_chat_model,
      gemini: llm.gemini_chat_model,
    };
    for (const [provider, { models }] of Object.entries(cloudModelCatalog)) {
      expect(models.filter((model) => model.recommended).map((model) => model.id)).toEqual([
        defaults[provider as keyof typeof defaults],
      ]);
    }
  });

  it('looks up the models of one provider; anything else is unknown', () => {
    expect(cloudModelsOf('anthropic')?.map((model) => model.id)).toContain('claude-sonnet-4-5');
    for (const unknown of ['localllm', 'builtin', 'OpenAI', 'toString', '__proto__'])
      expect(cloudModelsOf(unknown)).toBeUndefined();
  });
});
