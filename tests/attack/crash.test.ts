import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitMergeImport } from '../support/ccx-package.ts';
import { startServeProcess, type ServeProcess } from '../support/cli.ts';
import type { FakeProviderControls } from '../support/fakes/controls.ts';
import { startFakeOpenAi } from '../support/fakes/openai.ts';
import { tempDataDir } from '../support/server.ts';
import { sleep, until, waitForTask, type TaskView } from '../support/wait.ts';

/**
 * kill -9 of a real `rhizome serve` process in the middle of a `.ccx` import and in the middle of a chat
 * answer, several times over, each followed by a restart on the same data directory. Nothing the
 * operator stored before the kill may be lost, the interrupted work must settle, and the service must
 * take new work afterwards.
 */

const username = 'operator';
const password = 'correct horse battery';
const killDelaysMs = [50, 250, 600];

interface Snapshot {
  nodeIds: string[];
  sourceId: string;
  chatIds: string[];
}

describe('kill -9 mid-work', () => {
  const dataDir = tempDataDir();
  let serve: ServeProcess;
  let cookie: string;
  let openai: FakeProviderControls;
  let packageBytes: Uint8Array<ArrayBuffer>;
  let stored: Snapshot;
  let trials = 0;

  const call = (method: string, apiPath: string, body?: unknown) => serve.call(method, apiPath, { cookie, body });

  async function login(): Promise<void> {
    const result = await serve.call('POST', '/auth/login', { body: { username, password } });
    expect(result.status, result.text).toBe(200);
    cookie = result.cookie!;
  }

  async function restart(): Promise<void> {
    serve = await startServeProcess(dataDir);
    await login();
  }

  async function killNow(): Promise<void> {
    serve.child.kill('SIGKILL');
    await serve.exited;
    trials += 1;
  }

  /** Everything stored before the kills still answers. */
  async function expectNothingLost(): Promise<void> {
    for (const id of stored.nodeIds) expect((await call('GET', `/nodes/${id}`)).status, id).toBe(200);
    expect((await call('GET', `/sources/${stored.sourceId}`)).body).toMatchObject({ status: 'indexed' });
    for (const id of stored.chatIds) {
      const chat = (await call('GET', `/chats/${id}`)).body as { messages: { role: string }[] };
      expect(chat.messages.length, id).toBeGreaterThanOrEqual(1);
    }
  }

  const taskOf = (id: string) => async () => (await call('GET', `/queue/tasks/${id}`)).body as TaskView;

  beforeAll(async () => {
    openai = await startFakeOpenAi({ models: ['gpt-4.1'] });
    serve = await startServeProcess(dataDir);
    const setup = await serve.call('POST', '/auth/setup', { body: { username, password } });
    expect(setup.status, setup.text).toBe(201);
    cookie = setup.cookie!;
    expect(
      (
        await call('PATCH', '/settings', {
          llm: {
            chat_provider: 'openai',
            openai_api_key: 'sk-test',
            openai_base_url: openai.url,
            openai_chat_model: 'gpt-4.1',
          },
        })
      ).status,
    ).toBe(200);

    // A package big enough that its import takes a while: 600 nodes made in another database.
    expect((await call('POST', '/databases', { name: 'donor' })).status).toBe(201);
    expect((await call('PATCH', '/databases/current', { name: 'donor' })).status).toBe(200);
    const batch = await call('POST', '/nodes/batch', {
      operations: Array.from({ length: 600 }, (_, index) => ({
        operation: 'create',
        data: { template_id: 'system_template_person', label: `Imported person ${index}` },
      })),
    });
    expect(batch.status, batch.text).toBe(202);
    await waitForTask(call, (batch.body as { task_id: string }).task_id, { timeoutMs: 300_000 });
    const exported = await call('POST', '/exports', {});
    expect(exported.status, exported.text).toBe(202);
    const exportTask = (exported.body as { task_id: string }).task_id;
    await waitForTask(call, exportTask, { timeoutMs: 300_000 });
    const download = await fetch(`${serve.base}/exports/${exportTask}/download`, { headers: { cookie } });
    expect(download.status).toBe(200);
    packageBytes = new Uint8Array(await download.arrayBuffer());
    expect((await call('PATCH', '/databases/current', { name: 'default' })).status).toBe(200);

    // What the operator stored: nodes, an indexed source and a chat with an answer.
    const nodeIds: string[] = [];
    for (const label of ['Ada Lovelace', 'Charles Babbage']) {
      const created = await call('POST', '/nodes', { template_id: 'system_template_person', label });
      expect(created.status, created.text).toBe(201);
      nodeIds.push((created.body as { id: string }).id);
    }
    const form = new FormData();
    form.append('extract_entities', 'false');
    form.append('file', new Blob(['The Analytical Engine was designed by Charles Babbage in 1837.']), 'engine.txt');
    const uploaded = await fetch(`${serve.base}/sources`, { method: 'POST', headers: { cookie }, body: form });
    expect(uploaded.status).toBe(202);
    const sourceId = ((await uploaded.json()) as { id: string }).id;
    await until(
      async () => ((await call('GET', `/sources/${sourceId}`)).body as { status: string }).status === 'indexed',
      {
        timeoutMs: 60_000,
        what: 'the source to be indexed',
      },
    );
    stored = { nodeIds, sourceId, chatIds: [] };
  }, 600_000);

  afterAll(async () => {
    console.log(`attack kill -9: ${trials} kills`);
    await serve?.stop();
    await openai?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing when killed during a .ccx import, and the import settles after the restart', async () => {
    for (const delay of killDelaysMs) {
      const taskId = await submitMergeImport(serve.base, cookie, packageBytes, 'people.ccx');
      await until(async () => ['running', 'completed'].includes((await taskOf(taskId)()).status), {
        timeoutMs: 30_000,
        what: 'the import to start',
      });
      await sleep(delay);
      await killNow();
      await restart();
      await expectNothingLost();
      const settled = await until(
        async () => {
          const task = await taskOf(taskId)();
          return ['completed', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
        },
        { timeoutMs: 180_000, what: `import ${taskId} to settle after the restart` },
      );
      expect(['completed', 'failed']).toContain(settled.status);
    }
    await expectNothingLost();
  }, 900_000);

  it('loses nothing when killed mid-answer; the chat settles and answers the next question', async () => {
    openai.setDelay(3_000);
    for (const delay of killDelaysMs) {
      const chat = (await call('POST', '/chats', { title: `interrupted ${delay}` })).body as { id: string };
      stored.chatIds.push(chat.id);
      const requestsBefore = openai.requests.length;
      expect(
        (await call('POST', `/chats/${chat.id}/send`, { content: 'Who designed the Analytical Engine?' })).status,
      ).toBe(202);
      await until(() => openai.requests.length > requestsBefore, { timeoutMs: 30_000, what: 'the model to be asked' });
      await sleep(delay);
      await killNow();
      await restart();
      await expectNothingLost();
      await until(
        async () => ((await call('GET', `/chats/${chat.id}`)).body as { status: string }).status !== 'processing',
        { timeoutMs: 180_000, what: `chat ${chat.id} to settle after the restart` },
      );
    }
    openai.setDelay(0);
    const last = stored.chatIds.at(-1)!;
    expect((await call('POST', `/chats/${last}/send`, { content: 'And when?' })).status).toBe(202);
    const answered = await until(
      async () => {
        const chat = (await call('GET', `/chats/${last}`)).body as {
          status: string;
          messages: { role: string; content: string }[];
        };
        return chat.status !== 'processing' && chat.messages.at(-1)?.role === 'assistant' ? chat : undefined;
      },
      { timeoutMs: 60_000, what: 'the answer after the restarts' },
    );
    expect(answered.messages.at(-1)!.content).toContain('echo: And when?');
    await expectNothingLost();
  }, 900_000);
});
