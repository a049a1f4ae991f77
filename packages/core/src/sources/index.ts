export {
  chunksLackingVectors,
  markChunksEmbedded,
  storeChunkVectors,
  storeChunkVectorsById,
  type ChunkToEmbed,
  type ChunkVector,
  type ChunkVectorById,
} from './chunk-vectors.ts';
export { chunkRange, sourceChunks, type ChunkRow } from './chunks.ts';
export { domainRegistryFor } from './domains/custom.ts';
export { fallbackDomain } from './domains/detect.ts';
export { builtinDomains, defaultExamplesMaxChars, domainSummary, promptTokens } from './domains/registry.ts';
export type {
  DomainDefinition,
  EdgeTemplateDefinition,
  FilteringMode,
  NodeTemplateDefinition,
} from './domains/schema.ts';
export { incomingDir, originalPath, removeSourceFiles } from './files.ts';
export { storeChunkRows } from './indexing.ts';
export { sniffFile } from './loaders/sniff-file.ts';
export { sourcesModule } from './module.ts';
export { fetchUrlOperation } from './operation-names.ts';
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
export { SourceService, newSourceId, type ReceivedFile, type SourceExtraction } from './service.ts';
export { defineSourceOperations } from './tasks.ts';
export { pageAtOffset, type PageStart } from './text/chunk.ts';
export {
  filterForExtraction,
  filteringPreset,
  type EvidenceMode,
  type FilteringPreset,
} from './text/content-filter.ts';
export { extractionGroups, sampleGroups, type ExtractionGroup } from './text/groups.ts';
export {
  UrlFetchError,
  UrlRefusedError,
  checkUrl,
  pinnedLookup,
  pinnedRequestOptions,
  vetHost,
} from './url-import/fetch-url.ts';
export { urlErrorTypes, type StagedFetch } from './url-import/staging.ts';
