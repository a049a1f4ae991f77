import { createPlatform } from '@rhizome/core/platform/create';
import { stopOnSignals } from '@rhizome/core/process/serve';
import { createNeuronWorker } from './worker.ts';

const platform = await createPlatform({ service: 'neuron', migrationPolicy: 'wait' });
const worker = createNeuronWorker({ platform });
platform.logger.info(`neuron-worker ready, queue ${worker.queue}`);
stopOnSignals(platform.logger, async () => {
  await worker.stop();
  await platform.close();
});
