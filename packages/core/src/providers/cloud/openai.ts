import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Settings } from '@rhizome/contracts/settings';
import { modelServerFetch } from '../model-server-fetch.ts';
import type { LlmError } from '../llm/errors.ts';
import type { LlmAdapter } from '../llm/port.ts';
import { keyHeaders } from './api-key.ts';
import { cloudChatAdapter } from './chat-adapter.ts';
import { withoutTrailingSlash } from './http.ts';

/**
 * A base URL on api.openai.com is OpenAI itself; any other is an OpenAI-compatible server (vLLM,
 * LM Studio, llama.cpp, …), which may need no key and whose model ids say nothing about OpenAI's families.
 */
export function isOpenAiCompatible(baseUrl: string): boolean {
  return new URL(baseUrl).hostname !== 'api.openai.com';
}

/** Bearer auth; optional for compatible servers. */
export function openAiKeyHeaders(
  baseUrl: string,
  key: string | null,
  setting: string,
  compatible = isOpenAiCompatible(baseUrl),
): Record<string, string> | LlmError {
  return keyHeaders(key, {
    provider: 'OpenAI',
    setting,
    optional: compatible,
    headers: (value) => ({ authorization: `Bearer ${value}` }),
  });
}

export interface OpenAiChatOptions {
  /** Which server the base URL leads to; read from the URL unless set (an OpenAI proxy at another host, tests). */
  server?: 'openai' | 'compatible';
}

/**
 * OpenAI gets `@ai-sdk/openai`'s Chat Completions model, which adapts requests to OpenAI's model
 * families (reasoning models take no temperature, a developer message instead of system); a compatible
 * server gets `@ai-sdk/openai-compatible`, which sends requests unchanged and asks for streamed usage.
 */
export function createOpenAiChatAdapter(
  llm: Pick<Settings['llm'], 'openai_api_key' | 'openai_base_url'>,
  options: OpenAiChatOptions = {},
): LlmAdapter {
  const baseURL = withoutTrailingSlash(llm.openai_base_url);
  const apiKey = llm.openai_api_key || undefined;
  const compatible = (options.server ?? (isOpenAiCompatible(baseURL) ? 'compatible' : 'openai')) === 'compatible';
  const chatModel = compatible
    ? createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey,
        includeUsage: true,
        fetch: modelServerFetch,
      }).chatModel
    : createOpenAI({ baseURL, apiKey, fetch: modelServerFetch }).chat;
  return cloudChatAdapter({
    provider: 'openai',
    label: compatible ? `OpenAI-compatible server ${baseURL}` : 'OpenAI',
    url: `${baseURL}/models`,
    headers: openAiKeyHeaders(baseURL, llm.openai_api_key, 'llm.openai_api_key', compatible),
    idsOf: (body) => (body as { data?: { id: string }[] }).data?.map((model) => model.id) ?? [],
    languageModel: chatModel,
  });
}
