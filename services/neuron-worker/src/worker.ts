import type { Platform } from '@rhizome/core/platform/create';
import { queueUrl } from '@rhizome/core/platform/pubsub';

export interface NeuronWorker {
  /** Where the worker takes its tasks from, for the ready line. */
  readonly queue: string;
  stop(): Promise<void>;
}

/**
 * The background worker. It shares the platform (settings with hot reload, databases, pub/sub) with
 * the API process in the embedded default, or runs alone against Redis/Valkey in the stack.
 */
export function createNeuronWorker(deps: { platform: Platform }): NeuronWorker {
  const url = queueUrl(deps.platform.settings.get());
  return {
    queue: url ? url.replace(/\/\/:[^@]*@/, '//') : 'embedded',
    async stop() {},
  };
}
