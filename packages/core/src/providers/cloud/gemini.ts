import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { Settings } from '@rhizome/contracts/settings';
import { modelServerFetch } from '../model-server-fetch.ts';
import type { LlmError } from '../llm/errors.ts';
import type { LlmAdapter } from '../llm/port.ts';
import { keyHeaders } from './api-key.ts';
import { cloudChatAdapter } from './chat-adapter.ts';
import { withoutTrailingSlash } from './http.ts';

export function geminiKeyHeaders(key: string | null, setting: string): Record<string, string> | LlmError {
  return keyHeaders(key, { provider: 'Gemini', setting, headers: (value) => ({ 'x-goog-api-key': value }) });
}

/** Google's Gemini API (generativelanguage.googleapis.com). */
export function createGeminiChatAdapter(llm: Pick<Settings['llm'], 'gemini_api_key' | 'gemini_base_url'>): LlmAdapter {
  const baseURL = withoutTrailingSlash(llm.gemini_base_url);
  const provider = createGoogleGenerativeAI({
    baseURL,
    apiKey: llm.gemini_api_key || undefined,
    fetch: modelServerFetch,
  });
  return cloudChatAdapter({
    provider: 'gemini',
    label: 'Gemini',
    // The list is paged; 1000 is the largest page and holds every model Google offers.
    url: `${baseURL}/models?pageSize=1000`,
    headers: geminiKeyHeaders(llm.gemini_api_key, 'llm.gemini_api_key'),
    // Names come as `models/<id>`; either form may be configured.
    idsOf: (body) =>
      (body as { models?: { name: string }[] }).models?.flatMap((model) => [
        model.name,
        model.name.replace(/^models\//, ''),
      ]) ?? [],
    languageModel: (modelId) => provider.chat(modelId),
  });
}
