import type { PubSub, TaskStore } from '@rhizome/queue';
import type { FeatureModule } from '../module/index.ts';
import { defineSystemOperations } from './system-tasks.ts';

/** What the tasks module needs of the process it runs in. */
export interface TasksHost {
  tasks: Pick<TaskStore, 'ping' | 'kind'>;
  pubsub: Pick<PubSub, 'publish'>;
}

/**
 * Tasks: the queue every feature submits to (`queue.db` or Redis, through `platform.tasks` and
 * `platform.queue`), the system operations every installation has, and the queue's health.
 */
export const tasksModule: FeatureModule<unknown, TasksHost> = {
  name: 'tasks',
  tables: [],
  defineTasks: (registry) => defineSystemOperations(registry),
  health: (host) => ({
    queue: async () => {
      await Promise.all([host.tasks.ping(), host.pubsub.publish('rhizome:health', 'ping')]);
      return { status: 'ok', details: { backend: host.tasks.kind } };
    },
  }),
};
