export { AnswerInProgress } from './answer-in-progress.ts';
export type { ChunkCitation } from './citations.ts';
export { isFinalEvent, subscribeChatEvents, type ChatEvent } from './events.ts';
export { chatToMarkdown, exportFilename } from './export.ts';
export { ChatEventFeed } from './feed.ts';
export { chatModule } from './module.ts';
export { reconcileChats } from './reconcile.ts';
export { ChatService, type ScopeInput } from './service.ts';
export type { TurnOptions } from './turn.ts';
