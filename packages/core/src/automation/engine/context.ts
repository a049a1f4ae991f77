import type { QueueLogger } from '@rhizome/queue';
import type { ExecutionPorts } from '../tools/types.ts';

/** What an execution runs with: its database, the model ports, the settings now, a logger. */
export interface EngineContext extends ExecutionPorts {
  logger: QueueLogger;
}

/** Nested workflows may go this many levels below the execution a task started (docs/decisions/0013). */
export const maxNestingDepth = 10;

/** How often a running execution looks for a cancel made through the API (besides the task's signal). */
export const cancelPollMs = 250;
