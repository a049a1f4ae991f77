export type { PubSub } from './pubsub.ts';
export { InProcessPubSub } from './in-process-pubsub.ts';
export { RedisPubSub } from './redis-pubsub.ts';
