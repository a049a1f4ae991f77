import type { Settings } from '@rhizome/contracts/settings';
import type { Logger } from '../logging.ts';
import type { LlmCallRecord, LlmMetrics } from './metrics.ts';
import { LlmService } from './llm/service.ts';
import type { LlmAdapter } from './llm/port.ts';
import { BuiltinLlmAdapter } from './llm/builtin/adapter.ts';
import { EmbeddingService, type EmbeddingServiceIdentity } from './embeddings/service.ts';
import type { EmbeddingAdapter } from './embeddings/port.ts';
import { ThreadedBuiltinEmbeddingAdapter } from './embeddings/builtin/threaded.ts';
import { LocalLlmPool } from './localllm/pool.ts';
import { createLocalLlmChatAdapter } from './localllm/chat-adapter.ts';
import { createLocalLlmEmbeddingAdapter } from './localllm/embedding-adapter.ts';
import { createOpenAiChatAdapter } from './cloud/openai.ts';
import { createAnthropicChatAdapter } from './cloud/anthropic.ts';
import { createGeminiChatAdapter } from './cloud/gemini.ts';
import { createOpenAiEmbeddingAdapter } from './cloud/openai-embeddings.ts';
import { createGeminiEmbeddingAdapter } from './cloud/gemini-embeddings.ts';
import { ReadinessGate } from './readiness.ts';
import { embeddingModelFor } from './embeddings/models.ts';

export interface ProvidersOptions {
  settings(): Settings;
  onSettingsChange(listener: (settings: Settings) => void): void;
  metrics: LlmMetrics;
  logger: Logger;
  /** Where the builtin embedder keeps its converted vectors. */
  modelsDir: string;
}

/**
 * The model providers of one process: adapters chosen from the current settings (rebuilt when the
 * settings change, so no restart is needed), the local model server pool, the LLM and embedding
 * services, the readiness gate and the metrics they write.
 */
export class Providers {
  readonly localPool: LocalLlmPool;
  readonly llm: LlmService;
  readonly embeddings: EmbeddingService;
  readonly readiness: ReadinessGate;
  readonly metrics: LlmMetrics;
  readonly #builtinLlm = new BuiltinLlmAdapter();
  readonly #builtinEmbeddings: ThreadedBuiltinEmbeddingAdapter;
  readonly #chatAdapters = new WeakMap<Settings['llm'], LlmAdapter>();
  readonly #embeddingAdapters = new WeakMap<Settings['embedding'], EmbeddingAdapter>();
  readonly #identityListeners = new Set<(identity: EmbeddingServiceIdentity) => void>();

  constructor(private readonly options: ProvidersOptions) {
    const llm = options.settings().llm;
    this.metrics = options.metrics;
    this.localPool = new LocalLlmPool({ instances: llm.localllm_instances, strategy: llm.localllm_load_balancing });
    options.onSettingsChange((next) =>
      this.localPool.update(next.llm.localllm_instances, next.llm.localllm_load_balancing),
    );
    this.#builtinEmbeddings = new ThreadedBuiltinEmbeddingAdapter({ cacheDir: options.modelsDir });
    const record = (call: LlmCallRecord) => {
      this.metrics.record(call).catch((error: unknown) => options.logger.warning(`llm metrics: ${String(error)}`));
    };
    const chatAdapter = (settings: Settings) => this.chatAdapter(settings);
    this.llm = new LlmService({ settings: options.settings, adapter: chatAdapter, record });
    this.embeddings = new EmbeddingService({
      settings: options.settings,
      adapter: (settings) => this.embeddingAdapter(settings),
      record,
    });
    this.readiness = new ReadinessGate(options.settings, chatAdapter);
    let identity = identityKey(this.embeddings.identity());
    options.onSettingsChange(() => {
      const next = this.embeddings.identity();
      if (identityKey(next) === identity) return;
      identity = identityKey(next);
      for (const listener of this.#identityListeners) listener(next);
    });
  }

  /**
   * Called when the embedding provider or model changes: vectors made before no longer compare with new
   * ones, so every vector index must be rebuilt. Returns the unsubscribe function.
   */
  onEmbeddingIdentityChange(listener: (identity: EmbeddingServiceIdentity) => void): () => void {
    this.#identityListeners.add(listener);
    return () => this.#identityListeners.delete(listener);
  }

  chatAdapter(settings: Settings): LlmAdapter {
    let adapter = this.#chatAdapters.get(settings.llm);
    if (!adapter) {
      adapter = this.#createChatAdapter(settings.llm);
      this.#chatAdapters.set(settings.llm, adapter);
    }
    return adapter;
  }

  embeddingAdapter(settings: Settings): EmbeddingAdapter {
    let adapter = this.#embeddingAdapters.get(settings.embedding);
    if (!adapter) {
      adapter = this.#createEmbeddingAdapter(settings);
      this.#embeddingAdapters.set(settings.embedding, adapter);
    }
    return adapter;
  }

  /** Names of the models on the healthy local model servers; null when none answers. */
  async installedLocalModels(): Promise<string[] | null> {
    const instances = await this.localPool.probeAll(AbortSignal.timeout(5000));
    const healthy = instances.filter((instance) => instance.healthy);
    if (!healthy.length) return null;
    return [...new Set(healthy.flatMap((instance) => instance.models ?? []))];
  }

  #createChatAdapter(llm: Settings['llm']): LlmAdapter {
    switch (llm.chat_provider) {
      case 'builtin':
        return this.#builtinLlm;
      case 'localllm':
        return createLocalLlmChatAdapter(this.localPool, llm);
      case 'openai':
        return createOpenAiChatAdapter(llm);
      case 'anthropic':
        return createAnthropicChatAdapter(llm);
      case 'gemini':
        return createGeminiChatAdapter(llm);
    }
  }

  #createEmbeddingAdapter(settings: Settings): EmbeddingAdapter {
    const { embedding } = settings;
    const model = embeddingModelFor(embedding);
    switch (embedding.provider) {
      case 'builtin':
        return this.#builtinEmbeddings;
      case 'localllm':
        return createLocalLlmEmbeddingAdapter(this.localPool, { model, instanceId: embedding.localllm_instance_id });
      case 'openai':
        return createOpenAiEmbeddingAdapter({
          model,
          apiKey: embedding.api_key ?? settings.llm.openai_api_key,
          baseUrl: embedding.api_base ?? settings.llm.openai_base_url,
          maxBatch: settings.batching.embedding_api_batch_size,
        });
      case 'gemini':
        return createGeminiEmbeddingAdapter({
          model,
          apiKey: embedding.api_key ?? settings.llm.gemini_api_key,
          baseUrl: embedding.api_base ?? settings.llm.gemini_base_url,
          maxBatch: settings.batching.embedding_api_batch_size,
        });
    }
  }
}

function identityKey(identity: EmbeddingServiceIdentity): string {
  return `${identity.provider}/${identity.model}`;
}
