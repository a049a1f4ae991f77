import type { Preset } from '@rhizome/contracts/api/presets';
import { NotFound } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';

/**
 * The builtin VRAM presets: local-model choices and context sizes that fit a GPU of
 * that size. Ordered by vram_gb ascending.
 */

interface PresetValues {
  vramGb: number;
  gpuExamples: string[];
  summary: string;
  chat: string;
  extraction: string;
  vision: string;
  numCtx: number;
  numBatch: number;
  /** The local model server's OLLAMA_NUM_PARALLEL; no settings key holds it, so it goes into the description. */
  numParallel?: number;
  extractionMaxTokens: number;
}

function preset(values: PresetValues): Preset {
  const parallel = values.numParallel
    ? ` Start the local model server with OLLAMA_NUM_PARALLEL=${values.numParallel} to serve ${values.numParallel} requests at once.`
    : '';
  return {
    name: `vram_${values.vramGb}gb`,
    display_name: `${values.vramGb} GB VRAM`,
    description: `${values.summary}${parallel}`,
    vram_gb: values.vramGb,
    gpu_examples: values.gpuExamples,
    version: '1.0.0',
    author: 'Rhizome',
    builtin: true,
    localllm_settings: {
      localllm_chat_model: values.chat,
      localllm_extraction_model: values.extraction,
      localllm_vision_model: values.vision,
      localllm_num_ctx: values.numCtx,
      localllm_num_batch: values.numBatch,
    },
    llm_settings: {
      ai_context_window: values.numCtx,
      // A quarter of the window for a chat answer leaves the rest to the question, history and retrieved context.
      ai_max_tokens: values.numCtx / 4,
      extraction_max_tokens: values.extractionMaxTokens,
      thinking_for_chat: false,
    },
  };
}

export const vramPresets: readonly Preset[] = [
  preset({
    vramGb: 16,
    gpuExamples: ['RTX 4060 Ti 16 GB', 'RTX 4070 Ti SUPER', 'RTX 5070 Ti', 'RX 7800 XT'],
    summary: 'Phi-4 14B for chat and extraction with a 16K context; Qwen3-VL 8B for images.',
    chat: 'phi4:14b',
    extraction: 'phi4:14b',
    vision: 'qwen3-vl:8b',
    numCtx: 16_384,
    numBatch: 2048,
    extractionMaxTokens: 8192,
  }),
  preset({
    vramGb: 20,
    gpuExamples: ['RX 7900 XT', 'RTX 4000 Ada', 'RTX A4500'],
    summary: 'Phi-4 14B for chat and extraction with a 24K context; Qwen3-VL 8B for images.',
    chat: 'phi4:14b',
    extraction: 'phi4:14b',
    vision: 'qwen3-vl:8b',
    numCtx: 24_576,
    numBatch: 1536,
    extractionMaxTokens: 8192,
  }),
  preset({
    vramGb: 24,
    gpuExamples: ['RTX 3090', 'RTX 4090', 'RX 7900 XTX'],
    summary:
      'Qwen3 30B (mixture of experts) for chat, its instruct variant for extraction, with a 16K context; Qwen3-VL 30B for images.',
    chat: 'qwen3:30b',
    extraction: 'qwen3:30b-instruct',
    vision: 'qwen3-vl:30b',
    numCtx: 16_384,
    numBatch: 2048,
    extractionMaxTokens: 16_384,
  }),
  preset({
    vramGb: 32,
    gpuExamples: ['RTX 5090', 'Radeon PRO W7800', 'Tesla V100 32 GB'],
    summary: 'Qwen3 30B for chat, its instruct variant for extraction, with a 32K context; Qwen3-VL 30B for images.',
    chat: 'qwen3:30b',
    extraction: 'qwen3:30b-instruct',
    vision: 'qwen3-vl:30b',
    numCtx: 32_768,
    numBatch: 2048,
    extractionMaxTokens: 16_384,
  }),
  preset({
    vramGb: 48,
    gpuExamples: ['RTX A6000', 'RTX 6000 Ada', 'L40S', '2x RTX 3090/4090'],
    summary: 'Qwen3 30B for chat, its instruct variant for extraction, with a 48K context; Qwen3-VL 30B for images.',
    chat: 'qwen3:30b',
    extraction: 'qwen3:30b-instruct',
    vision: 'qwen3-vl:30b',
    numCtx: 49_152,
    numBatch: 4096,
    numParallel: 2,
    extractionMaxTokens: 16_384,
  }),
  preset({
    vramGb: 96,
    gpuExamples: ['RTX PRO 6000 Blackwell', '2x RTX 6000 Ada', 'Mac Studio with 96 GB unified memory'],
    summary: 'gpt-oss 120B for chat and extraction with a 48K context; Qwen3-VL 30B for images.',
    chat: 'gpt-oss:120b',
    extraction: 'gpt-oss:120b',
    vision: 'qwen3-vl:30b',
    numCtx: 49_152,
    numBatch: 4096,
    numParallel: 2,
    extractionMaxTokens: 16_384,
  }),
  preset({
    vramGb: 128,
    gpuExamples: ['Ryzen AI Max+ 395 with 128 GB', 'DGX Spark', 'Mac Studio with 128 GB unified memory'],
    summary: 'gpt-oss 120B for chat and extraction with a 64K context; Qwen3-VL 30B for images.',
    chat: 'gpt-oss:120b',
    extraction: 'gpt-oss:120b',
    vision: 'qwen3-vl:30b',
    numCtx: 65_536,
    numBatch: 4096,
    numParallel: 4,
    extractionMaxTokens: 32_768,
  }),
];

export function findPreset(id: string): Preset | undefined {
  return vramPresets.find((candidate) => candidate.name === id);
}

/** The preset; 404 when there is none of that name. */
export function requirePreset(id: string): Preset {
  const preset = findPreset(id);
  if (!preset) throw NotFound.resource('preset', id);
  return preset;
}

/** The llm-group keys applying the preset writes: its local-model and llm settings, and itself as the quick preset. */
export function presetSettingsPatch(preset: Preset): Partial<Settings['llm']> {
  return { ...preset.localllm_settings, ...preset.llm_settings, localllm_quick_preset: preset.name };
}

/**
 * The preset's models that `installed` lacks; all of them when no local model server answered
 * (`installed` null). A name without a tag means its `:latest` tag, as the local model server reads it.
 */
export function missingPresetModels(preset: Preset, installed: readonly string[] | null): string[] {
  const { localllm_chat_model, localllm_extraction_model, localllm_vision_model } = preset.localllm_settings;
  const models = [...new Set([localllm_chat_model, localllm_extraction_model, localllm_vision_model])].filter(
    (model) => model !== null,
  );
  const present = new Set((installed ?? []).map(withTag));
  return models.filter((model) => !present.has(withTag(model)));
}

function withTag(model: string): string {
  const lastSegment = model.slice(model.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? model : `${model}:latest`;
}

/** What applying a preset leaves to do: the models to pull (see `missingPresetModels`), said in a sentence. */
export function presetApplyOutcome(
  preset: Preset,
  installed: readonly string[] | null,
): { missing: string[]; message: string } {
  const missing = missingPresetModels(preset, installed);
  const applied = `Applied preset '${preset.display_name}'`;
  if (installed === null)
    return { missing, message: `${applied}, but the local model server could not be reached to check its models` };
  if (missing.length > 0) return { missing, message: `${applied}; pull the missing models: ${missing.join(', ')}` };
  return { missing, message: `${applied}; its models are installed` };
}
