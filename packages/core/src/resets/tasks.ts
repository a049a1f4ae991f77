import { Conflict } from '@rhizome/contracts/errors';
import { PermanentTaskError } from '@rhizome/queue';
import { resetAutomation } from '../automation/index.ts';
import { chatModule } from '../chat/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import type { TaskRegistrar } from '../module/index.ts';
import { searchModule } from '../search/index.ts';
import type { ResetsHost } from './host.ts';
import { wipeKnowledge } from './knowledge.ts';

export const resetKnowledgeOperation = 'resets.knowledge';

/**
 * `resets.knowledge` (data `{database, everything}`) on the operations lane, in the process that owns the
 * vector indexes: the knowledge goes, then the full-text index is rebuilt and the open vector indexes
 * reconciled with what is left. With `everything`, templates, custom domains, chats and workflows go too
 * and the system workflow and trigger are seeded again. Run once: a refusal (a source began processing,
 * or for `everything` a chat answer or workflow run began, after it was queued) fails it without retries,
 * having wiped nothing.
 */
export function defineResetOperations(registry: TaskRegistrar, host: ResetsHost): void {
  registry.define(
    resetKnowledgeOperation,
    { queue: 'operations', retryOnTransient: false, retryOnCrash: false },
    async ({ task, logger }) => {
      const handle = await taskDatabaseFor(host.databases, task.data.database);
      const everything = task.data.everything === true;
      let wiped;
      try {
        // One long transaction on the bulk-writer connection, so requests keep reading meanwhile.
        const writer = await host.databases.bulkWriter(handle.name);
        wiped = await wipeKnowledge(writer, handle.name, host.paths, { everything });
      } catch (error) {
        if (error instanceof Conflict) throw new PermanentTaskError(error.message, 'Conflict');
        throw error;
      }
      await searchModule.service!(host, handle).rebuild();
      logger.info(
        `reset of '${handle.name}': ${wiped.sources_deleted} sources, ${wiped.nodes_deleted} nodes and ${wiped.edges_deleted} edges deleted`,
      );
      if (!everything) return wiped;
      const chats = chatModule.service!(host, handle);
      const chatsDeleted = await chats.count();
      await chats.deleteAll();
      const automation = await resetAutomation(handle.db);
      // The reseeded system trigger follows the auto-embedding setting, and every process drops its cached triggers.
      await host.automation.setAutoEmbedding(host.settings.get().embedding.enable_auto_embedding);
      return { ...wiped, chats_deleted: chatsDeleted, ...automation };
    },
  );
}
