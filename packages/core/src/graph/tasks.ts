import type { TaskRegistrar } from '../module/index.ts';
import { defineGraphBatchOperations } from './batch-tasks.ts';
import type { DefineOperations, GraphDeps } from './deps.ts';
import { defineGraphMaintenanceOperations } from './maintenance-tasks.ts';
import { defineTemplateOperations } from './templates/tasks.ts';

/** Every graph feature's queue operations; each feature adds its definer here. */
export const graphOperationDefiners: DefineOperations[] = [
  defineTemplateOperations,
  defineGraphBatchOperations,
  defineGraphMaintenanceOperations,
];

export function defineGraphOperations(registry: TaskRegistrar, deps: GraphDeps): void {
  for (const define of graphOperationDefiners) define(registry, deps);
}
