/**
 * The embedded server an eval runs against: on `dataDir`, with its own config, quiet logs and the
 * in-process queue, and a signed-in client of its API.
 */
import path from 'node:path';
import { startEmbedded, type EmbeddedServer } from '@rhizome/cli/embedded';
import { connect, type EvalClient } from './client.ts';

export interface EvalServer {
  server: EmbeddedServer;
  client: EvalClient;
}

export async function startEvalServer(dataDir: string): Promise<EvalServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RHIZOME_DATA_DIR: dataDir,
    RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
    // Quiet unless the run asks for more (RHIZOME_LOG_LEVEL=info shows the corpus model's passes).
    RHIZOME_LOG_LEVEL: process.env.RHIZOME_LOG_LEVEL ?? 'warning',
  };
  delete env.RHIZOME_QUEUE_URL;
  const server = await startEmbedded({ host: '127.0.0.1', port: 0 }, env);
  try {
    return { server, client: await connect(`${server.url}/api/v1`) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
