import http from 'node:http';
import { createAuthServices, createCortexApi, serveTlsOnSamePort, tlsStoreOf } from '@rhizome/cortex-api';
import { createNeuronWorker } from '@rhizome/neuron-worker';
import { createPlatform, startBackgroundJobs, type Platform } from '@rhizome/core/platform';
import { closeServer, listen, type ListenOptions } from '@rhizome/core/runtime';
import type { Migration } from '@rhizome/core/storage';

export interface EmbeddedServer {
  url: string;
  platform: Platform;
  stop(): Promise<void>;
}

/**
 * The embedded default: the three services' modules in one process. The auth check runs as an express
 * hook that behaves like the proxy, the queue and pub/sub are in-process, and nothing else is needed.
 */
export async function startEmbedded(
  listenOn: ListenOptions,
  env: NodeJS.ProcessEnv = process.env,
  migrations?: Migration[],
): Promise<EmbeddedServer> {
  const platform = await createPlatform({ service: 'cortex', migrationPolicy: 'apply', env, migrations });
  const auth = await createAuthServices(platform);
  const { app } = createCortexApi({ platform, ...auth, authMode: 'embedded' });
  const worker = createNeuronWorker({ platform });
  const server = http.createServer(app);
  // HTTPS on the same port once a certificate is installed (POST /api/v1/settings/tls/…), no restart.
  serveTlsOnSamePort(server, app, tlsStoreOf(platform));
  let url: string;
  try {
    url = await listen(server, listenOn);
    if (tlsStoreOf(platform).read()) url = url.replace(/^http:/, 'https:');
  } catch (error) {
    // Nothing may keep the process alive once it cannot serve (a port in use).
    await worker.stop();
    await platform.close();
    throw error;
  }
  // Started only once serving: a process that cannot listen must exit without side work or log lines.
  const background = startBackgroundJobs(platform);
  const stopServices = async () => {
    await background.stop();
    await worker.stop();
    await platform.close();
  };
  return {
    url,
    platform,
    async stop() {
      await closeServer(server);
      await stopServices();
    },
  };
}
