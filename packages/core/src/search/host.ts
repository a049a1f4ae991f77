import type { QueueService } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { Logger } from '../logging.ts';
import type { ProcessingControls } from '../pause/index.ts';
import type { Providers } from '../providers/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { VectorWriterSet } from './vectors/writers.ts';

/** What the search module (its service, tasks, health probe and background jobs) needs of the process it runs in. */
export interface SearchHost {
  databases: DatabaseManager;
  settings: Pick<SettingsStore, 'get'>;
  providers: Pick<Providers, 'embeddings'>;
  queue: QueueService;
  vectorWriters: VectorWriterSet;
  processing: Pick<ProcessingControls, 'record'>;
  logger: Logger;
}
