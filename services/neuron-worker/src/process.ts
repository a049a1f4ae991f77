import { createPlatform } from '@rhizome/core/platform';
import { stopOnSignals } from '@rhizome/core/runtime';
import { storageBackendRefusal } from '@rhizome/core/storage';
import { createNeuronWorker } from './worker.ts';

/** neuron-worker as its own process (the stack's program, or `rhizome worker`). */
export async function runWorkerProcess(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const refusal = await storageBackendRefusal(env);
  if (refusal) {
    console.error(`neuron-worker: ${refusal}`);
    process.exit(2);
  }
  const platform = await createPlatform({ service: 'neuron', migrationPolicy: 'wait', env });
  const worker = createNeuronWorker({ platform });
  platform.logger.info(`neuron-worker ready, queue ${worker.queue}`);
  stopOnSignals(platform.logger, async () => {
    await worker.stop();
    await platform.close();
  });
}
