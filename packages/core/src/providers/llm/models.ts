import type { Settings } from '@rhizome/contracts/settings';
import { LlmError } from './errors.ts';
import type { LlmOperation } from './port.ts';

/** The model the settings name for an operation with the configured chat provider. */
export function modelFor(llm: Settings['llm'], operation: LlmOperation): string {
  switch (llm.chat_provider) {
    case 'builtin':
      return 'builtin';
    case 'openai':
      return llm.openai_chat_model;
    case 'anthropic':
      return llm.anthropic_chat_model;
    case 'gemini':
      return llm.gemini_chat_model;
    case 'localllm':
      if (operation === 'extraction') return llm.localllm_extraction_model;
      if (operation === 'vision') {
        if (!llm.localllm_vision_model)
          throw new LlmError('bad_request', 'vision is off: set llm.localllm_vision_model');
        return llm.localllm_vision_model;
      }
      return llm.localllm_chat_model;
  }
}

/** The models the configured provider must have: chat, extraction and (when set) vision. */
export function configuredModels(llm: Settings['llm']): { chat: string; extraction: string; vision: string | null } {
  const vision = llm.chat_provider === 'localllm' ? llm.localllm_vision_model : null;
  return { chat: modelFor(llm, 'chat'), extraction: modelFor(llm, 'extraction'), vision };
}

export function samplingFor(
  llm: Settings['llm'],
  operation: LlmOperation,
): { temperature: number; maxTokens: number; thinking: boolean } {
  if (operation === 'extraction')
    return {
      temperature: llm.extraction_temperature,
      maxTokens: llm.extraction_max_tokens,
      thinking: llm.thinking_for_extraction,
    };
  if (operation === 'vision')
    return { temperature: llm.ai_temperature, maxTokens: llm.vision_max_tokens, thinking: false };
  if (operation === 'tool')
    return { temperature: llm.ai_temperature, maxTokens: llm.ai_max_tokens, thinking: llm.thinking_for_tools };
  return { temperature: llm.ai_temperature, maxTokens: llm.ai_max_tokens, thinking: llm.thinking_for_chat };
}
