import type { EmbeddingService } from '../providers/index.ts';
import type { TaskRegistrar } from '../platform/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import { defineGraphBatchOperations } from './batch-tasks.ts';
import type { GraphEventBus } from './events.ts';
import { defineGraphMaintenanceOperations } from './maintenance-tasks.ts';
import { defineTemplateOperations } from './templates/tasks.ts';

/** What graph tasks need: the databases (a task names the one it was queued for) and the event bus. */
export interface GraphDeps {
  databases: DatabaseManager;
  events: GraphEventBus;
  embeddings: EmbeddingService;
}

export type DefineOperations = (registry: TaskRegistrar, deps: GraphDeps) => void;

/** Every graph feature's queue operations; each feature adds its definer here. */
export const graphOperationDefiners: DefineOperations[] = [
  defineTemplateOperations,
  defineGraphBatchOperations,
  defineGraphMaintenanceOperations,
];

export function defineGraphOperations(registry: TaskRegistrar, deps: GraphDeps): void {
  for (const define of graphOperationDefiners) define(registry, deps);
}
