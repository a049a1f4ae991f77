import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runRhizome, startServeProcess, type ServeProcess } from '../support/cli.ts';
import { tempDataDir } from '../support/server.ts';
import { until } from '../support/wait.ts';

const serving: ServeProcess[] = [];
afterEach(async () => {
  while (serving.length) await serving.pop()!.stop();
});

async function serve(dataDir: string): Promise<ServeProcess> {
  const server = await startServeProcess(dataDir);
  serving.push(server);
  return server;
}

/** A stack trace's frames ("    at fn (file:line)"): an operator's error must not print one. */
const stackFrame = /^\s+at .+\(?.+:\d+/m;

describe('the rhizome command line', () => {
  it('names an unknown command and lists the commands', async () => {
    const { code, output } = await runRhizome(['bogus'], tempDataDir());
    expect(code).toBe(2);
    expect(output).toContain("rhizome: unknown command 'bogus'");
    expect(output).toContain('Commands:');
  });

  it('prints the db commands for db --help, and for db alone', async () => {
    const help = await runRhizome(['db', '--help'], tempDataDir());
    expect(help.code).toBe(0);
    expect(help.output).toMatch(/^Usage: rhizome db <command>/);
    expect(help.output).toContain('db migrate status');
    expect(help.output).toContain('db migrate rollback');
    const bare = await runRhizome(['db'], tempDataDir());
    expect(bare.code).toBe(2);
    expect(bare.output).toContain("'db' needs a command");
    expect(bare.output).toContain('db migrate rollback');
    const unknown = await runRhizome(['db', 'migrate', 'sideways'], tempDataDir());
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain("unknown command 'db migrate sideways'");
  });

  it('refuses an unknown or misplaced option in one line, without a stack trace', async () => {
    const unknown = await runRhizome(['serve', '--bogus'], tempDataDir());
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain("rhizome: Unknown option '--bogus'");
    expect(unknown.output).not.toMatch(stackFrame);
    const misplaced = await runRhizome(['upgrade', '--port', '9'], tempDataDir());
    expect(misplaced.code).toBe(2);
    expect(misplaced.output).toContain("'upgrade' takes no --port option");
  });

  it("refuses a second serve on one data directory, naming the first one's pid, and releases the lock on exit", async () => {
    const dataDir = tempDataDir();
    const first = await serve(dataDir);
    const second = await runRhizome(['serve', '--port', '0'], dataDir);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`rhizome: another Rhizome (pid ${first.child.pid}, since `);
    expect(second.output).toContain(`is already serving the data directory ${dataDir}`);
    expect(second.output.trim().split('\n')).toHaveLength(1);
    expect(await first.stop()).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'run', 'serve.lock'))).toBe(false);
    await serve(dataDir);
  }, 90_000);

  it('starts over a lock left by a serve that was killed', async () => {
    const dataDir = tempDataDir();
    fs.mkdirSync(path.join(dataDir, 'run'), { recursive: true });
    fs.writeFileSync(
      path.join(dataDir, 'run', 'serve.lock'),
      JSON.stringify({ pid: 999_999_999, host: os.hostname(), token: '0-killed', since: '2026-01-01T00:00:00.000Z' }),
    );
    const server = await serve(dataDir);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'run', 'serve.lock'), 'utf8'))).toMatchObject({
      pid: server.child.pid,
    });
  }, 60_000);

  it('pnpm start ends without a failure after a clean stop on SIGTERM, and the server with it', async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, 'run', 'serve.lock');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      RHIZOME_DATA_DIR: dataDir,
      RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
    };
    delete env.RHIZOME_QUEUE_URL;
    const pnpm = spawn('pnpm', ['start'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...env, HOST: '127.0.0.1', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [pnpm.stdout, pnpm.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'exit', not 'close': a server left running would hold the output pipes open.
    const exited = new Promise<number | string>((resolve) =>
      pnpm.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
    );
    try {
      const url = await until(() => /listening on (http:\/\/\S+)/.exec(output)?.[1], {
        timeoutMs: 120_000,
        what: 'pnpm start to listen',
      });
      pnpm.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      await until(() => output.includes('stopped'), { what: 'the server to say it stopped' });
      expect(output).not.toContain('ELIFECYCLE');
      await expect(fetch(`${url}/api/v1/auth/status`)).rejects.toThrow();
      expect(fs.existsSync(lockFile)).toBe(false);
    } finally {
      pnpm.kill('SIGKILL');
      // A server the signal did not reach outlives pnpm; its lock names it.
      if (fs.existsSync(lockFile)) process.kill((JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid: number }).pid);
    }
  }, 180_000);

  it('says in one line that the port is in use, and exits 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const dataDir = tempDataDir();
      const { code, output } = await runRhizome(['serve', '--port', String(port)], dataDir);
      expect(code).toBe(1);
      expect(output.trim()).toBe(
        `rhizome: port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another port (--port or PORT)`,
      );
      expect(fs.existsSync(path.join(dataDir, 'run', 'serve.lock'))).toBe(false);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
