import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { captureScreen, eventually, openBrowser, testTimeout, type Session, signInAt } from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

const password = 'correct horse battery';

interface Llm {
  chat_provider: string;
  localllm_instances: { base_url: string }[];
  localllm_chat_model: string;
  openai_api_key: string | null;
}

/** Providers (a fake Ollama server, verified), masked keys, and the schema-generated settings forms with field errors and reset. */
describe('web interface: settings', { timeout: testTimeout }, () => {
  let server: TestServer;
  let ollama: FakeOllama;
  let session: Session;
  let page: Page;
  let cookie: string;

  const settings = async () =>
    (await server.call('GET', '/settings', { cookie })).body as {
      llm: Llm;
      search: { max_search_results: number };
      registry: { url: string };
    };
  const pick = async (target: Page, label: string, option: string) => {
    await target.getByRole('combobox', { name: label, exact: true }).click();
    await target.getByRole('option', { name: option, exact: true }).click();
  };

  beforeAll(async () => {
    [server, ollama] = await Promise.all([
      startTestServer(),
      startFakeOllama({ models: ['llama3.2:latest', 'qwen3:8b', 'nomic-embed-text:latest'] }),
    ]);
    cookie = await setUpAccount(server, 'operator', password);
    session = await openBrowser(server.url);
    page = session.page;
    await signInAt(page, '/', password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await Promise.all([server?.stop(), ollama?.close()]);
  });

  it('lists API keys without sideways scrolling on a phone', async () => {
    await page.goto('/settings');
    await page.getByLabel('Name of the new key').fill('nightly export script');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-api-key').waitFor();
    await page.getByRole('cell', { name: /^nightly export script/ }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the dates move under the key's name instead of columns of their own.
    await page
      .getByRole('cell', { name: /^nightly export script/ })
      .getByText(/never used/)
      .waitFor();
    // The new key wraps inside its box, so its copy button stays on the screen.
    const copy = await page.getByRole('button', { name: 'Copy the key' }).boundingBox();
    expect(copy!.x + copy!.width).toBeLessThanOrEqual(390 - 16);
    await page.setViewportSize({ width: 1280, height: 800 });
    await captureScreen(page, 'settings-account', expectNoSidewaysScroll);
  });

  it('switches the provider to a local model server, lists its models, saves and verifies it', async () => {
    await page.goto('/settings?tab=providers');
    await page.getByRole('radio', { name: 'Local model server' }).click();
    const address = page.getByRole('textbox', { name: 'Server address' });
    await address.fill(ollama.url);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/Version 0\.12\.6 · 3 models/).waitFor();
    await pick(page, 'Chat model', 'llama3.2:latest');
    await pick(page, 'Extraction model', 'qwen3:8b');
    await captureScreen(page, 'settings-providers-local', expectNoSidewaysScroll);
    await page.getByRole('button', { name: 'Save and verify' }).click();
    await page.getByText('The provider answers').waitFor();

    const { llm } = await settings();
    expect(llm.chat_provider).toBe('localllm');
    expect(llm.localllm_instances.map((instance) => instance.base_url)).toEqual([ollama.url]);
    expect(llm.localllm_chat_model).toBe('llama3.2:latest');
    expect(ollama.requests.some((request) => request.path === '/api/tags')).toBe(true);
  });

  it('says when the local server does not answer', async () => {
    ollama.setDown(true);
    try {
      await page.getByRole('button', { name: 'Test connection' }).click();
      await page.getByText('Not reachable').waitFor();
    } finally {
      ollama.setDown(false);
    }
  });

  it('takes a cloud key without ever showing the stored one', async () => {
    await page.getByRole('radio', { name: 'OpenAI' }).click();
    const key = page.getByLabel('OpenAI API key');
    await key.fill('sk-test-secret-value');
    await page.getByRole('button', { name: 'Save and verify' }).click();
    await page.getByText(/The provider (answers|does not answer yet)/).waitFor();
    expect((await settings()).llm.openai_api_key).toBe('configured');
    await page.reload();
    await page.getByRole('radio', { name: 'OpenAI' }).waitFor();
    await page.getByText('A key is stored; it is never shown. Paste a new one to replace it.').waitFor();
    expect(await page.getByLabel('OpenAI API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain('sk-test-secret-value');
    await captureScreen(page, 'settings-providers-cloud', expectNoSidewaysScroll);
  });

  it('shows a validation error at the field, then saves, then resets every setting', async () => {
    await page.goto('/settings?tab=all');
    await page
      .getByRole('navigation', { name: 'Settings groups' })
      .getByRole('button', { name: 'Search', exact: true })
      .click();
    const field = page.getByRole('textbox', { name: 'Most search results' });
    // A duration says its unit beside the number and what it does under the label.
    const pause = page.getByRole('textbox', { name: 'Typing pause before searching' });
    expect(await pause.inputValue()).toBe('300');
    const pauseField = page.locator('.mantine-InputWrapper-root', { has: pause });
    await pauseField.getByText('ms', { exact: true }).waitFor();
    await pauseField.getByText(/The search box waits this long after the last key/).waitFor();
    await field.fill('0');
    await page.getByRole('button', { name: 'Save search' }).click();
    await page.getByText('Must be at least 1').waitFor();
    expect((await settings()).search.max_search_results).toBe(100);

    await page
      .getByRole('navigation', { name: 'Settings groups' })
      .getByRole('button', { name: 'Registry', exact: true })
      .click();
    await page.getByRole('textbox', { name: 'Registry address', exact: true }).fill('registry.example');
    await page.getByRole('button', { name: 'Save registry' }).click();
    await page.getByText('Enter an address starting with http:// or https://').waitFor();
    await captureScreen(page, 'settings-all-error', expectNoSidewaysScroll);

    await page
      .getByRole('navigation', { name: 'Settings groups' })
      .getByRole('button', { name: 'Search', exact: true })
      .click();
    await field.fill('42');
    await page.getByRole('button', { name: 'Save search' }).click();
    await page.getByText('Search saved.').waitFor();
    expect((await settings()).search.max_search_results).toBe(42);

    await page.getByRole('button', { name: 'Reset all settings…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset all settings' }).click();
    await page.getByText('Every setting is back to its default.').waitFor();
    const reset = await settings();
    expect(reset.search.max_search_results).toBe(100);
    expect(reset.llm.chat_provider).toBe('builtin');
    expect(await field.inputValue()).toBe('100');
    await captureScreen(page, 'settings-all', expectNoSidewaysScroll);

    await page.goto('/settings?tab=all&group=timeouts');
    await page.getByRole('textbox', { name: 'Wait for a chat answer' }).waitFor();
    await captureScreen(page, 'settings-all-timeouts', expectNoSidewaysScroll);
  });

  it('shows at most three notices at once, and on a phone two, at the top, briefly, never over a dialog', async () => {
    const notices = page.locator('.mantine-Notification-root');
    const field = page.getByRole('textbox', { name: 'Most search results' });
    const save = page.getByRole('button', { name: 'Save search' });
    /** Page time for the notices' transitions to finish, well inside their 3 s on screen. */
    const transition = 300;
    const saveFiveTimes = async () => {
      for (const value of ['41', '42', '43', '44', '45']) {
        await field.fill(value);
        await field.press('Enter');
        // Saved when Save is off without being busy (it turns off while busy too).
        await eventually(
          async () => (await save.isDisabled()) && (await save.getAttribute('data-loading')) === null,
        ).toBe(true);
        await page.clock.runFor(transition);
      }
    };
    /** Lets page time pass until every notice has left, at most `within` ms of it. */
    const leaveWithin = async (within: number) => {
      for (let passed = 0; passed < within && (await notices.count()) > 0; passed += 250) await page.clock.runFor(250);
      await eventually(() => notices.count()).toBe(0);
    };
    await page.goto('/settings?tab=all&group=search');
    await field.waitFor();
    // The test holds the page's clock: notices stay until it lets their time pass, however slow the machine is.
    await page.clock.install();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    try {
      await saveFiveTimes();
      await eventually(() => notices.count()).toBe(3);
      // They leave within seconds (the queued ones after them).
      await leaveWithin(15_000);

      await page.setViewportSize({ width: 390, height: 844 });
      await saveFiveTimes();
      await eventually(() => notices.count()).toBe(2);
      // Over the header, not over the form the person is working in.
      for (const box of await notices.evaluateAll((all) => all.map((notice) => notice.getBoundingClientRect().bottom)))
        expect(box).toBeLessThan(844 / 3);
      // A dialog opened meanwhile is above them: a notice never covers what a dialog asks.
      await page.getByRole('button', { name: 'Reset all settings…' }).click();
      await page.clock.runFor(transition);
      await page.getByRole('dialog').waitFor();
      const covered = await notices.evaluateAll((all) =>
        all.map((notice) => {
          const box = notice.getBoundingClientRect();
          return !notice.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        }),
      );
      expect(covered).toEqual([true, true]);
      await page.keyboard.press('Escape');
      await page.clock.runFor(transition);
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.clock.resume();
      await captureScreen(page, 'notices-phone');
      await eventually(() => notices.count()).toBe(0);
    } finally {
      await page.clock.resume();
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
