import type { QueueService, TaskStore } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { GraphEventBus } from '../graph/index.ts';
import type { Logger } from '../logging.ts';
import type { Providers } from '../providers/index.ts';
import type { VectorWriterSet } from '../search/index.ts';
import type { SettingsStore } from '../settings/index.ts';

/** What the extraction module (its tasks, its services and its background sweep) needs of the process it runs in. */
export interface ExtractionHost {
  databases: DatabaseManager;
  settings: Pick<SettingsStore, 'get'>;
  providers: Pick<Providers, 'llm' | 'embeddings' | 'readiness' | 'metrics'>;
  queue: QueueService;
  tasks: TaskStore;
  graphEvents: GraphEventBus;
  vectorWriters: Pick<VectorWriterSet, 'nodes'>;
  logger: Logger;
}
