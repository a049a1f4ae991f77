import { serveThread } from '../../../threads/index.ts';
import { BuiltinEmbeddingAdapter } from './adapter.ts';

// Worker-thread entry: the builtin embedder, its word vectors loaded once in this thread.
const adapters = new Map<string, BuiltinEmbeddingAdapter>();

serveThread(async ({ cacheDir, texts }: { cacheDir: string; texts: string[] }) => {
  let adapter = adapters.get(cacheDir);
  if (!adapter) {
    adapter = new BuiltinEmbeddingAdapter({ cacheDir });
    adapters.set(cacheDir, adapter);
  }
  return adapter.embed(texts, new AbortController().signal);
});
