import type { FeatureModule } from '../platform/index.ts';
import { ChatService } from './service.ts';
import { defineChatOperations } from './tasks.ts';

/**
 * Chats: the API side (CRUD, turns queued, cancel, tool decisions) is the service; the worker answers
 * turns as `chat_completion` tasks on the llm lane.
 */
export const chatModule: FeatureModule<ChatService> = {
  name: 'chat',
  tables: ['chats', 'chat_messages', 'chat_tool_approvals'],
  defineTasks(registry, platform) {
    defineChatOperations(registry, {
      databases: platform.databases,
      settings: () => platform.settings.get(),
      llm: platform.providers.llm,
      embeddings: platform.providers.embeddings,
      pubsub: platform.pubsub,
    });
  },
  service: (platform, { name, db }) =>
    new ChatService({
      db,
      database: name,
      settings: () => platform.settings.get(),
      queue: platform.queue,
      tasks: platform.tasks,
      pubsub: platform.pubsub,
      readiness: platform.providers.readiness,
      llm: platform.providers.llm,
    }),
};
