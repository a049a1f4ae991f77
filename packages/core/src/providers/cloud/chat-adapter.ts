import type { LanguageModel } from 'ai';
import type { ChatProvider } from '@rhizome/contracts/settings';
import { AiSdkChatAdapter } from '../llm/ai-sdk.ts';
import { LlmError } from '../llm/errors.ts';
import type { LlmAdapter } from '../llm/port.ts';
import { checkModelsList, type ModelsList } from './models-list.ts';

export interface CloudChatSpec extends ModelsList {
  provider: ChatProvider;
  /** The provider's AI SDK model; only called once the key is known to be set. */
  languageModel(modelId: string): LanguageModel;
}

/**
 * A hosted provider's chat adapter: calls fail with `auth` before any request when the key is not set
 * (the AI SDK would otherwise fall back to an environment variable), and the check reads the models list.
 */
export function cloudChatAdapter(spec: CloudChatSpec): LlmAdapter {
  return new AiSdkChatAdapter({
    provider: spec.provider,
    languageModel(modelId) {
      if (spec.headers instanceof LlmError) throw spec.headers;
      return spec.languageModel(modelId);
    },
    check: (models, signal) => checkModelsList(spec, models, signal),
  });
}
