import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { captureScreen, eventually, openBrowser, signInAt, testTimeout, type Session } from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

const password = 'correct horse battery';

/** Settings → Maintenance: local server models pulled and removed, the embedding dimension check, and resets confirmed by name. */
describe('web interface: settings maintenance', { timeout: testTimeout }, () => {
  let server: TestServer;
  let ollama: FakeOllama;
  let session: Session;
  let page: Page;
  let cookie: string;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, { cookie, body });

  beforeAll(async () => {
    [server, ollama] = await Promise.all([
      startTestServer(),
      startFakeOllama({ models: ['llama3.2:latest'], pullIntervalMs: 300 }),
    ]);
    cookie = await setUpAccount(server, 'operator', password);
    const instances = [{ id: 'default', name: 'Desk', base_url: ollama.url, enabled: true }];
    expect((await call('PATCH', '/settings', { llm: { localllm_instances: instances } })).status).toBe(200);
    session = await openBrowser(server.url);
    page = session.page;
    await signInAt(page, '/', password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await Promise.all([server?.stop(), ollama?.close()]);
  });

  it('refuses a reset until the database name is typed, then deletes the chats', async () => {
    for (const title of ['Tides', 'Lamps']) expect((await call('POST', '/chats', { title })).status).toBe(201);
    await page.goto('/settings?tab=maintenance');
    const button = page.getByRole('button', { name: 'Delete chats' });
    const confirm = page.getByRole('textbox', { name: 'Type “default” to confirm' }).first();
    expect(await button.isDisabled()).toBe(true);
    await confirm.fill('defaul');
    expect(await button.isDisabled()).toBe(true);
    expect(((await call('GET', '/chats')).body as { pagination: { total: number } }).pagination.total).toBe(2);
    await confirm.fill('default');
    await button.click();
    await page.getByText('Deleted 2 chats.').waitFor();
    expect(((await call('GET', '/chats')).body as { pagination: { total: number } }).pagination.total).toBe(0);
  });

  it('deletes the knowledge only once the database name is typed, keeping the chats', async () => {
    const accepted = await uploadSources(server, cookie, '/sources', [
      { name: 'tides.txt', content: 'The tides of the Bay of Fundy are the highest in the world, twice a day.' },
    ]);
    expect(accepted.status, accepted.text).toBe(202);
    const sourceId = (accepted.body as { id: string }).id;
    await waitForSource(server, cookie, sourceId, ['indexed', 'awaiting_confirmation', 'committed'], 60_000);
    expect((await call('POST', '/chats', { title: 'Kept' })).status).toBe(201);
    const total = async (path: string) =>
      ((await call('GET', `${path}?page_size=1`)).body as { pagination: { total: number } }).pagination.total;

    await page.goto('/settings?tab=maintenance');
    const card = page.getByRole('group', { name: 'Delete the knowledge' });
    const button = card.getByRole('button', { name: 'Delete knowledge' });
    const confirm = card.getByRole('textbox', { name: 'Type “default” to confirm' });
    expect(await button.isDisabled()).toBe(true);
    await confirm.fill('Default');
    expect(await button.isDisabled()).toBe(true);
    await button.click({ force: true });
    expect(await total('/sources')).toBe(1);
    await confirm.fill('default');
    await button.click();
    await card.getByText(/^Deleted 1 source, /).waitFor();
    expect(await total('/sources')).toBe(0);
    expect(await total('/chats')).toBe(1);
    const hide = page.getByRole('button', { name: 'Hide this notice for the session' });
    if (await hide.count()) await hide.click();
    await captureScreen(page, 'settings-resets', async () => {
      await card.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
    });
  });

  it('pulls a model with a progress bar, shows its details and removes it after confirming', async () => {
    await page.goto('/settings?tab=maintenance');
    await page.getByRole('textbox', { name: 'Model to pull' }).fill('qwen3:8b');
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Pull onto Desk' });
    await bar.waitFor();
    await eventually(async () => expect(await bar.getAttribute('aria-valuenow')).toBe('100'));
    await page.getByText('Desk: Installed').waitFor();
    expect(ollama.pulls).toEqual([{ model: 'qwen3:8b', finished: true, abandoned: false }]);
    await page.getByRole('cell', { name: 'qwen3:8b', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Details of llama3.2:latest on Desk' }).click();
    await page.getByTestId('model-details').getByText('Q4_K_M').waitFor();
    await page.getByText('A dimension change needs a re-embed').waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Model', exact: true }).click();
    await page.getByRole('option', { name: /^qwen3-embedding:0\.6b · 1024 dimensions/ }).click();
    await page.getByText('A dimension change needs a re-embed').waitFor();
    // The shell's session notice (its own tests check it) is hidden, so the captures show this screen.
    const hide = page.getByRole('button', { name: 'Hide this notice for the session' });
    if (await hide.count()) await hide.click();
    await captureScreen(page, 'settings-maintenance', expectNoSidewaysScroll);

    await page.getByRole('button', { name: 'Remove qwen3:8b from Desk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the model?' });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'qwen3:8b', exact: true }).waitFor({ state: 'detached' });
    const models = (await call('GET', '/settings/localllm/models')).body as { models: { name: string }[] };
    expect(models.models.map((model) => model.name)).toEqual(['llama3.2:latest']);
  });
});
