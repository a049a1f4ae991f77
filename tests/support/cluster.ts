import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { call, tempDataDir, type CallOptions, type CallResult } from './server.ts';
import { freePort } from './ports.ts';
import { startPostgres, type TestPostgres } from './postgres.ts';
import { startRedis, type TestRedis } from './redis.ts';
import { until } from './wait.ts';

const bin = path.resolve(import.meta.dirname, '../../packages/cli/bin/rhizome.mjs');

/** One `rhizome serve` process of a cluster: its own data directory and port, the cluster's server. */
export interface ClusterNode {
  readonly name: string;
  readonly dataDir: string;
  readonly base: string;
  /** The process id of the current process (a restart changes it). */
  pid(): number;
  call(method: string, apiPath: string, options?: CallOptions): Promise<CallResult>;
  /** Everything the current process printed. */
  output(): string;
  running(): boolean;
  /** SIGKILL, as a machine losing power would: no shutdown, its connections drop with the process. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
  /** Starts the node again on the same data directory and port once it is stopped or killed. */
  start(): Promise<void>;
}

export interface Cluster {
  postgres: TestPostgres;
  /** The one Redis every node's queue and pub/sub use, when asked for. */
  redis: TestRedis | undefined;
  nodes: ClusterNode[];
  /** Stops every node, then Redis and PostgreSQL. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** How many nodes (default 2). */
  nodes?: number;
  /** Puts the queue and pub/sub on one Redis (RHIZOME_QUEUE_URL) instead of the PostgreSQL server. */
  redis?: boolean;
  /** Added to every node's environment. */
  env?: Record<string, string>;
}

/**
 * N `rhizome serve` processes on 127.0.0.1, each with its own data directory and port, sharing one
 * throw-away PostgreSQL server (RHIZOME_DATABASE_URL, preview acknowledged) and, when asked, one Redis:
 * one deployment over several machines, on one. The first node starts alone (it creates the system
 * tables and the default database), the others together once it answers.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const postgres = await startPostgres();
  const redis = options.redis ? await startRedis() : undefined;
  const nodes: ClusterNode[] = [];
  const cluster: Cluster = {
    postgres,
    redis,
    nodes,
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
      await redis?.stop();
      await postgres.stop();
    },
  };
  try {
    const env = {
      RHIZOME_DATABASE_URL: postgres.url,
      RHIZOME_POSTGRES_PREVIEW: '1',
      ...(redis ? { RHIZOME_QUEUE_URL: redis.url } : {}),
      ...options.env,
    };
    const count = options.nodes ?? 2;
    const names = Array.from({ length: count }, (_, index) => String.fromCharCode(97 + index));
    for (const name of names) nodes.push(await serveNode(name, env));
    await nodes[0].start();
    await Promise.all(nodes.slice(1).map((node) => node.start()));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/**
 * A `rhizome serve` process on its own free port and data directory (a fresh one unless given), with
 * `extraEnv` added to this process's environment; not started yet. A queue URL only when `extraEnv` names one.
 */
export async function serveNode(
  name: string,
  extraEnv: Record<string, string>,
  dataDir = tempDataDir(),
): Promise<ClusterNode> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RHIZOME_DATA_DIR: dataDir,
    RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
    ...extraEnv,
  };
  if (!extraEnv.RHIZOME_QUEUE_URL) delete env.RHIZOME_QUEUE_URL;
  let child: ChildProcess | undefined;
  let output = '';
  let closed: Promise<void> = Promise.resolve();
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const ended = async (signal: NodeJS.Signals, graceMs: number) => {
    if (!running()) return closed;
    child!.kill(signal);
    const timer = setTimeout(() => child?.kill('SIGKILL'), graceMs);
    await closed;
    clearTimeout(timer);
  };
  return {
    name,
    dataDir,
    base,
    pid: () => child?.pid ?? 0,
    call: (method, apiPath, callOptions) => call(base, method, apiPath, callOptions),
    output: () => output,
    running,
    kill: () => ended('SIGKILL', 0),
    stop: () => ended('SIGTERM', 15_000),
    async start() {
      if (running()) throw new Error(`node ${name} is running`);
      output = '';
      const launched = spawn(process.execPath, [bin, 'serve', '--host', '127.0.0.1', '--port', String(port)], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = launched;
      closed = new Promise((resolve) => launched.once('close', () => resolve()));
      launched.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      launched.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await until(
        async () => {
          if (launched.exitCode !== null || launched.signalCode !== null)
            throw new Error(`node ${name} exited (${launched.exitCode ?? launched.signalCode}): ${output}`);
          return fetch(`${base}/auth/status`).then(
            (response) => response.ok,
            () => false,
          );
        },
        { timeoutMs: 90_000, intervalMs: 200, what: `node ${name} to answer` },
      );
    },
  };
}
