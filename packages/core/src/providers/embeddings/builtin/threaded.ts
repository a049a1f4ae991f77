import { builtinEmbeddingModel } from '@rhizome/contracts/settings';
import { ThreadClient } from '../../../threads/index.ts';
import { LlmError, type LlmErrorKind } from '../../llm/errors.ts';
import type { EmbeddingAdapter } from '../port.ts';
import { BuiltinEmbeddingAdapter } from './adapter.ts';

/**
 * Components after the word vectors' that the builtin embedder leaves at zero: the corpus part, which
 * semantic search fills from the database's own chunks (search/vectors/corpus, whose `corpusDimensions`
 * this equals). The embedder knows no database; search does.
 */
export const corpusComponents = 256;

/**
 * The builtin embedder of the platform, on its own thread: embedding is pure CPU, and on the caller's
 * thread a large ingest would stall every request the process serves (in the embedded default, the
 * API's). Its vectors are the word vectors' (adapter.ts) followed by `corpusComponents` zeros.
 */
export class ThreadedBuiltinEmbeddingAdapter implements EmbeddingAdapter {
  readonly provider = 'builtin' as const;
  readonly model = `${builtinEmbeddingModel}+corpus`;
  readonly maxBatch: number;
  private readonly local: BuiltinEmbeddingAdapter;
  private readonly thread = new ThreadClient<{ cacheDir: string; texts: string[] }, Float32Array[]>(
    new URL('./thread.ts', import.meta.url),
    (failure) =>
      failure.kind ? new LlmError(failure.kind as LlmErrorKind, failure.message) : new Error(failure.message),
  );

  constructor(private readonly options: { cacheDir: string }) {
    this.local = new BuiltinEmbeddingAdapter(options);
    this.maxBatch = this.local.maxBatch;
  }

  dimensions(): number {
    return this.local.dimensions() + corpusComponents;
  }

  async embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    const words = await this.thread.run({ cacheDir: this.options.cacheDir, texts }, signal).catch((error: unknown) => {
      throw signal.aborted ? new LlmError('cancelled', 'the embedding call was cancelled') : error;
    });
    return words.map((vector) => {
      const padded = new Float32Array(vector.length + corpusComponents);
      padded.set(vector);
      return padded;
    });
  }

  check(): Promise<{ ready: boolean; message: string }> {
    return this.local.check();
  }
}
