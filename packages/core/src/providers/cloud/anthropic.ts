import { createAnthropic } from '@ai-sdk/anthropic';
import type { Settings } from '@rhizome/contracts/settings';
import { modelServerFetch } from '../model-server-fetch.ts';
import type { LlmAdapter } from '../llm/port.ts';
import { keyHeaders } from './api-key.ts';
import { cloudChatAdapter } from './chat-adapter.ts';
import { withoutTrailingSlash } from './http.ts';

const anthropicVersion = '2023-06-01';

/** Anthropic's Messages API. It has no embeddings. */
export function createAnthropicChatAdapter(
  llm: Pick<Settings['llm'], 'anthropic_api_key' | 'anthropic_base_url'>,
): LlmAdapter {
  const baseURL = withoutTrailingSlash(llm.anthropic_base_url);
  const provider = createAnthropic({ baseURL, apiKey: llm.anthropic_api_key || undefined, fetch: modelServerFetch });
  return cloudChatAdapter({
    provider: 'anthropic',
    label: 'Anthropic',
    // The list is paged; 1000 (the largest page) holds every model Anthropic offers.
    url: `${baseURL}/models?limit=1000`,
    headers: keyHeaders(llm.anthropic_api_key, {
      provider: 'Anthropic',
      setting: 'llm.anthropic_api_key',
      headers: (key) => ({ 'x-api-key': key, 'anthropic-version': anthropicVersion }),
    }),
    idsOf: (body) => (body as { data?: { id: string }[] }).data?.map((model) => model.id) ?? [],
    languageModel: (modelId) => provider.messages(modelId),
  });
}
