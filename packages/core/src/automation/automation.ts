import type { Settings } from '@rhizome/contracts/settings';
import type { PubSub, QueueService } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { GraphEventBus } from '../graph/index.ts';
import type { Logger } from '../logging.ts';
import { Broadcast } from '../pubsub/index.ts';
import { submitExecution, type ExecutionTaskData } from './engine/operation.ts';
import { generateEmbeddingsWorkflowId, setSystemTriggersEnabled } from './seeds.ts';
import { newId } from './rows.ts';
import { TriggerDispatcher } from './triggers/dispatcher.ts';

export interface AutomationDeps {
  databases: DatabaseManager;
  settings(): Settings;
  queue: QueueService;
  events: GraphEventBus;
  pubsub: PubSub;
  /** This process, for the broadcast that tells the others to reload their triggers. */
  origin: string;
  logger: Logger;
}

/** Workflows, executions and triggers as the platform offers them to the API and the worker. */
export interface Automation {
  dispatcher: TriggerDispatcher;
  /** Triggers or workflows of `database` changed: every process reloads its cached triggers. */
  triggersChanged(database: string): Promise<void>;
  /** Switches the system triggers of every database (`embedding.enable_auto_embedding`). */
  setAutoEmbedding(enabled: boolean): Promise<void>;
  run(data: ExecutionTaskData): ReturnType<typeof submitExecution>;
  /**
   * A node's label or description was edited, which dropped its vector: runs the system "Generate
   * Embeddings" workflow for it, as its creation did, while auto-embedding is on (editing emits no
   * graph event for the trigger to hear).
   */
  reembedNode(database: string, nodeId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The process-wide part of automation: the trigger dispatcher listening to this process's graph events,
 * and the broadcast that keeps every process's cached triggers current. The execution task itself is
 * defined by the module (`automationModule.defineTasks`).
 */
export async function startAutomation(deps: AutomationDeps): Promise<Automation> {
  const dispatcher = new TriggerDispatcher({
    databases: deps.databases,
    queue: deps.queue,
    priority: () => deps.settings().priorities.background,
    logger: deps.logger,
  });
  const unsubscribe = deps.events.subscribe(dispatcher.onGraphEvent);
  const sync = new Broadcast<{ database: string | null }>(deps.pubsub, 'rhizome:triggers:changed', deps.origin);
  await sync.listen(({ database }) => dispatcher.invalidate(database ?? undefined));
  const changed = async (database: string | null) => {
    dispatcher.invalidate(database ?? undefined);
    await sync.announce({ database });
  };
  return {
    dispatcher,
    triggersChanged: (database) => changed(database),
    async setAutoEmbedding(enabled) {
      for (const { name, exists } of deps.databases.list())
        if (exists) await setSystemTriggersEnabled(await deps.databases.connection(name), enabled);
      await changed(null);
    },
    run: (data) => submitExecution(deps.queue, data, deps.settings().priorities.background),
    async reembedNode(database, nodeId) {
      if (!deps.settings().embedding.enable_auto_embedding) return;
      await submitExecution(
        deps.queue,
        {
          database,
          execution_id: newId('exec'),
          workflow_id: generateEmbeddingsWorkflowId,
          inputs: { entity_id: nodeId, entity_type: 'node' },
          trigger_id: null,
        },
        deps.settings().priorities.background,
      );
    },
    async close() {
      unsubscribe();
      await sync.stop();
      await dispatcher.settled();
    },
  };
}
