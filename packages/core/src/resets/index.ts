export { resetsModule } from './module.ts';
export type { ProcessingStateReset } from './processing-state.ts';
export type { QueuedReset } from './service.ts';
export { resetKnowledgeOperation } from './tasks.ts';
