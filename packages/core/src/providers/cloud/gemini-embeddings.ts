import type { EmbeddingAdapter } from '../embeddings/port.ts';
import { geminiKeyHeaders } from './gemini.ts';
import { HostedEmbeddingAdapter, type HostedEmbeddingConfig } from './hosted-embeddings.ts';
import { withoutTrailingSlash } from './http.ts';

const catalogue: Record<string, number> = {
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
};

/** `POST {base}/models/{model}:batchEmbedContents`, even for one text. */
export function createGeminiEmbeddingAdapter(config: HostedEmbeddingConfig): EmbeddingAdapter {
  const base = withoutTrailingSlash(config.baseUrl);
  const model = config.model.replace(/^models\//, '');
  return new HostedEmbeddingAdapter({
    provider: 'gemini',
    model,
    maxBatch: config.maxBatch,
    catalogue,
    headers: geminiKeyHeaders(config.apiKey, 'embedding.api_key or llm.gemini_api_key'),
    url: `${base}/models/${model}:batchEmbedContents`,
    body: (texts) => ({
      requests: texts.map((text) => ({ model: `models/${model}`, content: { parts: [{ text }] } })),
    }),
    vectorsOf: (answer) => (answer as { embeddings: { values: unknown }[] }).embeddings.map((entry) => entry.values),
  });
}
