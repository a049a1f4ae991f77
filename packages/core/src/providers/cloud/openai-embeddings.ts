import type { EmbeddingAdapter } from '../embeddings/port.ts';
import { HostedEmbeddingAdapter, type HostedEmbeddingConfig } from './hosted-embeddings.ts';
import { withoutTrailingSlash } from './http.ts';
import { openAiKeyHeaders } from './openai.ts';

const catalogue: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** `POST {base}/embeddings` on OpenAI or an OpenAI-compatible server (which may need no key). */
export function createOpenAiEmbeddingAdapter(config: HostedEmbeddingConfig): EmbeddingAdapter {
  const base = withoutTrailingSlash(config.baseUrl);
  return new HostedEmbeddingAdapter({
    provider: 'openai',
    model: config.model,
    maxBatch: config.maxBatch,
    catalogue,
    headers: openAiKeyHeaders(base, config.apiKey, 'embedding.api_key or llm.openai_api_key'),
    url: `${base}/embeddings`,
    body: (texts) => ({ model: config.model, input: texts }),
    vectorsOf: (answer) =>
      [...(answer as { data: { index: number; embedding: unknown }[] }).data]
        .sort((a, b) => a.index - b.index)
        .map((entry) => entry.embedding),
  });
}
