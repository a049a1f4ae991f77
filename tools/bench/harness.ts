import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
export { freePort } from '../../tests/support/ports.ts';

export const repoDir = path.resolve(import.meta.dirname, '../..');

/** Milliseconds of CPU (user and system) in a `process.cpuUsage()` reading. */
export const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  /** CPU time the serving process spent per request, when the target names its pid (Linux). */
  serverCpuUs?: number;
}

export interface Target {
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** The serving process: its CPU time per request is measured too, a figure that load on the machine barely moves. */
  pid?: number;
}

// On a two-core machine the load generator and the server under test would fight for the same core;
// pinning them apart (when taskset exists) makes runs comparable.
const pinning = hasTaskset() && (process.env.BENCH_NO_PIN ?? '') === '';

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins this process (the load generator) to core 0; servers started by startProcess go to core 1. */
export function pinLoadGenerator(): string {
  if (!pinning) return 'unpinned';
  execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
  return 'load generator on core 0, servers on core 1';
}

export function pinProcess(pid: number): void {
  if (pinning) execFileSync('taskset', ['-cp', '1', String(pid)], { stdio: 'ignore' });
}

/** Starts a TypeScript entry point in its own process and waits for `readyPattern` on its output. */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  readyPattern: RegExp,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repoDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  pinProcess(child.pid!);
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function once(target: Target, seconds: number): Promise<Measurement> {
  const cpuBefore = target.pid === undefined ? null : processCpuMicros(target.pid);
  const result = await autocannon({
    url: target.url,
    headers: target.headers ?? {},
    connections: 32,
    duration: seconds,
  });
  const cpuAfter = target.pid === undefined ? null : processCpuMicros(target.pid);
  const serverCpuUs =
    cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? (cpuAfter - cpuBefore) / result.requests.total
      : undefined;
  return {
    label: target.label,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    serverCpuUs,
  };
}

/** User plus system CPU time of a process in microseconds, from /proc (null elsewhere). */
export function processCpuMicros(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticksPerSecond = 100; // USER_HZ, 100 on every Linux architecture node runs on
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1_000_000;
  } catch {
    return null;
  }
}

/**
 * Measures the targets in alternating rounds (so drift of the machine hits all of them alike) after a
 * warm-up, and keeps each target's median round.
 */
export async function measureRounds(targets: Target[], rounds = 3, seconds = 4): Promise<Measurement[]> {
  for (const target of targets) await once(target, 1);
  const runs = targets.map(() => [] as Measurement[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) runs[index].push(await once(target, seconds));
  }
  return runs.map(
    (list) => list.sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(list.length / 2)],
  );
}

/** Prints each measurement with its ratio to the first one (and the server CPU per request, when measured). */
export function report(measurements: Measurement[]): void {
  const reference = measurements[0];
  for (const m of measurements) {
    const ratio = (m.requestsPerSecond / reference.requestsPerSecond).toFixed(2);
    const cpu =
      m.serverCpuUs === undefined || reference.serverCpuUs === undefined
        ? ''
        : `  server CPU ${m.serverCpuUs.toFixed(1)} us/req (${(reference.serverCpuUs / m.serverCpuUs).toFixed(2)}x)`;
    console.log(
      `${m.label.padEnd(44)} ${String(m.requestsPerSecond).padStart(7)} req/s  p99 ${String(m.p99Ms).padStart(4)} ms  ${ratio}x  non-2xx ${m.non2xx}${cpu}`,
    );
  }
}

/** A fixed pseudo-random sequence (mulberry32), so every run of a benchmark uses the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
