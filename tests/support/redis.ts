import { spawn, type ChildProcess } from 'node:child_process';
import { requireBinary } from '../../tools/stack/binaries.ts';
import { freePort } from './ports.ts';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** A real redis-server (or valkey-server) on a free loopback port (or `port`, to replace one that died), without persistence. */
export async function startRedis(port?: number): Promise<TestRedis> {
  port ??= await freePort();
  const binary = requireBinary('valkey-server', 'redis-server');
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis did not start: ${output}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis exited with ${code}: ${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
