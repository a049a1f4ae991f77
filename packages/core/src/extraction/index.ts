export { mergedCitations } from './citations.ts';
export { commitExtraction } from './commit/commit.ts';
export { extractionModule } from './module.ts';
export { ExtractionService } from './service.ts';
export type { Evidence, FinalizeResult } from './types.ts';
export { AgentExtraction } from './agent/service.ts';
export { submitWholeGroup } from './agent/whole-group.ts';
export { agentExtractionFor } from './agent/abandonment.ts';
export { contentCategoriesOf } from './content-filter.ts';
