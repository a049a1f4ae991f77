import { once } from 'node:events';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startStack, type RunningStack } from '../../tools/stack/launch.ts';
import { until } from '../support/wait.ts';

/** `count` distinct ports that were free a moment ago on 127.0.0.1 (bound to port 0 together, then released). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer().listen(0, '127.0.0.1'));
  await Promise.all(servers.map((server) => once(server, 'listening')));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  return until(probe, { timeoutMs, intervalMs: 150, what });
}

export interface StackUnderTest {
  readonly stack: RunningStack;
  readonly dataDir: string;
}

/** Starts the supervised stack on free ports with a temporary data directory before a block's tests; stops and removes it after. */
export function useStack(prefix: string): StackUnderTest {
  let dataDir = '';
  let stack: RunningStack | undefined;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    const [publicPort, apiPort, authPort, redisPort, supervisorPort] = await freePorts(5);
    stack = await startStack({
      dataDir,
      configDir: path.join(dataDir, 'config'),
      publicPort,
      apiPort,
      authPort,
      redisPort,
      supervisorPort,
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }, 60_000);
  return {
    get stack() {
      if (!stack) throw new Error('the stack has not started');
      return stack;
    },
    get dataDir() {
      return dataDir;
    },
  };
}
