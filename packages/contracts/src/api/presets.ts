import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable } from './common.ts';

const tag = 'settings';

export const PresetSchema = Type.Object({
  /** The preset's id in URLs and in `llm.localllm_quick_preset`. */
  name: Type.String(),
  display_name: Type.String(),
  description: Type.String(),
  vram_gb: Type.Integer(),
  gpu_examples: Type.Array(Type.String()),
  version: Type.String(),
  author: Type.String(),
  builtin: Type.Boolean(),
  localllm_settings: Type.Object({
    localllm_chat_model: Type.String(),
    localllm_extraction_model: Type.String(),
    localllm_vision_model: Nullable(Type.String()),
    localllm_num_ctx: Type.Integer(),
    localllm_num_batch: Type.Integer(),
  }),
  llm_settings: Type.Object({
    ai_context_window: Type.Integer(),
    ai_max_tokens: Type.Integer(),
    extraction_max_tokens: Type.Integer(),
    thinking_for_chat: Type.Boolean(),
  }),
});
export type Preset = Static<typeof PresetSchema>;

export const CloudModelSchema = Type.Object({
  id: Type.String(),
  display_name: Type.String(),
  context_window: Type.Integer(),
  max_output_tokens: Type.Integer(),
  supports_vision: Type.Boolean(),
  supports_tools: Type.Boolean(),
  recommended: Type.Boolean(),
  pricing: Type.Object({ input_per_million: Type.Number(), output_per_million: Type.Number() }),
  notes: Nullable(Type.String()),
});
export type CloudModel = Static<typeof CloudModelSchema>;

const CloudProviderSchema = Type.Object({ display_name: Type.String(), models: Type.Array(CloudModelSchema) });

/** Keyed by the provider ids of `llm.chat_provider`. */
export const CloudModelCatalogSchema = Type.Object({
  openai: CloudProviderSchema,
  anthropic: CloudProviderSchema,
  gemini: CloudProviderSchema,
});
export type CloudModelCatalog = Static<typeof CloudModelCatalogSchema>;

export const presetEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/settings/presets',
    tag,
    status: 200,
    summary: 'The VRAM presets for local models, smallest first',
    response: Type.Object({ presets: Type.Array(PresetSchema), count: Type.Integer() }),
  }),
  get: endpoint({
    method: 'GET',
    path: '/settings/presets/{preset_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One VRAM preset',
    params: Type.Object({ preset_id: Type.String() }),
    response: PresetSchema,
  }),
  apply: endpoint({
    method: 'POST',
    path: '/settings/presets/apply',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      "Write a preset's local-model settings (API keys, URLs and instances untouched); reports the preset models the local model servers lack",
    body: Body({ preset_id: Type.String({ minLength: 1 }) }),
    response: Type.Object({
      success: Type.Boolean(),
      preset_id: Type.String(),
      preset_name: Type.String(),
      settings_updated: AnyObject,
      message: Type.String(),
      missing_models: Type.Array(Type.String()),
    }),
  }),
  cloudModels: endpoint({
    method: 'GET',
    path: '/settings/cloudmodels',
    tag,
    status: 200,
    summary: 'The models of every cloud provider with limits and list prices',
    response: Type.Object({ providers: CloudModelCatalogSchema }),
  }),
  cloudModelsOf: endpoint({
    method: 'GET',
    path: '/settings/cloudmodels/{provider}',
    tag,
    status: 200,
    errors: [404],
    summary: 'The models of one cloud provider',
    params: Type.Object({ provider: Type.String() }),
    response: Type.Array(CloudModelSchema),
  }),
};
