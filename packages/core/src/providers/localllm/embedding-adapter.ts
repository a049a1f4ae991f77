import type { EmbeddingAdapter } from '../embeddings/port.ts';
import { LlmError } from '../llm/errors.ts';
import { hasModel, OllamaClient } from './client.ts';
import type { LocalLlmPool } from './pool.ts';

export interface LocalLlmEmbeddingOptions {
  model: string;
  /** `embedding.localllm_instance_id`: used while it is enabled and healthy, else the pool picks. */
  instanceId?: string;
  maxBatch?: number;
}

/**
 * Embeddings from a local Ollama server via `/api/embed`. The adapter never pulls weights, whatever
 * `allow_model_download` says: a missing model makes `check()` not ready and names the model.
 */
export function createLocalLlmEmbeddingAdapter(
  pool: LocalLlmPool,
  options: LocalLlmEmbeddingOptions,
): EmbeddingAdapter {
  let dimensions: number | null = null;

  return {
    provider: 'localllm',
    model: options.model,
    maxBatch: options.maxBatch ?? 64,
    dimensions: () => dimensions,

    async embed(texts, signal) {
      if (!texts.length) return [];
      const instance = pool.pick(options.instanceId);
      const release = pool.track(instance.id);
      try {
        const vectors = await new OllamaClient(instance.base_url).embed(options.model, texts, signal);
        dimensions ??= vectors[0]?.length ?? null;
        return vectors.map((vector) => Float32Array.from(vector));
      } catch (error) {
        if (error instanceof LlmError) pool.reportFailure(instance.id, error);
        throw error;
      } finally {
        release();
      }
    },

    async check(signal) {
      const answering = (await pool.probeAll(signal)).filter((probe) => probe.enabled && probe.healthy);
      const preferred = answering.find((probe) => probe.id === options.instanceId);
      const candidates = preferred ? [preferred] : answering;
      if (!candidates.length) return { ready: false, message: 'no local model server answers' };
      const lacking = candidates.filter((probe) => probe.models === null || !hasModel(probe.models, options.model));
      if (lacking.length) {
        const where = lacking.map((probe) => probe.name || probe.id).join(', ');
        return {
          ready: false,
          message: `embedding model "${options.model}" is not installed on ${where}; run "ollama pull ${options.model}" there (the service never downloads models)`,
        };
      }
      return { ready: true, message: `embedding model "${options.model}" is available` };
    },
  };
}
