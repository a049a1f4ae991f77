import { serveNode } from './cluster.ts';
import type { TestPostgres } from './postgres.ts';
import type { CallOptions, CallResult } from './server.ts';

/** `rhizome serve` as its own process, storing in a throw-away PostgreSQL server. */
export interface PostgresService {
  dataDir: string;
  base: string;
  call(method: string, apiPath: string, options?: CallOptions): Promise<CallResult>;
  /** Everything the current process printed. */
  output(): string;
  /** Stops the process and starts a new one on the same data directory and server. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `rhizome serve` on a free port with RHIZOME_DATABASE_URL naming `postgres` (and the preview
 * acknowledged), waiting until it answers. Each call of `startOnPostgres` gets its own data directory
 * unless one is given; several services on one server share its `rhizome_system` schema.
 */
export async function startOnPostgres(
  postgres: TestPostgres,
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<PostgresService> {
  const env = { RHIZOME_DATABASE_URL: postgres.url, RHIZOME_POSTGRES_PREVIEW: '1', ...options.env };
  const node = await serveNode('on PostgreSQL', env, options.dataDir);
  await node.start();
  return {
    dataDir: node.dataDir,
    base: node.base,
    call: node.call,
    output: node.output,
    async restart() {
      await node.stop();
      await node.start();
    },
    stop: node.stop,
  };
}
