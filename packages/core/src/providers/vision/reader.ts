import type { Settings } from '@rhizome/contracts/settings';
import { createAnthropicChatAdapter } from '../cloud/anthropic.ts';
import { createGeminiChatAdapter } from '../cloud/gemini.ts';
import { createOpenAiChatAdapter } from '../cloud/openai.ts';
import { completeWithPolicy, type CallPolicy } from '../llm/call-policy.ts';
import { LlmError } from '../llm/errors.ts';
import type { ImageInput, LlmAdapter } from '../llm/port.ts';
import { createLocalLlmChatAdapter } from '../localllm/chat-adapter.ts';
import { LocalLlmPool } from '../localllm/pool.ts';

/**
 * The vision port as the loaders use it: one image in, its text out, through the chat adapter of the
 * configured provider under the operator's retry policy. It is built from setting values alone (no
 * shared pool health, metrics or queue), so it also runs on a preparation thread.
 */
export interface VisionConfig {
  llm: Settings['llm'];
  model: string;
  maxTokens: number;
  policy: CallPolicy;
}

export interface VisionPrompt {
  system: string;
  user: string;
}

export interface VisionReading {
  text: string;
  /** The model stopped at `maxTokens`. */
  truncated: boolean;
}

export interface VisionReader {
  readonly model: string;
  /** Throws `LlmError` once the policy's retries are spent. */
  read(image: ImageInput, prompt: VisionPrompt, signal: AbortSignal): Promise<VisionReading>;
}

export function visionReader(config: VisionConfig): VisionReader {
  const adapter = chatAdapterOf(config.llm);
  return {
    model: config.model,
    async read(image, prompt, signal) {
      const result = await completeWithPolicy(
        adapter,
        {
          operation: 'vision',
          model: config.model,
          system: prompt.system,
          messages: [{ role: 'user', content: prompt.user, images: [image] }],
          temperature: config.llm.ai_temperature,
          maxTokens: config.maxTokens,
          thinking: false,
          signal,
        },
        config.policy,
      );
      return { text: result.text.trim(), truncated: result.finishReason === 'length' };
    },
  };
}

function chatAdapterOf(llm: Settings['llm']): LlmAdapter {
  switch (llm.chat_provider) {
    case 'localllm':
      return createLocalLlmChatAdapter(
        new LocalLlmPool({ instances: llm.localllm_instances, strategy: llm.localllm_load_balancing }),
        llm,
      );
    case 'openai':
      return createOpenAiChatAdapter(llm);
    case 'anthropic':
      return createAnthropicChatAdapter(llm);
    case 'gemini':
      return createGeminiChatAdapter(llm);
    case 'builtin':
      throw new LlmError('bad_request', 'the builtin provider has no vision model');
  }
}
