import http from 'node:http';
import { createPlatform, startBackgroundJobs } from '@rhizome/core/platform';
import { closeServer, listen, listenFailure, listenOptionsFromEnv, stopOnSignals } from '@rhizome/core/runtime';
import { storageBackendRefusal } from '@rhizome/core/storage';
import { createCortexApi } from './app.ts';
import { createAuthServices } from './auth-services.ts';

const refusal = await storageBackendRefusal();
if (refusal) {
  console.error(`cortex-api: ${refusal}`);
  process.exit(2);
}
const platform = await createPlatform({ service: 'cortex', migrationPolicy: 'apply' });
const auth = await createAuthServices(platform);
const { app } = createCortexApi({
  platform,
  ...auth,
  authMode: 'direct',
  supervisorUrl: process.env.RHIZOME_SUPERVISOR_URL,
});
const background = startBackgroundJobs(platform);
const server = http.createServer(app);
const listenOn = listenOptionsFromEnv(8080);
try {
  const url = await listen(server, listenOn);
  platform.logger.info(`cortex-api listening on ${url}`);
  stopOnSignals(platform.logger, async () => {
    await closeServer(server);
    await background.stop();
    await platform.close();
  });
} catch (error) {
  const reason = listenFailure(error, listenOn);
  if (!reason) throw error;
  platform.logger.error(reason);
  await background.stop();
  await platform.close();
  process.exitCode = 1;
}
