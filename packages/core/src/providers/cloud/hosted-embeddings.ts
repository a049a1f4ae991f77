import type { EmbeddingProvider } from '@rhizome/contracts/settings';
import type { EmbeddingAdapter } from '../embeddings/port.ts';
import { LlmError } from '../llm/errors.ts';
import { requestJson } from './http.ts';

/** The default of `batching.embedding_api_batch_size`; OpenAI would take 2048 texts a call, Gemini 100. */
export const defaultEmbeddingBatch = 64;

/** What a hosted embedding adapter is built from, resolved from the settings by the caller. */
export interface HostedEmbeddingConfig {
  model: string;
  /** `embedding.api_key`, else the llm group's key for the provider. */
  apiKey: string | null;
  /** `embedding.api_base`, else the llm group's base URL for the provider. */
  baseUrl: string;
  /** Texts per call (`batching.embedding_api_batch_size`). */
  maxBatch?: number;
}

export interface HostedEmbeddingSpec {
  provider: EmbeddingProvider;
  model: string;
  maxBatch?: number;
  /** Dimensions of catalogued models; any other model's are learned from its first answer. */
  catalogue: Record<string, number>;
  /** Request headers, or the error every call fails with (a missing API key). */
  headers: Record<string, string> | LlmError;
  url: string;
  body(texts: string[]): unknown;
  /** The vectors in an answer, in text order; whatever this returns is validated afterwards. */
  vectorsOf(answer: unknown): unknown;
}

/**
 * An embedding adapter for a hosted model over plain fetch. Nothing is ever downloaded, so
 * `embedding.allow_model_download` does not apply; the adapter is ready as soon as its key is set.
 */
export class HostedEmbeddingAdapter implements EmbeddingAdapter {
  readonly provider: EmbeddingProvider;
  readonly model: string;
  readonly maxBatch: number;
  private knownDimensions: number | null;

  constructor(private readonly spec: HostedEmbeddingSpec) {
    this.provider = spec.provider;
    this.model = spec.model;
    this.maxBatch = spec.maxBatch ?? defaultEmbeddingBatch;
    this.knownDimensions = spec.catalogue[spec.model] ?? null;
  }

  dimensions(): number | null {
    return this.knownDimensions;
  }

  async embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    if (this.spec.headers instanceof LlmError) throw this.spec.headers;
    const answer = await requestJson(this.spec.url, {
      headers: this.spec.headers,
      body: this.spec.body(texts),
      signal,
    });
    const vectors = this.vectorsIn(answer);
    this.knownDimensions ??= vectors[0]?.length ?? null;
    return vectors.map((vector) => Float32Array.from(vector));
  }

  async check(): Promise<{ ready: boolean; message: string }> {
    if (this.spec.headers instanceof LlmError) return { ready: false, message: this.spec.headers.message };
    return {
      ready: true,
      message: `${this.provider} embedding model ${this.model} runs at the provider; nothing to download`,
    };
  }

  /** The answer's vectors, all of one length (the known one, once known): a change would corrupt the index. */
  private vectorsIn(answer: unknown): number[][] {
    let vectors: unknown;
    try {
      vectors = this.spec.vectorsOf(answer);
    } catch {
      vectors = null;
    }
    const valid =
      Array.isArray(vectors) &&
      vectors.every((vector) => Array.isArray(vector) && vector.every((value) => typeof value === 'number'));
    if (!valid) throw new LlmError('bad_request', `${this.provider} answered without embedding vectors`);
    const checked = vectors as number[][];
    const expected = this.knownDimensions ?? checked[0]?.length;
    const wrong = checked.find((vector) => vector.length !== expected);
    if (wrong)
      throw new LlmError(
        'bad_request',
        `${this.provider} returned ${wrong.length}-dimensional vectors, expected ${expected}`,
      );
    return checked;
  }
}
