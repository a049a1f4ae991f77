import { ThreadClient } from '../../../threads/index.ts';
import { LlmError, type LlmErrorKind } from '../../llm/errors.ts';
import type { EmbeddingAdapter } from '../port.ts';
import { BuiltinEmbeddingAdapter } from './adapter.ts';

/**
 * The builtin embedder on its own thread: embedding is pure CPU, and on the caller's thread a large
 * ingest would stall every request the process serves (in the embedded default, the API's).
 */
export class ThreadedBuiltinEmbeddingAdapter implements EmbeddingAdapter {
  readonly provider = 'builtin' as const;
  readonly model: string;
  readonly maxBatch: number;
  private readonly local: BuiltinEmbeddingAdapter;
  private readonly thread = new ThreadClient<{ cacheDir: string; texts: string[] }, Float32Array[]>(
    new URL('./thread.ts', import.meta.url),
    (failure) =>
      failure.kind ? new LlmError(failure.kind as LlmErrorKind, failure.message) : new Error(failure.message),
  );

  constructor(private readonly options: { cacheDir: string }) {
    this.local = new BuiltinEmbeddingAdapter(options);
    this.model = this.local.model;
    this.maxBatch = this.local.maxBatch;
  }

  dimensions(): number {
    return this.local.dimensions();
  }

  embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    return this.thread.run({ cacheDir: this.options.cacheDir, texts }, signal).catch((error: unknown) => {
      throw signal.aborted ? new LlmError('cancelled', 'the embedding call was cancelled') : error;
    });
  }

  check(): Promise<{ ready: boolean; message: string }> {
    return this.local.check();
  }
}
