import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shellBlocks } from './shell-blocks.ts';
import { ShellSession } from './shell-session.ts';

export const readmeMarkdown = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** A fresh server for the examples: where it answers, and its data directory. */
export interface ExampleServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

const blockTimeoutMs = 90_000;

/** The block's first command, for the test title. */
function firstCommand(code: string): string {
  const line = code.split('\n').find((text) => text.trim() !== '' && !text.trim().startsWith('#')) ?? '';
  return line.trim().slice(0, 90);
}

/**
 * A `curl` first on PATH that fails on an HTTP error status (and gives up after a while): the examples
 * show successful calls, so a 4xx or 5xx answer is a broken example even where curl would exit 0.
 */
function strictCurl(binDir: string): void {
  const realCurl = execFileSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim();
  fs.mkdirSync(binDir, { recursive: true });
  fs.writeFileSync(
    path.join(binDir, 'curl'),
    `#!/bin/sh\nexec "${realCurl}" --fail-with-body --silent --show-error --max-time 60 "$@"\n`,
    { mode: 0o755 },
  );
}

/**
 * Every ```sh / ```bash block of the README, in order, in one terminal session against the server `start`
 * gives (one `it` each, in the surrounding describe); each must exit 0. A block marked
 * `<!-- readme-test: skip … -->` (installing, starting a service, reaching the internet) is left out.
 */
/** The server's recent error and warning log lines (every service's), so a failing example says what went wrong inside. */
function serverErrors(dataDir: string): string {
  const logsDir = path.join(dataDir, 'logs');
  const files = fs.existsSync(logsDir) ? fs.readdirSync(logsDir).filter((name) => name.endsWith('.log')) : [];
  const lines = files.flatMap((name) =>
    fs
      .readFileSync(path.join(logsDir, name), 'utf8')
      .split('\n')
      .filter((line) => /"level":"(error|warn)/i.test(line))
      .slice(-5)
      .map((line) => `${name}: ${line}`),
  );
  return lines.length ? `\nserver log:\n${lines.join('\n').slice(-6000)}` : '';
}

export function readmeExamples(start: () => Promise<ExampleServer>): { server: () => ExampleServer } {
  const blocks = shellBlocks(readmeMarkdown);
  let server: ExampleServer | undefined;
  let workDir = '';
  let session: ShellSession;

  beforeAll(async () => {
    server = await start();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-readme-'));
    const binDir = path.join(workDir, '.bin');
    strictCurl(binDir);
    // The server's own directories, so no example can reach the data of whoever runs the tests.
    const dirs = { RHIZOME_DATA_DIR: server.dataDir, RHIZOME_CONFIG_DIR: path.join(server.dataDir, 'config') };
    session = new ShellSession(workDir, {
      ...process.env,
      ...dirs,
      PATH: `${binDir}:${process.env.PATH}`,
      RHIZOME_URL: server.url,
    });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it('finds the shell examples, and runs all but a few', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.filter((block) => block.skip).length).toBeLessThanOrEqual(blocks.length / 3);
  });

  for (const block of blocks) {
    (block.skip ? it.skip : it)(
      `README.md:${block.line} ${firstCommand(block.code)}`,
      async () => {
        const run = await session.run(block.code, blockTimeoutMs);
        const failed = run.timedOut || run.exitCode !== 0;
        const report = `the example at README.md:${block.line} ${run.timedOut ? 'timed out' : `exited ${run.exitCode}`}:\n${run.output.slice(-4000)}${failed ? serverErrors(server!.dataDir) : ''}`;
        expect(run.timedOut, report).toBe(false);
        expect(run.exitCode, report).toBe(0);
      },
      blockTimeoutMs + 10_000,
    );
  }

  return { server: () => server! };
}
