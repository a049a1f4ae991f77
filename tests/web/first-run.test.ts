import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Settings } from '@rhizome/contracts/settings';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { captureScreen, openBrowser, testTimeout, type Session } from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

const password = 'correct horse battery';

/** The first run in the browser: the account, then a model server verified before it is kept, then its embedding model. */
describe('web interface: the first run', { timeout: testTimeout }, () => {
  let server: TestServer;
  let ollama: FakeOllama;
  let session: Session;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer();
    ollama = await startFakeOllama({ models: ['qwen3:8b', 'qwen3-embedding:0.6b'] });
    session = await openBrowser(server.url);
    page = session.page;
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
    await ollama?.close();
  });

  it('creates the account, then offers the models with what each gives and costs', async () => {
    await page.goto('/');
    await page.getByLabel('Username').fill('operator');
    await page.getByLabel(/^Password/).fill(password);
    await page.getByLabel('Repeat the password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Choose a model' }).waitFor();
    for (const name of ['Builtin, offline', 'A model server on your network', 'A cloud provider'])
      await page.getByRole('radio', { name }).waitFor();
    await captureScreen(page, 'first-run-model', expectNoSidewaysScroll);
  });

  it('keeps a model server only once it answered, with a model it has', async () => {
    await page.getByRole('radio', { name: 'A model server on your network' }).click();
    const save = page.getByRole('button', { name: 'Save and continue' });
    await page.getByLabel('Server address').fill('http://127.0.0.1:9');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Not reachable').waitFor();
    expect(await save.isDisabled()).toBe(true);

    await page.getByLabel('Server address').fill(ollama.url);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connected').waitFor();
    await page.getByLabel('Model for answers and extraction').first().click();
    await page.getByRole('option', { name: 'qwen3:8b' }).click();
    await captureScreen(page, 'first-run-local', expectNoSidewaysScroll);
    await save.click();

    await page.getByRole('heading', { name: 'Choose embeddings' }).waitFor();
    await page.getByRole('radio', { name: 'An embedding model on your model server' }).click();
    expect(await page.getByLabel(`Embedding model on ${ollama.url}`).first().inputValue()).toBe('qwen3-embedding:0.6b');
    await captureScreen(page, 'first-run-embedding', expectNoSidewaysScroll);
    await page.getByRole('button', { name: 'Save and finish' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // A real model is configured: no banner about the builtin one.
    expect(await page.getByTestId('banner-builtin').count()).toBe(0);

    const cookies = await session.context.cookies();
    const cookie = cookies.map((item) => `${item.name}=${item.value}`).join('; ');
    const settings = (await server.call('GET', '/settings', { cookie })).body as Settings;
    expect(settings.llm).toMatchObject({
      chat_provider: 'localllm',
      localllm_chat_model: 'qwen3:8b',
      localllm_extraction_model: 'qwen3:8b',
      localllm_instances: [expect.objectContaining({ id: 'default', base_url: ollama.url, enabled: true })],
    });
    expect(settings.embedding).toMatchObject({ provider: 'localllm', model: 'qwen3-embedding:0.6b' });
    expect(settings.search.embedding_model).toBe('qwen3-embedding:0.6b');
  });
});
