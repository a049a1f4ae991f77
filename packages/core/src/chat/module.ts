import type { PubSub, QueueService, TaskStore } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { FeatureModule } from '../module/index.ts';
import type { Providers } from '../providers/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import { ChatService } from './service.ts';
import { defineChatOperations } from './tasks.ts';

/** What the chat module needs of the process it runs in. */
export interface ChatHost {
  databases: DatabaseManager;
  settings: Pick<SettingsStore, 'get'>;
  providers: Pick<Providers, 'llm' | 'embeddings' | 'readiness'>;
  pubsub: PubSub;
  queue: QueueService;
  tasks: TaskStore;
}

/**
 * Chats: the API side (CRUD, turns queued, cancel, tool decisions) is the service; the worker answers
 * turns as `chat_completion` tasks on the llm lane.
 */
export const chatModule: FeatureModule<ChatService, ChatHost> = {
  name: 'chat',
  tables: ['chats', 'chat_messages', 'chat_tool_approvals'],
  defineTasks(registry, host) {
    defineChatOperations(registry, {
      databases: host.databases,
      settings: () => host.settings.get(),
      llm: host.providers.llm,
      embeddings: host.providers.embeddings,
      pubsub: host.pubsub,
    });
  },
  service: (host, { name, db }) =>
    new ChatService({
      db,
      database: name,
      settings: () => host.settings.get(),
      queue: host.queue,
      tasks: host.tasks,
      pubsub: host.pubsub,
      readiness: host.providers.readiness,
      llm: host.providers.llm,
    }),
};
