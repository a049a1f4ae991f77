import type { PubSub, QueueService, TaskStore } from '@rhizome/queue';
import type { Automation } from '../automation/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import type { Logger } from '../logging.ts';
import type { ProcessingControls } from '../pause/index.ts';
import type { DataPaths } from '../paths.ts';
import type { Providers } from '../providers/index.ts';
import type { VectorWriterSet } from '../search/index.ts';
import type { SettingsStore } from '../settings/index.ts';

/**
 * What the resets need of the process they run in: what the search service (the indexes to rebuild)
 * and the chat service (a full reset) are built from, the data paths and the automation's trigger reload.
 */
export interface ResetsHost {
  databases: DatabaseManager;
  settings: Pick<SettingsStore, 'get'>;
  providers: Pick<Providers, 'llm' | 'embeddings' | 'readiness'>;
  pubsub: PubSub;
  queue: QueueService;
  tasks: TaskStore;
  vectorWriters: VectorWriterSet;
  processing: Pick<ProcessingControls, 'record'>;
  logger: Logger;
  paths: DataPaths;
  automation: Pick<Automation, 'setAutoEmbedding'>;
}
