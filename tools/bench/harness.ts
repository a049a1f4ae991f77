import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

export const repoDir = path.resolve(import.meta.dirname, '../..');

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a TypeScript entry point in its own process and waits for `readyPattern` on its output. */
export async function startProcess(entry: string, env: Record<string, string>, readyPattern: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: repoDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (readyPattern.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Requests per second of `url` with keep-alive connections, after a short warm-up. */
export async function measure(label: string, url: string, headers: Record<string, string> = {}, seconds = 8): Promise<Measurement> {
  await autocannon({ url, headers, connections: 32, duration: 1 });
  const result = await autocannon({ url, headers, connections: 32, duration: seconds });
  return { label, requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99, non2xx: result.non2xx };
}

export function report(measurements: Measurement[], reference: Measurement): void {
  for (const m of measurements) {
    const ratio = (m.requestsPerSecond / reference.requestsPerSecond).toFixed(2);
    console.log(`${m.label.padEnd(44)} ${String(m.requestsPerSecond).padStart(7)} req/s  p99 ${String(m.p99Ms).padStart(4)} ms  ${ratio}x  non-2xx ${m.non2xx}`);
  }
}
