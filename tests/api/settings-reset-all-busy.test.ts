import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetKnowledgeOperation } from '@rhizome/core/resets';
import { submitDatabaseTask } from '@rhizome/core/tasks';
import { createChat, sendMessage, waitIdle } from '../support/chats.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { untilHolds, waitForTask } from '../support/wait.ts';

/**
 * The reset of everything deletes chats and workflows: it is refused (409 TASKS_RUNNING) while a chat is
 * being answered or a workflow runs, by the request and again by its task under the write lock. The
 * answers are streamed slowly by the real-HTTP fake model server, so the tasks are running when asked.
 */
describe('the reset of everything while chats are answered and workflows run', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const rows = async (table: 'chats' | 'workflows') => {
    const { db } = await server.platform.databases.current();
    return Number(((await db(table).count({ n: '*' }).first()) as { n: number | string }).n);
  };
  const slowAnswer = () => ({ deltas: Array.from({ length: 30 }, (_, index) => `word${index} `), intervalMs: 50 });
  const resetAll = () => call('POST', '/settings/reset/all', { confirmation: 'CONFIRM' });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    ollama = await startFakeOllama({ models: ['qwen3:8b'] });
    const configured = await call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: 'qwen3:8b',
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
    });
    expect(configured.status, configured.text).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await ollama?.close();
  });

  it('refuses while a chat is being answered, naming it, and accepts once the answer is in', async () => {
    const chat = await createChat(server, cookie);
    ollama.scriptChat(slowAnswer());
    await sendMessage(server, cookie, chat.id, 'Count slowly.');

    const refused = await resetAll();
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'CONFLICT',
      message: expect.stringContaining('with 1 chat answer in progress'),
      details: { code: 'TASKS_RUNNING', chat_ids: [chat.id], execution_ids: [] },
    });
    expect(await rows('chats')).toBe(1);

    await waitIdle(server, cookie, chat.id);
    const accepted = await resetAll();
    expect(accepted.status, accepted.text).toBe(202);
    const task = await waitForTask(call, (accepted.body as { task_id: string }).task_id, { statuses: ['completed'] });
    expect(task.result).toMatchObject({ chats_deleted: 1 });
    expect(await rows('chats')).toBe(0);
  });

  it('refuses while a workflow runs, naming its execution', async () => {
    const created = await call('POST', '/workflows', {
      name: 'Slow question',
      steps: [
        { id: 'ask', name: 'ask', tool_type: 'system_tool', tool_id: 'ai.prompt', configuration: { prompt: 'Count.' } },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const workflowId = (created.body as { id: string }).id;
    // The step's one completion is not streamed: the server holds its answer back instead.
    ollama.setDelay(1_500);
    const started = await call('POST', `/workflows/${workflowId}/executions`, { inputs: {} });
    expect(started.status, started.text).toBe(202);
    const executionId = (started.body as { execution_id: string }).execution_id;
    await untilHolds(
      async () => ((await call('GET', `/workflows/executions/${executionId}`)).body as { status: string }).status,
      (status) => status === 'running',
      { what: 'the execution to run' },
    );

    const refused = await resetAll();
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'CONFLICT',
      details: { code: 'TASKS_RUNNING', chat_ids: [], execution_ids: [executionId] },
    });
    expect(await rows('workflows')).toBeGreaterThan(1);
    ollama.setDelay(0);
    await untilHolds(
      async () => ((await call('GET', `/workflows/executions/${executionId}`)).body as { status: string }).status,
      (status) => status === 'completed',
      { timeoutMs: 20_000, what: 'the execution to complete' },
    );
  });

  it('fails the queued reset without wiping when a chat began answering after it was accepted', async () => {
    const chat = await createChat(server, cookie);
    ollama.scriptChat(slowAnswer());
    await sendMessage(server, cookie, chat.id, 'Count slowly again.');
    // As if the request had been accepted a moment before the chat was sent: the task checks again.
    const queued = await submitDatabaseTask(server.platform.queue, 'default', resetKnowledgeOperation, {
      everything: true,
    });
    const task = await waitForTask(call, queued.task_id, { statuses: ['failed'] });
    expect(task.error).toContain('with 1 chat answer in progress');
    expect(await rows('chats')).toBe(1);
    expect(await rows('workflows')).toBeGreaterThan(1);
    await waitIdle(server, cookie, chat.id);
  });
});
