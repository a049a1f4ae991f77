import type { QueueService, TaskStore } from '@rhizome/queue';
import type { Automation } from '../automation/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import type { GraphEventBus } from '../graph/index.ts';
import type { DataPaths } from '../paths.ts';
import type { Providers } from '../providers/index.ts';
import type { VectorWriterSet } from '../search/index.ts';
import type { SettingsStore } from '../settings/index.ts';

/** What the CCX module (its tasks, its service and the import it queues) needs of the process it runs in. */
export interface CcxHost {
  databases: DatabaseManager;
  paths: DataPaths;
  settings: Pick<SettingsStore, 'get'>;
  providers: Pick<Providers, 'embeddings'>;
  queue: QueueService;
  tasks: TaskStore;
  graphEvents: GraphEventBus;
  vectorWriters: VectorWriterSet;
  automation: Pick<Automation, 'triggersChanged'>;
  version: string;
}
