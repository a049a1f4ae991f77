import type { Automation } from '../automation/index.ts';
import type { ChatHost } from '../chat/index.ts';
import type { Logger } from '../logging.ts';
import type { ProcessingControls } from '../pause/index.ts';
import type { DataPaths } from '../paths.ts';
import type { VectorWriterSet } from '../search/index.ts';

/**
 * What the resets need of the process they run in: what the search service (the indexes to rebuild)
 * and the chat service (a full reset) are built from, the data paths and the automation's trigger reload.
 */
export interface ResetsHost extends ChatHost {
  vectorWriters: VectorWriterSet;
  processing: Pick<ProcessingControls, 'record'>;
  logger: Logger;
  paths: DataPaths;
  automation: Pick<Automation, 'setAutoEmbedding'>;
}
