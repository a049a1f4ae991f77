/**
 * The embedding models Settings offers: a curated list (the builtin model and well-tried models for a local
 * model server) and the hosted providers' models, each with its vector dimensions. A model whose dimensions
 * differ from `search.vector_dimensions` needs the stored vectors re-embedded (task `search.reembed`).
 */
import { builtinEmbeddingModel, type Settings } from '@rhizome/contracts/settings';
import { embeddingModelFor } from '../embeddings/models.ts';

export interface CuratedEmbeddingModel {
  name: string;
  /** Runs on this machine without a model server. */
  local: boolean;
  /** Pulled onto a local (Ollama) model server. */
  ollama: boolean;
  dimensions: number;
  /** Matryoshka-trained: a prefix of the vector is itself a usable, shorter embedding. */
  mrl: boolean;
  /** Rhizome's default model of its kind (the builtin one, `embedding.default_localllm_model`). */
  default: boolean;
  current: boolean;
}

export interface CloudEmbeddingModel {
  name: string;
  model: string;
  dimensions: number;
  mrl: boolean;
  current: boolean;
}

const curated: Omit<CuratedEmbeddingModel, 'default' | 'current'>[] = [
  { name: builtinEmbeddingModel, local: true, ollama: false, dimensions: 100, mrl: false },
  { name: 'qwen3-embedding:0.6b', local: false, ollama: true, dimensions: 1024, mrl: true },
  { name: 'qwen3-embedding:4b', local: false, ollama: true, dimensions: 2560, mrl: true },
  { name: 'embeddinggemma', local: false, ollama: true, dimensions: 768, mrl: true },
  { name: 'nomic-embed-text', local: false, ollama: true, dimensions: 768, mrl: true },
  { name: 'mxbai-embed-large', local: false, ollama: true, dimensions: 1024, mrl: true },
  { name: 'snowflake-arctic-embed2', local: false, ollama: true, dimensions: 1024, mrl: true },
  { name: 'bge-m3', local: false, ollama: true, dimensions: 1024, mrl: false },
  { name: 'all-minilm', local: false, ollama: true, dimensions: 384, mrl: false },
];

const cloud: Record<'openai' | 'gemini', Omit<CloudEmbeddingModel, 'current'>[]> = {
  openai: [
    { name: 'OpenAI text-embedding-3-small', model: 'text-embedding-3-small', dimensions: 1536, mrl: true },
    { name: 'OpenAI text-embedding-3-large', model: 'text-embedding-3-large', dimensions: 3072, mrl: true },
    { name: 'OpenAI text-embedding-ada-002', model: 'text-embedding-ada-002', dimensions: 1536, mrl: false },
  ],
  gemini: [
    { name: 'Gemini embedding 001', model: 'gemini-embedding-001', dimensions: 3072, mrl: true },
    { name: 'Gemini text-embedding-004', model: 'text-embedding-004', dimensions: 768, mrl: false },
  ],
};

/** The lists, with the configured model marked, and what the search index holds now. */
export function embeddingModelCatalogue(settings: Settings) {
  const { embedding, search } = settings;
  const model = embeddingModelFor(embedding);
  return {
    curated: curated.map((entry) => ({
      ...entry,
      default: entry.name === builtinEmbeddingModel || entry.name === embedding.default_localllm_model,
      current: (embedding.provider === 'builtin' || embedding.provider === 'localllm') && entry.name === model,
    })),
    cloud: {
      openai: cloud.openai.map((entry) => ({
        ...entry,
        current: embedding.provider === 'openai' && entry.model === model,
      })),
      gemini: cloud.gemini.map((entry) => ({
        ...entry,
        current: embedding.provider === 'gemini' && entry.model === model,
      })),
    },
    current: { provider: embedding.provider, model, vector_dimensions: search.vector_dimensions },
  };
}
