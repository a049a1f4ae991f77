import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../support/cli.ts';
import { freePort } from '../support/ports.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { sleep, until } from '../support/wait.ts';

interface Task {
  status: string;
  error: string | null;
  error_type: string | null;
}

const running: ServeProcess[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});

async function serve(): Promise<{ server: ServeProcess; cookie: string }> {
  const server = await startServeProcess(tempDataDir());
  running.push(server);
  const setup = await server.call('POST', '/auth/setup', {
    body: { username: 'operator', password: 'correct horse battery' },
  });
  expect(setup.status, setup.text).toBe(201);
  return { server, cookie: setup.cookie! };
}

function finishedTask(server: ServeProcess, cookie: string, taskId: string): Promise<Task> {
  return until(
    async () => {
      const task = (await server.call('GET', `/queue/tasks/${taskId}`, { cookie })).body as Task;
      return ['completed', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 50, what: `task ${taskId} to end` },
  );
}

describe('runtime safety of a real rhizome serve process', () => {
  it('exports an empty graph and stays up', async () => {
    const { server, cookie } = await serve();
    const accepted = await server.call('POST', '/exports', { cookie, body: {} });
    expect(accepted.status, accepted.text).toBe(202);
    const task = await finishedTask(server, cookie, (accepted.body as { task_id: string }).task_id);
    expect(task, server.output()).toMatchObject({ status: 'completed', error: null });
    // The process died a moment after the 202 before: give it that moment.
    await sleep(500);
    expect(server.child.exitCode, server.output()).toBeNull();
    expect((await server.call('GET', '/health', { cookie })).status).toBe(200);
    const download = await fetch(`${server.base}/exports/${(accepted.body as { task_id: string }).task_id}/download`, {
      headers: { cookie },
    });
    expect(download.status).toBe(200);
  }, 90_000);

  it('exports a database holding one node and one source and stays up', async () => {
    const { server, cookie } = await serve();
    const node = await server.call('POST', '/nodes', {
      cookie,
      body: { template_id: 'system_template_item', label: 'Radium', properties: { definition: 'an element' } },
    });
    expect(node.status, node.text).toBe(201);
    const asServer = server as unknown as TestServer;
    const upload = await uploadSources(
      asServer,
      cookie,
      '/sources',
      [
        {
          name: 'curie.txt',
          content: 'Marie Curie discovered radium and polonium in Paris in 1898 with Pierre Curie.',
        },
      ],
      {
        auto_confirm: 'true',
        extract_entities: 'false',
      },
    );
    expect(upload.status, upload.text).toBe(202);
    await waitForSource(asServer, cookie, (upload.body as { id: string }).id, ['indexed']);
    for (const route of ['/exports', '/exports']) {
      const accepted = await server.call('POST', route, { cookie, body: {} });
      expect(accepted.status, accepted.text).toBe(202);
      expect(
        await finishedTask(server, cookie, (accepted.body as { task_id: string }).task_id),
        server.output(),
      ).toMatchObject({ status: 'completed' });
    }
    await sleep(500);
    expect(server.child.exitCode, server.output()).toBeNull();
  }, 90_000);
});

interface LogEntry {
  level: string;
  message: string;
}

/** The JSON lines of the server's log file whose message matches. */
function logEntries(server: TestServer, pattern: RegExp): LogEntry[] {
  const file = path.join(server.dataDir, 'logs', 'cortex.log');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogEntry)
    .filter((entry) => pattern.test(entry.message));
}

function logged(server: TestServer, pattern: RegExp): Promise<LogEntry[]> {
  return until(
    () => {
      const entries = logEntries(server, pattern);
      return entries.length ? entries : undefined;
    },
    { timeoutMs: 5_000, intervalMs: 50, what: `a log entry matching ${pattern}` },
  );
}

describe('log levels of expected conditions', () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    const closedPort = await freePort();
    server = await startTestServer({ env: { REGISTRY_URL: `http://127.0.0.1:${closedPort}` } });
    cookie = await setUpAccount(server);
    const settings = await server.call('PATCH', '/settings', {
      cookie,
      body: {
        web: { allow_private_addresses: true },
        llm: {
          chat_provider: 'localllm',
          localllm_instances: [
            { id: 'default', name: 'Local', base_url: `http://127.0.0.1:${closedPort}`, enabled: true },
          ],
        },
      },
    });
    expect(settings.status, settings.text).toBe(200);
  });
  afterAll(() => server?.stop());

  it('logs an unreachable registry as one warning line naming the cause, without a stack', async () => {
    expect((await server.call('GET', '/registry/search?q=graph', { cookie })).status).toBe(503);
    const [entry] = await logged(server, /registry\/search/);
    expect(entry).toMatchObject({
      level: 'warning',
      message: expect.stringMatching(
        /^GET \/api\/v1\/registry\/search\?q=graph: 503 Upstream registry request failed \(.*ECONNREFUSED/,
      ),
    });
    expect(entry.message).not.toContain('\n');
  });

  it('logs a model server that is not running as one warning line, without a stack', async () => {
    const models = await server.call('GET', '/settings/localllm/models', { cookie });
    expect(models.status, models.text).toBe(503);
    const [entry] = await logged(server, /localllm\/models/);
    expect(entry).toMatchObject({ level: 'warning' });
    expect(entry.message).not.toContain('\n');
  });

  it('logs a download the client closed as one warning line', async () => {
    const accepted = await server.call('POST', '/exports', { cookie, body: {} });
    const taskId = (accepted.body as { task_id: string }).task_id;
    for (let task = { status: 'queued' }; task.status !== 'completed'; await sleep(50)) {
      task = (await server.call('GET', `/queue/tasks/${taskId}`, { cookie })).body as { status: string };
    }
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /api/v1/exports/${taskId}/download HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
    socket.destroy();
    const [entry] = await logged(server, /download/);
    expect(entry).toMatchObject({
      level: 'warning',
      message: `GET /api/v1/exports/${taskId}/download: the client closed the connection before the response was complete`,
    });
  });
});
