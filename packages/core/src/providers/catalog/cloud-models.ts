import type { CloudModel, CloudModelCatalog } from '@rhizome/contracts/api/presets';
import { NotFound } from '@rhizome/contracts/errors';

/**
 * The cloud models offered for each cloud chat provider, with context and output limits, vision and
 * tool support, and list prices in USD per million tokens (standard tier, no batch or cache discounts).
 *
 * catalogue_updated: 2025-10-15 — figures as the providers documented them then; review when a
 * provider adds, retires or reprices a model. The ids are the API model ids (or their aliases) that
 * the `llm.<provider>_chat_model` settings take; the settings defaults are the recommended ones.
 */

type ModelEntry = Omit<CloudModel, 'recommended' | 'notes'> & { recommended?: boolean; notes?: string };

function model(entry: ModelEntry): CloudModel {
  return { ...entry, recommended: entry.recommended ?? false, notes: entry.notes ?? null };
}

const price = (input: number, output: number) => ({ input_per_million: input, output_per_million: output });

const openai: CloudModel[] = [
  model({
    id: 'gpt-5',
    display_name: 'GPT-5',
    context_window: 400_000,
    max_output_tokens: 128_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(1.25, 10),
    notes: 'Reasoning model: input is capped at 272K tokens of the window; reasoning tokens are billed as output',
  }),
  model({
    id: 'gpt-5-mini',
    display_name: 'GPT-5 mini',
    context_window: 400_000,
    max_output_tokens: 128_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.25, 2),
    notes: 'Reasoning model: input is capped at 272K tokens of the window; reasoning tokens are billed as output',
  }),
  model({
    id: 'gpt-5-nano',
    display_name: 'GPT-5 nano',
    context_window: 400_000,
    max_output_tokens: 128_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.05, 0.4),
    notes: 'Reasoning model: input is capped at 272K tokens of the window; reasoning tokens are billed as output',
  }),
  model({
    id: 'gpt-4.1',
    display_name: 'GPT-4.1',
    context_window: 1_047_576,
    max_output_tokens: 32_768,
    supports_vision: true,
    supports_tools: true,
    recommended: true,
    pricing: price(2, 8),
  }),
  model({
    id: 'gpt-4.1-mini',
    display_name: 'GPT-4.1 mini',
    context_window: 1_047_576,
    max_output_tokens: 32_768,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.4, 1.6),
  }),
  model({
    id: 'gpt-4.1-nano',
    display_name: 'GPT-4.1 nano',
    context_window: 1_047_576,
    max_output_tokens: 32_768,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.1, 0.4),
  }),
  model({
    id: 'gpt-4o',
    display_name: 'GPT-4o',
    context_window: 128_000,
    max_output_tokens: 16_384,
    supports_vision: true,
    supports_tools: true,
    pricing: price(2.5, 10),
  }),
  model({
    id: 'gpt-4o-mini',
    display_name: 'GPT-4o mini',
    context_window: 128_000,
    max_output_tokens: 16_384,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.15, 0.6),
  }),
  model({
    id: 'o3',
    display_name: 'o3',
    context_window: 200_000,
    max_output_tokens: 100_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(2, 8),
    notes: 'Reasoning model: reasoning tokens are billed as output',
  }),
  model({
    id: 'o4-mini',
    display_name: 'o4-mini',
    context_window: 200_000,
    max_output_tokens: 100_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(1.1, 4.4),
    notes: 'Reasoning model: reasoning tokens are billed as output',
  }),
];

const anthropic: CloudModel[] = [
  model({
    id: 'claude-opus-4-1',
    display_name: 'Claude Opus 4.1',
    context_window: 200_000,
    max_output_tokens: 32_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(15, 75),
  }),
  model({
    id: 'claude-sonnet-4-5',
    display_name: 'Claude Sonnet 4.5',
    context_window: 200_000,
    max_output_tokens: 64_000,
    supports_vision: true,
    supports_tools: true,
    recommended: true,
    pricing: price(3, 15),
    notes: 'A 1M-token context is in beta; prompts over 200K tokens cost $6 / $22.50 per million',
  }),
  model({
    id: 'claude-haiku-4-5',
    display_name: 'Claude Haiku 4.5',
    context_window: 200_000,
    max_output_tokens: 64_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(1, 5),
  }),
  model({
    id: 'claude-sonnet-4-0',
    display_name: 'Claude Sonnet 4',
    context_window: 200_000,
    max_output_tokens: 64_000,
    supports_vision: true,
    supports_tools: true,
    pricing: price(3, 15),
    notes: 'Superseded by Claude Sonnet 4.5',
  }),
  model({
    id: 'claude-3-5-haiku-latest',
    display_name: 'Claude Haiku 3.5',
    context_window: 200_000,
    max_output_tokens: 8192,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.8, 4),
    notes: 'Legacy model, superseded by Claude Haiku 4.5; image input support is approximate (added after launch)',
  }),
];

const gemini: CloudModel[] = [
  model({
    id: 'gemini-2.5-pro',
    display_name: 'Gemini 2.5 Pro',
    context_window: 1_048_576,
    max_output_tokens: 65_536,
    supports_vision: true,
    supports_tools: true,
    recommended: true,
    pricing: price(1.25, 10),
    notes: 'Thinking model; prices for prompts up to 200K tokens, longer prompts cost $2.50 / $15 per million',
  }),
  model({
    id: 'gemini-2.5-flash',
    display_name: 'Gemini 2.5 Flash',
    context_window: 1_048_576,
    max_output_tokens: 65_536,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.3, 2.5),
    notes: 'Thinking model; audio input costs more ($1 per million)',
  }),
  model({
    id: 'gemini-2.5-flash-lite',
    display_name: 'Gemini 2.5 Flash-Lite',
    context_window: 1_048_576,
    max_output_tokens: 65_536,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.1, 0.4),
    notes: 'Audio input costs more ($0.30 per million)',
  }),
  model({
    id: 'gemini-2.0-flash',
    display_name: 'Gemini 2.0 Flash',
    context_window: 1_048_576,
    max_output_tokens: 8192,
    supports_vision: true,
    supports_tools: true,
    pricing: price(0.1, 0.4),
    notes: 'Previous generation; audio input costs more ($0.70 per million)',
  }),
];

export const cloudModelCatalog: CloudModelCatalog = {
  openai: { display_name: 'OpenAI', models: openai },
  anthropic: { display_name: 'Anthropic', models: anthropic },
  gemini: { display_name: 'Google Gemini', models: gemini },
};

/** The models of one cloud provider; undefined for an id that is not a cloud provider. */
export function cloudModelsOf(provider: string): CloudModel[] | undefined {
  return Object.hasOwn(cloudModelCatalog, provider)
    ? cloudModelCatalog[provider as keyof CloudModelCatalog].models
    : undefined;
}

/** The provider's cloud models; 404 when the catalogue has no such provider. */
export function requireCloudModels(provider: string): CloudModel[] {
  const models = cloudModelsOf(provider);
  if (!models) throw NotFound.resource('cloud_provider', provider);
  return models;
}
