import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ChatBody } from '@rhizome/contracts/api/chats';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { createChat, getChat, indexedText } from '../support/chats.ts';
import { captureScreen, eventually, openBrowser, testTimeout, type Session } from './support/browser.ts';
import { expectPhoneFit } from './support/shell.ts';

const model = 'qwen3:8b';

/** Correcting a chat in the browser: starters, edit and resend, thinking folded, what was sent, delete one and all. */
describe('web interface: a chat that can be corrected', { timeout: testTimeout }, () => {
  let server: TestServer;
  let ollama: FakeOllama;
  let session: Session;
  let page: Page;
  let cookie: string;
  let chat: ChatBody;

  const answers = () => page.locator('[data-role="assistant"]');
  const questions = () => page.locator('[data-role="user"]');
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    await indexedText(
      server,
      cookie,
      'lighthouse.txt',
      'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway. Its lamp was converted to electricity in 1932.',
    );
    ollama = await startFakeOllama({ models: [model] });
    const configured = await call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: model,
        localllm_extraction_model: model,
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
      chat: { tool_approval: 'never-ask' },
    });
    expect(configured.status, configured.text).toBe(200);
    const node = async (label: string) =>
      ((await call('POST', '/nodes', { template_id: 'system_template_concept', label })).body as { id: string }).id;
    const hub = await node('Kestrel Point');
    for (const label of ['Miriam Holloway', 'Harbour']) {
      const linked = await call('POST', '/edges', {
        template_id: 'system_template_link',
        source_node_id: await node(label),
        target_node_id: hub,
        label: 'part of',
      });
      expect(linked.status, linked.text).toBe(201);
    }
    // Titled from the start, so no title is asked of the model between the scripted answers.
    chat = await createChat(server, cookie, { title: 'Lighthouse' });
    session = await openBrowser(server.url);
    page = session.page;
    const [name, ...value] = cookie.split('=');
    await session.context.addCookies([{ name, value: value.join('='), url: server.url }]);
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
    await ollama?.close();
  });

  it('starts from a question about the most central entity, with the thinking folded and what was sent', async () => {
    await page.goto(`/chat/${chat.id}`);
    const starters = page.getByRole('group', { name: 'Suggested questions' });
    await starters.getByRole('button', { name: 'What do my sources say about Kestrel Point?' }).waitFor();
    await captureScreen(page, 'chat-starters', expectPhoneFit);
    ollama.scriptChat(
      {
        deltas: ['<think>I should search.</think>'],
        toolCalls: [{ name: 'graphrag_search', arguments: { query: 'Kestrel Point' } }],
      },
      {
        deltas: [
          '<think>The passage ',
          'gives the year.</think>',
          'It was built in 1871 [[cite:C0:S1|lighthouse.txt]].',
        ],
      },
    );
    await starters.getByRole('button', { name: 'What do my sources say about Kestrel Point?' }).click();
    await answers().first().getByTestId('citation-chip').waitFor();
    const answer = answers().first();
    expect(await answer.innerText()).not.toContain('<think>');
    await answer.getByRole('button', { name: 'How the model thought it through' }).click();
    const thinking = answer.getByTestId('thinking');
    await thinking.getByText('I should search.', { exact: false }).waitFor();
    // Each round's thought is a paragraph of its own, not run into the next or into the answer.
    expect(await thinking.innerText()).toContain('I should search.\n\nThe passage gives the year.');
    expect(await answer.innerText()).toMatch(/The passage gives the year\.\n+It was built in 1871/);
    await answer.getByRole('button', { name: 'What was sent' }).click();
    const sent = answer.getByTestId('context-panel');
    await sent.getByRole('button', { name: 'lighthouse.txt' }).waitFor();
    expect(await sent.innerText()).toMatch(/Of the 32,768 tokens context window/);
    expect(await sent.innerText()).toMatch(/1 message of the conversation sent/);
    await captureScreen(page, 'chat-context', expectPhoneFit);
  });

  it('edits a question and sends it again: the later turns are replaced', async () => {
    ollama.scriptChat('Its lamp went electric in 1932.');
    await page.getByLabel('Message').fill('When was the lamp converted?');
    await page.keyboard.press('Enter');
    await eventually(() => answers().count()).toBe(2);
    await eventually(() => answers().last().innerText()).toMatch(/1932/);
    ollama.scriptChat('Miriam Holloway was the engineer.');
    await page.getByLabel('Message').fill('Who drew the plans?');
    await page.keyboard.press('Enter');
    await eventually(() => answers().count()).toBe(3);

    await questions().nth(1).getByRole('button', { name: 'Edit the question' }).click();
    const editor = questions().nth(1).getByLabel('Edit the question');
    await editor.fill('Who was the engineer?');
    ollama.scriptChat('The engineer was Miriam Holloway.');
    await questions().nth(1).getByRole('button', { name: 'Send again' }).click();
    await eventually(() => answers().last().innerText()).toMatch(/The engineer was Miriam Holloway/);
    await eventually(() => answers().count()).toBe(2);
    expect(await questions().allInnerTexts()).toEqual([
      'What do my sources say about Kestrel Point?',
      'Who was the engineer?',
    ]);
    // The phone layout shows the conversation alone (a remount), so the capture shows the corrected chat.
    await captureScreen(page, 'chat-edit', expectPhoneFit);
    const stored = await getChat(server, cookie, chat.id);
    expect(stored.messages.map((message) => message.content)).toEqual([
      'What do my sources say about Kestrel Point?',
      'It was built in 1871 [[cite:' + stored.messages[1].content.split('[[cite:')[1],
      'Who was the engineer?',
      'The engineer was Miriam Holloway.',
    ]);
  });

  it('deletes one chat, then every chat, each after asking', async () => {
    await page.getByRole('button', { name: 'Delete the chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this chat?' });
    await dialog.getByRole('button', { name: 'Keep' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete the chat' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/chat$/);
    expect((await call('GET', `/chats/${chat.id}`)).status).toBe(404);

    for (const title of ['First', 'Second']) await createChat(server, cookie, { title });
    await page.reload();
    const list = page.getByRole('navigation', { name: 'Chats' });
    await eventually(() => list.getByRole('link').count()).toBe(2);
    await page.getByRole('button', { name: 'Delete all chats' }).click();
    const all = page.getByRole('dialog', { name: 'Delete every chat?' });
    await captureScreen(page, 'chat-delete-all');
    await all.getByRole('button', { name: 'Delete all' }).click();
    await page.getByText('No chats yet').waitFor();
    expect((await call('GET', '/chats/stats/count')).body).toEqual({ count: 0 });
  });
});
