import type { FeatureModule } from '../platform/index.ts';
import { defineSystemOperations } from './system-tasks.ts';

/**
 * Tasks: the queue every feature submits to (`queue.db` or Redis, through `platform.tasks` and
 * `platform.queue`), the system operations every installation has, and the queue's health.
 */
export const tasksModule: FeatureModule = {
  name: 'tasks',
  tables: [],
  defineTasks: (registry) => defineSystemOperations(registry),
  health: (platform) => ({
    queue: async () => {
      await Promise.all([platform.tasks.ping(), platform.pubsub.publish('rhizome:health', 'ping')]);
      return { status: 'ok', details: { backend: platform.tasks.kind } };
    },
  }),
};
