import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { indexedText } from '../support/chats.ts';
import { captureScreen, eventually, openBrowser, testTimeout, type Session } from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

/** A turn's controls in the browser: tool approval (allow, deny), stop, regenerate and retry. */
describe('web interface: chat turn controls', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;
  let cookie: string;

  const approval = () => page.getByTestId('tool-approval');
  const answers = () => page.locator('[data-role="assistant"]');

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    await indexedText(
      server,
      cookie,
      'lighthouse.txt',
      'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway. Its lamp was converted to electricity in 1932.',
    );
    const patched = await server.call('PATCH', '/settings', {
      cookie,
      body: { chat: { tool_approval: 'always-ask' } },
    });
    expect(patched.status, patched.text).toBe(200);
    session = await openBrowser(server.url);
    page = session.page;
    const [name, ...value] = cookie.split('=');
    await session.context.addCookies([{ name, value: value.join('='), url: server.url }]);
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('asks before a tool runs; denying it still ends the turn', async () => {
    await page.goto('/chat');
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByLabel('Message').fill('When was the Kestrel Point lighthouse built?');
    await page.keyboard.press('Enter');
    await approval().waitFor();
    // What the tool will do, in a sentence, with its arguments as labelled values (the JSON only under "Raw").
    await approval()
      .getByText(
        'The assistant wants to search the documents and the knowledge graph in every way (words, meaning, graph) for “When was the Kestrel Point lighthouse built?”.',
      )
      .waitFor();
    const given = approval().getByRole('group', { name: 'What search in every mode is given' });
    expect(await given.getByRole('term').allInnerTexts()).toEqual(['query']);
    expect(await approval().innerText()).not.toMatch(/fused_search|graphrag_search|\{"/);
    await captureScreen(page, 'chat-approval', expectNoSidewaysScroll);
    await approval().getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('button', { name: 'Regenerate' }).waitFor();
    expect(await answers().count()).toBe(1);
  });

  it('stops an answer waiting for approval and keeps what was written with the stopped notice', async () => {
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await approval().waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await answers()
      .last()
      .getByText(/stopped by the user/i)
      .waitFor();
    await page.getByRole('button', { name: 'Regenerate' }).waitFor();
  });

  it('regenerates the answer, and an allowed tool leads to a cited answer', async () => {
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await approval().getByRole('button', { name: 'Allow' }).click();
    await page.getByTestId('citation-chip').first().waitFor();
    expect(await answers().count()).toBe(1);
  });

  it('retries a question left without an answer', async () => {
    const chatId = new URL(page.url()).pathname.split('/').at(-1)!;
    const added = await server.call('POST', `/chats/${chatId}/messages`, {
      cookie,
      body: { role: 'user', content: 'Who was the engineer of the Kestrel Point lighthouse?' },
    });
    expect(added.status, added.text).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: 'Retry' }).click();
    await approval().getByRole('button', { name: 'Allow' }).click();
    await eventually(() => answers().count()).toBe(2);
    await eventually(async () => answers().last().innerText()).toMatch(/Holloway/);
  });
});
