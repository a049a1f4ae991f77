import type { DatabaseManager } from '../databases/index.ts';
import type { TaskRegistrar } from '../module/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import type { GraphEventBus } from './events.ts';

/** What graph tasks need: the databases (a task names the one it was queued for) and the event bus. */
export interface GraphDeps {
  databases: DatabaseManager;
  events: GraphEventBus;
  embeddings: EmbeddingService;
}

/** How each group of graph tasks (batches, templates, maintenance) defines its operations. */
export type DefineOperations = (registry: TaskRegistrar, deps: GraphDeps) => void;
