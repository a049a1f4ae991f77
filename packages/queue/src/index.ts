export type { PubSub } from './pubsub.ts';
export { InProcessPubSub } from './in-process-pubsub.ts';
export { RedisPubSub } from './redis-pubsub.ts';
export * from './task.ts';
export type { TaskStore } from './store.ts';
export { EmbeddedTaskStore } from './embedded/store.ts';
export {
  OperationRegistry,
  type FailureHandler,
  type HandlerContext,
  type OperationOptions,
  type TaskHandler,
  type QueueLogger,
} from './registry.ts';
export { PermanentTaskError, TaskCancelledError, backoffMs, classifyError } from './errors.ts';
export { WorkerRuntime, type RuntimeSettings, type WorkerRuntimeOptions } from './runtime.ts';
export { QueueService, TaskNotFoundError, TaskStateError, type SubmitRequest } from './service.ts';
