import { describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { configuredModels, modelFor, samplingFor } from '../../src/providers/llm/models.ts';

const llm = {
  ...defaultSettings().llm,
  thinking_for_chat: true,
  thinking_for_tools: false,
  thinking_for_extraction: false,
};

describe('models and sampling per operation', () => {
  it('takes the extraction and vision models of the local provider, and each cloud provider its chat model', () => {
    const local = {
      ...llm,
      chat_provider: 'localllm' as const,
      localllm_chat_model: 'chat:1',
      localllm_extraction_model: 'extract:1',
      localllm_vision_model: 'see:1',
    };
    expect(['chat', 'title', 'extraction', 'vision'].map((operation) => modelFor(local, operation as 'chat'))).toEqual([
      'chat:1',
      'chat:1',
      'extract:1',
      'see:1',
    ]);
    expect(configuredModels(local)).toEqual({ chat: 'chat:1', extraction: 'extract:1', vision: 'see:1' });
    expect(modelFor({ ...llm, chat_provider: 'anthropic' }, 'extraction')).toBe(llm.anthropic_chat_model);
    expect(configuredModels(llm)).toEqual({ chat: 'builtin', extraction: 'builtin', vision: null });
  });

  it('refuses vision while no vision model is set', () => {
    expect(() => modelFor({ ...llm, chat_provider: 'localllm', localllm_vision_model: null }, 'vision')).toThrow(
      /vision is off/,
    );
  });

  it('uses the extraction temperature, token limit and thinking flag for extraction, the chat ones otherwise', () => {
    expect(samplingFor(llm, 'extraction')).toEqual({
      temperature: llm.extraction_temperature,
      maxTokens: llm.extraction_max_tokens,
      thinking: false,
    });
    expect(samplingFor(llm, 'chat')).toEqual({
      temperature: llm.ai_temperature,
      maxTokens: llm.ai_max_tokens,
      thinking: true,
    });
    expect(samplingFor(llm, 'tool').thinking).toBe(false);
    expect(samplingFor(llm, 'vision')).toMatchObject({ maxTokens: llm.vision_max_tokens, thinking: false });
  });
});
