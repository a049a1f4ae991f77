import type { Settings } from '@rhizome/contracts/settings';
import type { LlmCallRecord } from '../metrics.ts';
import { llmCallPolicy } from '../llm/service.ts';
import type { LlmCallContext } from '../llm/port.ts';
import { embedWithPolicy } from './embed-policy.ts';
import type { EmbeddingAdapter, EmbeddingIdentity } from './port.ts';

export interface EmbeddingServiceDeps {
  settings(): Settings;
  adapter(settings: Settings): EmbeddingAdapter;
  record(call: LlmCallRecord): void;
}

/** The vectors produced now; dimensions are null until a remote model has answered once. */
export type EmbeddingServiceIdentity = Omit<EmbeddingIdentity, 'dimensions'> & { dimensions: number | null };

export interface EmbedOptions {
  signal?: AbortSignal;
  context?: LlmCallContext;
}

/**
 * The one entry point for embeddings: truncates to `embedding.max_text_length`, splits into provider
 * batches, runs `batching.embedding_concurrency` of them at once under the retry policy, and records
 * one metrics row per call. Vectors come back in input order.
 */
export class EmbeddingService {
  constructor(private readonly deps: EmbeddingServiceDeps) {}

  identity(): EmbeddingServiceIdentity {
    const adapter = this.deps.adapter(this.deps.settings());
    return { provider: adapter.provider, model: adapter.model, dimensions: adapter.dimensions() };
  }

  check(signal: AbortSignal): Promise<{ ready: boolean; message: string }> {
    return this.deps.adapter(this.deps.settings()).check(signal);
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const settings = this.deps.settings();
    const adapter = this.deps.adapter(settings);
    const limit = settings.embedding.max_text_length;
    const prepared = texts.map((text) => (text.length > limit ? text.slice(0, limit) : text));
    const batchSize = Math.max(1, Math.min(adapter.maxBatch, settings.batching.embedding_api_batch_size));
    const batches: number[] = [];
    for (let start = 0; start < prepared.length; start += batchSize) batches.push(start);
    const vectors: Float32Array[] = new Array(prepared.length);
    const policy = llmCallPolicy(settings, settings.timeouts.llm_embedding_wait * 1000);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const start = batches[next++];
        const result = await embedWithPolicy(adapter, prepared.slice(start, start + batchSize), policy, options.signal);
        for (const [offset, vector] of result.entries()) vectors[start + offset] = vector;
      }
    };
    const started = performance.now();
    // One metrics row per call, not per provider batch: indexing embeds in waves of thousands of texts.
    const record = (success: boolean, errorKind?: string) =>
      this.deps.record({
        provider: adapter.provider,
        model: adapter.model,
        operation: 'embedding',
        inputTokens: prepared.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0),
        outputTokens: 0,
        durationMs: performance.now() - started,
        attempts: batches.length,
        success,
        errorKind,
        database: options.context?.database,
        sourceId: options.context?.sourceId,
        chatId: options.context?.chatId,
        taskId: options.context?.taskId,
      });
    try {
      await Promise.all(
        Array.from({ length: Math.min(settings.batching.embedding_concurrency, batches.length) }, worker),
      );
    } catch (error) {
      record(false, (error as { kind?: string }).kind ?? 'unavailable');
      throw error;
    }
    record(true);
    return vectors;
  }
}
