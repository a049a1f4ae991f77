import type {
  JSONSchema7,
  LanguageModelV3,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import { APICallError, type LanguageModel } from 'ai';
import type { ChatProvider } from '@rhizome/contracts/settings';
import { kindOfStatus, LlmError } from './errors.ts';
import type { AdapterRequest, ChatMessage, ChatStreamEvent, FinishReason, LlmAdapter, ModelsCheck } from './port.ts';
import { describeError } from '@rhizome/contracts/errors';

/** Provider-specific call options (e.g. Ollama's num_ctx), keyed by the AI SDK provider name. */
export type ProviderOptions = Record<string, Record<string, unknown>>;

export interface AiSdkAdapterOptions {
  provider: ChatProvider;
  /** The AI SDK model for a model id; for a pool of instances, the instance is chosen here. */
  languageModel(modelId: string): LanguageModel;
  check(models: string[], signal: AbortSignal): Promise<ModelsCheck>;
  providerOptions?(request: AdapterRequest): ProviderOptions | undefined;
}

/**
 * An `LlmAdapter` over any AI SDK language model: the provider package speaks the wire protocol; this
 * calls the model's `doStream` directly (not `streamText`, whose per-call stream layers cost about
 * 3 ms a call here) and turns its parts into our events and its errors into `LlmError`. Retries belong
 * to the call policy.
 */
export class AiSdkChatAdapter implements LlmAdapter {
  readonly provider: ChatProvider;

  constructor(private readonly options: AiSdkAdapterOptions) {
    this.provider = options.provider;
  }

  check(models: string[], signal: AbortSignal): Promise<ModelsCheck> {
    return this.options.check(models, signal);
  }

  async *stream(request: AdapterRequest): AsyncIterable<ChatStreamEvent> {
    try {
      const { stream } = await this.#model(request.model).doStream({
        prompt: toPrompt(request),
        tools: request.tools?.map((tool) => ({
          type: 'function' as const,
          name: tool.name,
          description: tool.description,
          inputSchema: tool.parameters as JSONSchema7,
        })),
        temperature: request.temperature,
        maxOutputTokens: request.maxTokens,
        abortSignal: request.signal,
        providerOptions: this.options.providerOptions?.(request) as SharedV3ProviderOptions | undefined,
      });
      for await (const part of stream) {
        switch (part.type) {
          case 'text-delta':
            if (part.delta) yield { type: 'text', delta: part.delta };
            break;
          case 'reasoning-delta':
            if (part.delta) yield { type: 'reasoning', delta: part.delta };
            break;
          case 'tool-call':
            yield {
              type: 'tool_call',
              call: { id: part.toolCallId, name: part.toolName, arguments: parseArguments(part.input) },
            };
            break;
          case 'finish':
            yield {
              type: 'finish',
              finishReason: finishReasonOf(part.finishReason.unified),
              usage: {
                inputTokens: part.usage.inputTokens.total ?? 0,
                outputTokens: part.usage.outputTokens.total ?? 0,
              },
              model: request.model,
            };
            break;
          case 'error':
            throw part.error;
          default:
            break;
        }
      }
    } catch (error) {
      throw toLlmError(error, request.signal);
    }
  }

  #model(modelId: string): LanguageModelV3 {
    const model = this.options.languageModel(modelId);
    if (typeof model === 'string' || model.specificationVersion !== 'v3')
      throw new LlmError('bad_request', `model '${modelId}' does not implement the AI SDK v3 model interface`);
    return model;
  }
}

/** Our messages in the provider-level prompt format (what `streamText` would build from them). */
function toPrompt(request: AdapterRequest): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = request.system ? [{ role: 'system', content: request.system }] : [];
  for (const message of request.messages) prompt.push(toPromptMessage(message));
  return prompt;
}

function toPromptMessage(message: ChatMessage): LanguageModelV3Message {
  switch (message.role) {
    case 'user':
      // Images as base64 text: every provider package accepts it, while ollama-ai-provider-v2 passes the
      // data through to Ollama's `images` as is (bytes would reach the wire as a JSON object).
      return {
        role: 'user',
        content: [
          ...(message.images ?? []).map((image) => ({
            type: 'file' as const,
            mediaType: image.mediaType,
            data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64'),
          })),
          { type: 'text', text: message.content },
        ],
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
          ...(message.toolCalls ?? []).map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.name,
            input: call.arguments,
          })),
        ],
      };
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.toolCallId,
            toolName: message.toolName,
            output: { type: 'text', value: message.content },
          },
        ],
      };
  }
}

/** Tool arguments arrive as JSON text; a model that writes something else still yields an object. */
function parseArguments(input: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(input || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  } catch {
    return { raw: input };
  }
}

function finishReasonOf(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
      return reason;
    case 'content-filter':
      return 'content_filter';
    case 'tool-calls':
      return 'tool_calls';
    default:
      return 'other';
  }
}

/** Any failure of a provider call as an `LlmError`; exported for adapters that call providers directly. */
export function toLlmError(error: unknown, signal?: AbortSignal): LlmError {
  if (error instanceof LlmError) return error;
  if (signal?.aborted) return new LlmError('cancelled', 'the call was cancelled');
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? null;
    const retryAfter = Number(error.responseHeaders?.['retry-after']);
    return new LlmError(
      status === null ? 'unavailable' : kindOfStatus(status),
      error.message,
      status,
      Number.isFinite(retryAfter) ? retryAfter : null,
    );
  }
  const message = describeError(error);
  // fetch reports refused connections, resets and DNS failures as TypeError('fetch failed').
  if (error instanceof TypeError || /ECONNREFUSED|ECONNRESET|ETIMEDOUT|socket|network/i.test(message))
    return new LlmError('unavailable', message);
  return new LlmError('bad_request', message);
}
