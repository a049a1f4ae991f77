import type { EmbeddingProvider } from '@rhizome/contracts/settings';

/**
 * The embedding port. Features call `EmbeddingService` (service.ts), which batches, retries and
 * truncates; adapters implement `EmbeddingAdapter` and embed one provider-sized batch per call.
 */

/** Which vectors an index holds: a change of any field means the index must be rebuilt. */
export interface EmbeddingIdentity {
  provider: EmbeddingProvider;
  model: string;
  dimensions: number;
}

export interface EmbeddingAdapter {
  readonly provider: EmbeddingProvider;
  readonly model: string;
  /** Known up front for builtin and catalogued models; otherwise learned from the first answer. */
  dimensions(): number | null;
  /** Largest number of texts one call may carry. */
  readonly maxBatch: number;
  /** One batch, one vector per text, in order. Throws `LlmError` (shared with the LLM port) on failure. */
  embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]>;
  /** Cheap readiness check: model files present, server reachable, credentials set. */
  check(signal: AbortSignal): Promise<{ ready: boolean; message: string }>;
  close?(): Promise<void>;
}
