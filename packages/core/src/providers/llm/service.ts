import type { Settings } from '@rhizome/contracts/settings';
import type { LlmCallRecord } from '../metrics.ts';
import type { CallPolicy } from '../retry.ts';
import { completeWithPolicy, streamWithPolicy, type CallOutcome, type PolicyRequest } from './call-policy.ts';
import { modelFor, samplingFor } from './models.ts';
import type { ChatRequest, ChatResult, ChatStreamEvent, LlmAdapter } from './port.ts';

export interface LlmServiceDeps {
  settings(): Settings;
  /** The adapter of the configured chat provider, for these settings. */
  adapter(settings: Settings): LlmAdapter;
  record(call: LlmCallRecord): void;
}

/**
 * The one entry point for language-model calls: resolves provider, model, sampling and limits from
 * the current settings (so a settings change applies to the next call, no restart), runs the call
 * under the retry policy and records its metrics.
 */
export class LlmService {
  constructor(private readonly deps: LlmServiceDeps) {}

  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const { adapter, resolved, policy } = this.#prepare(request);
    return streamWithPolicy(adapter, resolved, policy, this.#recorder(adapter, request));
  }

  complete(request: ChatRequest): Promise<ChatResult> {
    const { adapter, resolved, policy } = this.#prepare(request);
    return completeWithPolicy(adapter, resolved, policy, this.#recorder(adapter, request));
  }

  #prepare(request: ChatRequest): { adapter: LlmAdapter; resolved: PolicyRequest; policy: CallPolicy } {
    const configured = this.deps.settings();
    const settings = request.provider
      ? { ...configured, llm: { ...configured.llm, chat_provider: request.provider } }
      : configured;
    const sampling = samplingFor(settings.llm, request.operation);
    const resolved: PolicyRequest = {
      ...request,
      model: request.model ?? modelFor(settings.llm, request.operation),
      temperature: request.temperature ?? sampling.temperature,
      maxTokens: request.maxTokens ?? sampling.maxTokens,
      thinking: request.thinking ?? sampling.thinking,
    };
    return { adapter: this.deps.adapter(settings), resolved, policy: llmCallPolicy(settings, request.timeoutMs) };
  }

  #recorder(adapter: LlmAdapter, request: ChatRequest): (outcome: CallOutcome) => void {
    const started = performance.now();
    return (outcome) =>
      this.deps.record({
        provider: adapter.provider,
        model: outcome.model,
        operation: request.operation,
        instanceId: outcome.instanceId,
        inputTokens: outcome.usage.inputTokens,
        outputTokens: outcome.usage.outputTokens,
        durationMs: performance.now() - started,
        attempts: outcome.attempts,
        success: outcome.error === null,
        errorKind: outcome.error?.kind,
        database: request.context?.database,
        sourceId: request.context?.sourceId,
        chatId: request.context?.chatId,
        taskId: request.context?.taskId,
      });
  }
}

/** The operator's retry and time-limit settings as a call policy. */
export function llmCallPolicy(settings: Settings, timeoutMs?: number): CallPolicy {
  return {
    maxRetries: settings.retries.llm_max_retries,
    retryDelaysMs: settings.backoff.retry_delays.map((seconds) => seconds * 1000),
    maxDelayMs: settings.backoff.max_seconds * 1000,
    timeoutMs: timeoutMs ?? settings.llm.llm_request_timeout * 1000,
    idleTimeoutMs: settings.timeouts.llm_stream_chunk_timeout * 1000,
  };
}
