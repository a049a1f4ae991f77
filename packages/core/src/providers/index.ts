export { cloudModelCatalog, cloudModelsOf, requireCloudModels } from './catalog/cloud-models.ts';
export { embeddingModelCatalogue } from './catalog/embedding-models.ts';
export { presetApplyOutcome, presetSettingsPatch, requirePreset, vramPresets } from './catalog/presets.ts';
export { createAnthropicChatAdapter } from './cloud/anthropic.ts';
export { createGeminiChatAdapter } from './cloud/gemini.ts';
export { createOpenAiChatAdapter } from './cloud/openai.ts';
export { BuiltinEmbeddingAdapter } from './embeddings/builtin/adapter.ts';
export { binaryPath, openWordVectors } from './embeddings/builtin/word-vectors.ts';
export { embedWithPolicy } from './embeddings/embed-policy.ts';
export type { EmbeddingAdapter, EmbeddingIdentity } from './embeddings/port.ts';
export type { EmbeddingService, EmbeddingServiceIdentity } from './embeddings/service.ts';
export { Providers } from './hub.ts';
export { places } from './llm/builtin/gazetteer.ts';
export { isDemonym } from './llm/builtin/readable.ts';
export { completeWithPolicy, streamWithPolicy, type CallPolicy } from './llm/call-policy.ts';
export { LlmError } from './llm/errors.ts';
export { LineSplitter, parseLine, type ExtractionRecord, type ParsedLine } from './llm/line-grammar.ts';
export { modelFor } from './llm/models.ts';
export type {
  ChatMessage,
  ChatStreamEvent,
  ExtractionTask,
  LlmAdapter,
  LlmCallContext,
  RetrievedPassage,
  TokenUsage,
  ToolCall,
  ToolDefinition,
} from './llm/port.ts';
export { llmCallPolicy, type LlmService } from './llm/service.ts';
export { createLocalLlmChatAdapter } from './localllm/chat-adapter.ts';
export { verifyServer } from './localllm/client.ts';
export { installedModels } from './localllm/installed.ts';
export { modelDetails, pullModel, removeModel } from './localllm/model-admin.ts';
export { LocalLlmPool } from './localllm/pool.ts';
export { LlmMetrics, type LlmTotals } from './metrics.ts';
export { namesMetadataHost } from './model-server-fetch.ts';
export { providersModule } from './module.ts';
export { llmQueueStats } from './queue-monitor.ts';
export type { ReadinessGate } from './readiness.ts';
export { sleep } from './retry.ts';
export { estimatedCost, hoursAgo, usageTotals, usesLocalServers } from './usage.ts';
export { visionReader, type VisionConfig, type VisionReader } from './vision/reader.ts';
