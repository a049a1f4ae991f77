import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  call,
  setUpAccount,
  startTestServer,
  tempDataDir,
  type CallOptions,
  type CallResult,
  type TestServer,
} from './server.ts';
import { knownBackendEnv } from './test-backend.ts';
import { until } from './wait.ts';

const bin = path.resolve(import.meta.dirname, '../../packages/cli/bin/rhizome.mjs');

export interface CliRun {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process ended. */
  stop(graceMs?: number): Promise<number | string>;
}

function cliEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    RHIZOME_DATA_DIR: dataDir,
    RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
    // A test server's data directory is read where that server stored it (a PostgreSQL run's database).
    ...knownBackendEnv(env.RHIZOME_DATA_DIR ?? dataDir),
    ...env,
  };
  delete childEnv.RHIZOME_QUEUE_URL;
  return childEnv;
}

function watched(child: ChildProcess): CliRun {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    output: () => output,
    exited,
    async stop(graceMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/** `rhizome <args>` as its own process, with its data and config in `dataDir`. */
export function spawnRhizome(args: string[], dataDir: string, env: Record<string, string> = {}): CliRun {
  return watched(
    spawn(process.execPath, [bin, ...args], { env: cliEnv(dataDir, env), stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

export interface TerminalRun extends CliRun {
  /** Types into the terminal (`\r` is Enter, `\x1b[B` the down arrow). */
  type(keys: string): void;
  /** Resolves once the terminal has shown `text` after everything it showed before this call's last match. */
  sees(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

/**
 * `rhizome <args>` on a pseudo-terminal (util-linux `script`), so that it prompts as it does for a person;
 * what it shows is read back with its escape sequences removed.
 */
export function spawnRhizomeInTerminal(args: string[], dataDir: string, env: Record<string, string> = {}): TerminalRun {
  const command = [process.execPath, bin, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const run = watched(
    spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...cliEnv(dataDir, env), TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  let seenUpTo = 0;
  // eslint-disable-next-line no-control-regex -- removing the terminal's escape sequences is the point
  const screen = () => run.output().replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r/g, '');
  return {
    ...run,
    type: (keys) => run.child.stdin!.write(keys),
    async sees(text, timeoutMs = 20_000) {
      const at = await until(
        () => {
          const rest = screen().slice(seenUpTo);
          const found = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
          if (found < 0 && run.child.exitCode !== null)
            throw new Error(`the terminal ended without showing ${String(text)}:\n${screen()}`);
          return found >= 0 && found;
        },
        { timeoutMs, intervalMs: 50, what: () => `the terminal to show ${String(text)}:\n${screen()}` },
      );
      seenUpTo += at + 1;
    },
  };
}

/** Runs a command that ends by itself; resolves with its exit code and output. */
export async function runRhizome(
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ code: number | string; output: string }> {
  const run = spawnRhizome(args, dataDir, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, output: run.output() };
}

export interface ServeProcess extends CliRun {
  url: string;
  /** The API root (`<url>/api/v1`). */
  base: string;
  call(method: string, apiPath: string, options?: CallOptions): Promise<CallResult>;
}

/** `rhizome serve` on a free port; resolves once it listens. */
export async function startServeProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const run = spawnRhizome(['serve', '--port', '0'], dataDir, env);
  const url = await new Promise<string>((resolve, reject) => {
    // One that did not start in time is ended: no test holds it to stop it later.
    const timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new Error(`rhizome serve did not start:\n${run.output()}`));
    }, 60_000);
    const look = () => {
      const match = /listening on (http:\/\/\S+)/.exec(run.output());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    run.child.stdout!.on('data', look);
    void run.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`rhizome serve exited (${code}):\n${run.output()}`));
    });
  });
  const base = `${url}/api/v1`;
  return { ...run, url, base, call: (method, apiPath, options) => call(base, method, apiPath, options) };
}

export interface CliServer {
  server: TestServer;
  cookie: string;
  key: string;
  /** A directory for the CLI's config and the test's files. */
  work: string;
  /** `rhizome <args>` against the server with its key. */
  rhizome(args: string[], env?: Record<string, string>): Promise<{ code: number | string; output: string }>;
}

/** A real server with an account and an API key, for CLI tests that talk to a running server. */
export async function startCliServer(
  options: { env?: Record<string, string>; keyName?: string } = {},
): Promise<CliServer> {
  const server = await startTestServer({ env: options.env });
  const cookie = await setUpAccount(server);
  const created = await server.call('POST', '/auth/keys', { cookie, body: { name: options.keyName ?? 'cli test' } });
  const key = (created.body as { key: string }).key;
  const work = tempDataDir();
  return {
    server,
    cookie,
    key,
    work,
    rhizome: (args, env = {}) =>
      runRhizome(args, work, { RHIZOME_URL: server.url, RHIZOME_API_KEY: key, ...env }, 110_000),
  };
}
