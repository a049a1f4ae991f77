export {
  chunksLackingVectors,
  markChunksEmbedded,
  storeChunkVectors,
  storeChunkVectorsById,
  type ChunkVectorById,
} from './chunk-vectors.ts';
export { chunkRange, sourceChunks, type ChunkRow, type ChunkView } from './chunks.ts';
export { domainRegistryFor } from './domains/custom.ts';
export { detectDomain, detectionSamples, fallbackDomain } from './domains/detect.ts';
export { builtinDomains, defaultExamplesMaxChars, promptTokens } from './domains/registry.ts';
export { contentCategories } from './domains/schema.ts';
export type {
  ContentCategory,
  DomainDefinition,
  EdgeTemplateDefinition,
  FilteringMode,
  NodeTemplateDefinition,
} from './domains/schema.ts';
export { incomingDir, originalPath, removeSourceFiles } from './files.ts';
export { storeChunkRows } from './indexing.ts';
export { allowedType } from './loaders/allowed-type.ts';
export { sourcesModule } from './module.ts';
export type { PreparedChunk } from './prepare/prepare.ts';
export {
  getSource,
  idleSources,
  sourceIdsIn,
  sourceStatuses,
  sourcesInProgress,
  updateSource,
  withLoaderWarning,
  type SourceRow,
} from './repo.ts';
export { requireSources } from './require-sources.ts';
export { clearCustomDomains, clearSources, forgetExtractionRuns, processingSourceIds } from './reset.ts';
export { newSourceId, type ReceivedFile } from './service.ts';
export { pageAtOffset, type PageStart } from './text/chunk.ts';
export { sentenceSpans } from './text/sentences.ts';
export {
  UrlFetchError,
  UrlRefusedError,
  checkUrl,
  pinnedLookup,
  pinnedRequestOptions,
  vetHost,
} from './url-import/fetch-url.ts';
