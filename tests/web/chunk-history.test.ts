import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { chunkScript, twoGroupDocument, useTwoGroups } from '../api/chunk-history-fixture.ts';
import { captureScreen, eventually, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/** The source page's Extraction tab: a chunk's attempts in full, and a re-run that adds the next one. */
describe('web interface: a chunk’s extraction history', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/sources', password);
  let ollama: FakeOllama;

  beforeAll(async () => {
    ollama = await startFakeOllama({ models: ['qwen3:8b', 'qwen3:14b'] });
  });
  afterAll(() => ollama.close());

  it('opens a chunk’s attempt, re-runs the chunk with another model and shows the new attempt', async () => {
    const { server, page, cookie } = signedIn;
    await useTwoGroups((method, apiPath, body) => server.call(method, apiPath, { cookie, body }), ollama.url);
    ollama.scriptChat(...chunkScript.first, ...chunkScript.second);
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'two.txt', content: twoGroupDocument }], {
      domain: 'biographical',
      auto_confirm: 'true',
    });
    expect(accepted.status, accepted.text).toBe(202);
    const id = (accepted.body as SourceResponseBody).id;
    expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');

    await page.goto(`/sources/${id}`);
    await page.getByRole('tab', { name: 'Extraction' }).click();
    await page.getByRole('button', { name: 'Chunk 1', exact: true }).click();
    await page.getByText('Entities pass').click();
    await page.getByText('Atlantis').first().waitFor();
    await page
      .getByText(/no cited sentence names it/)
      .first()
      .waitFor();
    await captureScreen(page, 'chunk-history');

    await page.getByRole('button', { name: 'Chunk 2', exact: true }).click();
    await page.getByRole('heading', { name: /Chunk 2: 1 attempt/ }).waitFor();
    ollama.scriptChat(...chunkScript.secondAgain);
    // Another provider can be chosen too; this re-run keeps the configured one and names another model.
    await page.getByRole('combobox', { name: 'Provider for the re-run' }).click();
    await page.getByRole('option', { name: 'OpenAI' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByLabel('Model for the re-run').fill('qwen3:14b');
    await page.getByRole('button', { name: 'Re-run this chunk' }).click();
    await eventually(() => page.getByRole('heading', { name: /Chunk 2: 2 attempts/ }).count(), {
      message: 'the re-run attempt listed',
    }).toBe(1);
    await page.getByText(/Local model server · qwen3:14b ·/).waitFor();
    expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
    await page.getByRole('cell', { name: 'University of Copenhagen' }).first().waitFor();
    await captureScreen(page, 'chunk-rerun');
  });
});
