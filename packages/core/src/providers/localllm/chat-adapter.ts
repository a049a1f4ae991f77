import { createOllama } from 'ollama-ai-provider-v2';
import { modelServerFetch } from '../model-server-fetch.ts';
import type { Settings } from '@rhizome/contracts/settings';
import { AiSdkChatAdapter } from '../llm/ai-sdk.ts';
import { LlmError } from '../llm/errors.ts';
import type { AdapterRequest, ChatStreamEvent, LlmAdapter, ModelsCheck } from '../llm/port.ts';
import { hasModel, isTimeout, ollamaError } from './client.ts';
import type { LocalLlmPool } from './pool.ts';

type LlmSettings = Settings['llm'];

/**
 * Chat over the pool of local Ollama servers: each call picks an instance, counts as in flight on it,
 * reports a failure to the pool, and names the instance on its finish event.
 */
export function createLocalLlmChatAdapter(pool: LocalLlmPool, llm: LlmSettings): LlmAdapter {
  const adapters = new Map<string, AiSdkChatAdapter>();
  // `${base_url} ${model}` of models the server said cannot think, so later calls do not ask.
  const cannotThink = new Set<string>();
  const check = (models: string[], signal: AbortSignal) => checkModels(pool, models, signal);

  const adapterFor = (baseUrl: string): AiSdkChatAdapter => {
    let adapter = adapters.get(baseUrl);
    if (!adapter) {
      const ollama = createOllama({ baseURL: `${baseUrl}/api`, fetch: ollamaFetch(llm.localllm_num_batch) });
      adapter = new AiSdkChatAdapter({
        provider: 'localllm',
        languageModel: (model) => ollama.chat(model),
        check,
        // The provider sends top-level temperature/max_output_tokens, which Ollama ignores; `options` is what it reads.
        providerOptions: (request) => ({
          ollama: {
            think: request.thinking === true,
            options: {
              num_ctx: llm.localllm_num_ctx,
              temperature: request.temperature,
              num_predict: request.maxTokens,
            },
          },
        }),
      });
      adapters.set(baseUrl, adapter);
    }
    return adapter;
  };

  async function* stream(request: AdapterRequest): AsyncIterable<ChatStreamEvent> {
    const instance = pool.pick();
    const release = pool.track(instance.id);
    const adapter = adapterFor(instance.base_url);
    const key = `${instance.base_url} ${request.model}`;
    const thinking = (request.thinking ?? false) && !cannotThink.has(key);
    try {
      try {
        yield* withInstance(adapter.stream({ ...request, thinking }), instance.id);
      } catch (error) {
        // Ollama refuses `think` for models without the capability before answering anything, so asking again is safe.
        if (!thinking || !refusesThinking(error)) throw error;
        cannotThink.add(key);
        yield* withInstance(adapter.stream({ ...request, thinking: false }), instance.id);
      }
    } catch (error) {
      if (error instanceof LlmError) pool.reportFailure(instance.id, asTimeout(error, request.signal));
      throw error;
    } finally {
      release();
    }
  }

  return { provider: 'localllm', stream, check };
}

async function* withInstance(
  events: AsyncIterable<ChatStreamEvent>,
  instanceId: string,
): AsyncIterable<ChatStreamEvent> {
  for await (const event of events) yield event.type === 'finish' ? { ...event, instanceId } : event;
}

function refusesThinking(error: unknown): boolean {
  return error instanceof LlmError && error.status === 400 && /does not support thinking/i.test(error.message);
}

/** The AI SDK reports every abort as a cancellation; the pool must know when a time limit ran out. */
function asTimeout(error: LlmError, signal: AbortSignal): LlmError {
  return error.kind === 'cancelled' && signal.aborted && isTimeout(signal.reason)
    ? new LlmError('timeout', error.message)
    : error;
}

/**
 * Adapts ollama-ai-provider-v2 to Ollama's wire format: it strips `num_batch` from the options it
 * validates, so it is added to the request body here; and it parses error bodies as `{error: {message}}`
 * while Ollama sends `{error: "..."}`, so those are rewritten to keep Ollama's message.
 */
function ollamaFetch(numBatch: number): typeof fetch {
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? withNumBatch(init.body, numBatch) : init?.body;
    const response = await modelServerFetch(input, { ...init, body });
    if (response.ok) return response;
    const text = await response.text();
    const message = ollamaError(text);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(message === null ? text : JSON.stringify({ error: { message } }), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

function withNumBatch(body: string, numBatch: number): string {
  const payload = JSON.parse(body) as { options?: Record<string, unknown> };
  return JSON.stringify({ ...payload, options: { ...payload.options, num_batch: numBatch } });
}

/** Verified when at least one enabled instance answers; a model is missing when an answering instance lacks it. */
async function checkModels(pool: LocalLlmPool, models: string[], signal: AbortSignal): Promise<ModelsCheck> {
  const probes = (await pool.probeAll(signal)).filter((probe) => probe.enabled);
  const answering = probes.filter((probe) => probe.healthy);
  if (!answering.length) {
    const reasons = probes.map((probe) => `${probe.name || probe.id}: ${probe.error ?? 'no answer'}`).join('; ');
    return {
      verified: false,
      missingModels: [],
      message: probes.length ? `no local model server answers (${reasons})` : 'no local model server is enabled',
    };
  }
  const gaps = answering.flatMap((probe) => {
    const missing = [...new Set(models)].filter((model) => probe.models !== null && !hasModel(probe.models, model));
    return missing.length ? [`${probe.name || probe.id} lacks ${missing.join(', ')}`] : [];
  });
  const missingModels = [...new Set(models)].filter((model) =>
    answering.some((probe) => probe.models !== null && !hasModel(probe.models, model)),
  );
  const answered = `${answering.length} of ${probes.length} local model servers answer`;
  return {
    verified: true,
    missingModels,
    message: gaps.length ? `${answered}; ${gaps.join('; ')} (pull with "ollama pull <model>")` : answered,
  };
}
