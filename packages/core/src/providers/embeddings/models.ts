import type { Settings } from '@rhizome/contracts/settings';
import { builtinEmbeddingModel } from '@rhizome/contracts/settings';

/** Each provider's model when `embedding.model` still names the builtin one (the operator only switched provider). */
const providerDefaults = { openai: 'text-embedding-3-small', gemini: 'gemini-embedding-001' } as const;

export function embeddingModelFor(embedding: Settings['embedding']): string {
  if (embedding.provider === 'builtin') return builtinEmbeddingModel;
  if (embedding.model !== builtinEmbeddingModel) return embedding.model;
  return embedding.provider === 'localllm' ? embedding.default_localllm_model : providerDefaults[embedding.provider];
}
