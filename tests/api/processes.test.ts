import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@rhizome/cli/main';
import { call, setUpAccount, startTestServer, tempDataDir } from '../support/server.ts';
import { freePort } from '../support/ports.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { until, untilHolds } from '../support/wait.ts';

const repo = path.resolve(__dirname, '../..');

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: Record<string, string>): Running {
  let output = '';
  const child = spawn(process.execPath, args, {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(running: Running, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
  return until(
    () => {
      const match = running.output().match(pattern);
      if (match) return match;
      if (running.child.exitCode !== null) throw new Error(`process exited: ${running.output()}`);
      return undefined;
    },
    { timeoutMs, intervalMs: 50, what: `${pattern} in the output` },
  );
}

const started: Running[] = [];
afterEach(async () => {
  for (const running of started.splice(0)) {
    if (running.child.exitCode === null) running.child.kill('SIGKILL');
    await running.exited;
  }
});

// Each of these starts real processes, which take several seconds each on a loaded two-core machine.
const processPatience = 120_000;

describe('the rhizome command', () => {
  it('prints help for every command', async () => {
    for (const args of [
      ['--help'],
      ['serve', '--help'],
      ['db', 'migrate', 'status', '--help'],
      ['db', 'migrate', 'rollback', '--help'],
      ['upgrade', '--help'],
    ]) {
      const out: string[] = [];
      expect(await runCli(args, (line) => out.push(line))).toBe(0);
      expect(out.join('\n')).toMatch(/^Usage: rhizome/);
    }
    const err: string[] = [];
    expect(
      await runCli(
        ['frobnicate'],
        () => undefined,
        (line) => err.push(line),
      ),
    ).toBe(2);
    expect(err.join('\n')).toContain('Commands:');
  });

  it(
    'serves the embedded default, logs one ready line with its URL and stops cleanly on SIGTERM and SIGINT',
    async () => {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        const dataDir = tempDataDir();
        const port = await freePort();
        const serve = run(['packages/cli/bin/rhizome.mjs', 'serve'], {
          RHIZOME_DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
        });
        started.push(serve);
        const [, url] = await waitFor(serve, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
        expect(url).toBe(`http://127.0.0.1:${port}`);
        expect((serve.output().match(/listening on/g) ?? []).length).toBe(1);
        const status = await call(`${url}/api/v1`, 'GET', '/auth/status');
        expect(status.body).toEqual({ setup_needed: true, authenticated: false, username: null });
        serve.child.kill(signal);
        expect(await serve.exited).toBe(0);
        expect(fs.existsSync(path.join(dataDir, 'databases', 'default', 'app.db'))).toBe(true);
      }
    },
    processPatience,
  );
});

describe('restart', () => {
  it('keeps the account, API keys, settings and databases', async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({ dataDir });
    const cookie = await setUpAccount(first);
    const key = ((await first.call('POST', '/auth/keys', { cookie, body: { name: 'ci' } })).body as { key: string })
      .key;
    await first.call('PATCH', '/settings', { cookie, body: { llm: { ai_temperature: 1.1 }, dark_mode: true } });
    await first.call('POST', '/databases', { cookie, body: { name: 'kept' } });
    await first.call('PATCH', '/databases/current', { cookie, body: { name: 'kept' } });
    await first.stop();

    const second = await startTestServer({ dataDir });
    try {
      expect((await second.call('GET', '/auth/me', { cookie })).body).toEqual({ username: 'operator' });
      expect((await second.call('GET', '/auth/me', { key })).status).toBe(200);
      const settings = (await second.call('GET', '/settings', { key })).body as {
        llm: { ai_temperature: number };
        dark_mode: boolean;
      };
      expect(settings.llm.ai_temperature).toBe(1.1);
      expect(settings.dark_mode).toBe(true);
      expect((await second.call('GET', '/databases/current', { key })).body).toMatchObject({ current: 'kept' });
    } finally {
      await second.stop();
    }
  });
});

describe('the services as separate processes over Redis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it(
    'hot-reloads a settings change made through cortex-api in neuron-worker',
    async () => {
      const dataDir = tempDataDir();
      const env = { RHIZOME_DATA_DIR: dataDir, RHIZOME_QUEUE_URL: `${redis.url}/0` };
      const port = await freePort();
      const cortex = run(['--import', 'tsx', 'services/cortex-api/src/main.ts'], { ...env, PORT: String(port) });
      started.push(cortex);
      const [, url] = await waitFor(cortex, /cortex-api listening on (http:\/\/[\d.:]+)/);
      const worker = run(['--import', 'tsx', 'services/neuron-worker/src/main.ts'], env);
      started.push(worker);
      await waitFor(worker, /neuron-worker ready, queue redis:\/\/127\.0\.0\.1:\d+\/0/);

      const base = `${url}/api/v1`;
      const setup = await call(base, 'POST', '/auth/setup', {
        body: { username: 'operator', password: 'long enough pw' },
      });
      const patched = await call(base, 'PATCH', '/settings', {
        cookie: setup.cookie,
        body: { logging: { level: 'DEBUG' } },
      });
      expect(patched.status).toBe(200);
      await waitFor(worker, /settings reloaded after a change in another process/);

      worker.child.kill('SIGTERM');
      cortex.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(await cortex.exited).toBe(0);
    },
    processPatience,
  );
});

describe('a database file replaced by another process', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('makes every other process drop its connection to the old file', async () => {
    const { createPlatform } = await import('@rhizome/core/platform');
    const { backupSqlite } = await import('@rhizome/core/storage');
    const env = { ...process.env, RHIZOME_DATA_DIR: tempDataDir(), RHIZOME_QUEUE_URL: `${redis.url}/0` };
    const api = await createPlatform({ service: 'cortex', migrationPolicy: 'apply', env });
    const worker = await createPlatform({ service: 'neuron', migrationPolicy: 'wait', env });
    try {
      const templates = async (platform: typeof api) =>
        Number(
          (await (await platform.databases.connection('default'))('graph_templates').count({ n: '*' }).first())!.n,
        );
      const backup = path.join(api.paths.migrationBackupsDir('default'), 'pre-9001-20260101T000000Z.db');
      await backupSqlite(await api.databases.connection('default'), backup);
      await (
        await api.databases.connection('default')
      )('graph_templates').insert({
        id: 'after_backup',
        name: 'x',
        template_type: 'node',
        properties: '[]',
        created_at: 'x',
        updated_at: 'x',
      });
      expect(await templates(worker)).toBe(8);

      await api.databases.restore('default', backup);
      expect(await templates(api)).toBe(7);
      await untilHolds(
        () => templates(worker),
        (count) => count === 7,
        {
          timeoutMs: 5000,
          what: 'the worker to see the restored templates',
        },
      );
    } finally {
      await worker.close();
      await api.close();
    }
  });
});
