import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { until } from './wait.ts';

const repo = path.resolve(import.meta.dirname, '../..');

/** One of the deployables (`services/<name>/src/main.ts`) running as its own Node process, its output kept. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output; fails when the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export function startService(entry: string, env: Record<string, string>): ServiceProcess {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    waitFor: (pattern, timeoutMs = 120_000) =>
      until(
        async () => {
          if (!running()) throw new Error(`${entry} exited: ${output}`);
          return output.match(pattern) ?? undefined;
        },
        { timeoutMs, what: `${pattern} from ${entry}` },
      ),
    async stop(graceMs = 15_000) {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
