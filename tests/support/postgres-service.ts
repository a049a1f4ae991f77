import { spawn } from 'node:child_process';
import path from 'node:path';
import { call, tempDataDir, type CallOptions, type CallResult } from './server.ts';
import { freePort } from './ports.ts';
import type { TestPostgres } from './postgres.ts';
import { until } from './wait.ts';

const bin = path.resolve(import.meta.dirname, '../../packages/cli/bin/rhizome.mjs');

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
  const dataDir = options.dataDir ?? tempDataDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RHIZOME_DATA_DIR: dataDir,
    RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
    RHIZOME_DATABASE_URL: postgres.url,
    RHIZOME_POSTGRES_PREVIEW: '1',
    ...options.env,
  };
  delete env.RHIZOME_QUEUE_URL;
  let output = '';
  const launch = () =>
    spawn(process.execPath, [bin, 'serve', '--host', '127.0.0.1', '--port', String(port)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  let child = launch();
  const answering = async () => {
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`rhizome serve exited (${child.exitCode}): ${output}`);
        return fetch(`${base}/auth/status`).then(
          (response) => response.ok,
          () => false,
        );
      },
      { timeoutMs: 90_000, intervalMs: 200, what: 'rhizome serve on PostgreSQL to answer' },
    );
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  await answering();
  return {
    dataDir,
    base,
    call: (method, apiPath, callOptions) => call(base, method, apiPath, callOptions),
    output: () => output,
    async restart() {
      await stop();
      output = '';
      child = launch();
      await answering();
    },
    stop,
  };
}
