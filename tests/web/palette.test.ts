import { describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { captureScreen, eventually, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/**
 * The command palette, by keyboard only: Ctrl+K from any screen, a name typed, Enter. It reaches an
 * entity asked of the server, runs "pause processing" (read back through the API), jumps to a screen and,
 * in search mode, opens the source of a passage at that passage.
 */
describe('web interface: the command palette', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);
  const palette = () => signedIn.page.getByRole('textbox', { name: 'Go to, run or search' });
  const results = () => signedIn.page.getByRole('dialog', { name: 'Command palette' });

  async function openWithShortcut(): Promise<void> {
    const { page } = signedIn;
    // The signed-in shell is up (not the sign-in form, which has a heading too).
    await page
      .getByRole('button', { name: /Search or jump to/ })
      .first()
      .waitFor();
    await page.keyboard.press('Control+k');
    await palette().waitFor();
    await eventually(() => palette().evaluate((input) => input === document.activeElement)).toBe(true);
  }

  /** Types into the palette and presses Enter once `first` is the selected (first) result. */
  async function choose(typed: string, first: string): Promise<void> {
    const { page } = signedIn;
    await palette().fill(typed);
    await eventually(() => page.locator('[data-action][data-selected]').first().innerText()).toContain(first);
    await page.keyboard.press('Enter');
  }

  it('reaches an entity by typing part of its name', async () => {
    const { server, page, cookie } = signedIn;
    const templates = (await server.call('GET', '/templates?template_type=node&page_size=1', { cookie })).body as {
      data: { id: string }[];
    };
    const created = await server.call('POST', '/nodes', {
      cookie,
      body: { template_id: templates.data[0].id, label: 'Marigold Observatory' },
    });
    expect(created.status, created.text).toBe(201);
    const entity = created.body as { id: string };

    await openWithShortcut();
    await choose('marigo', 'Marigold Observatory');
    await eventually(() => new URL(page.url()).pathname).toBe(`/entities/${entity.id}`);
  });

  it('pauses and resumes processing from the palette', async () => {
    const { server, page, cookie } = signedIn;
    const paused = async () =>
      ((await server.call('GET', '/system/processing/status', { cookie })).body as { paused: boolean }).paused;
    expect(await paused()).toBe(false);

    await openWithShortcut();
    await choose('pause proc', 'Pause processing');
    await eventually(paused).toBe(true);
    await page.getByText('Processing paused.').waitFor();

    await openWithShortcut();
    await choose('resume', 'Resume processing');
    await eventually(paused).toBe(false);
  });

  it('jumps to a screen, and in search mode opens a passage in its source', async () => {
    const { server, page, cookie } = signedIn;
    await openWithShortcut();
    await choose('queue', 'Queue');
    await eventually(() => new URL(page.url()).pathname).toBe('/queue');

    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: 'harbour.txt', content: 'The harbour at Kestrel Point freezes only in the coldest winters.' }],
      { extract_entities: 'false' },
    );
    expect(accepted.status, accepted.text).toBe(202);
    const source = accepted.body as SourceResponseBody;
    await waitForSource(server, cookie, source.id, ['indexed']);

    await page.goto('/sources');
    await openWithShortcut();
    await palette().fill('kestrel');
    // The palette offers to search for what was typed; choosing it switches to search mode in place.
    await results().getByRole('button', { name: 'Search passages and entities for “kestrel”' }).click();
    await eventually(() => palette().inputValue()).toBe('? kestrel');
    await eventually(() => page.locator('[data-action][data-selected]').first().innerText()).toContain(
      'coldest winters',
    );
    await captureScreen(page, 'palette-search');
    await page.keyboard.press('Enter');
    await eventually(() => new URL(page.url()).pathname).toBe(`/sources/${source.id}`);
    expect(new URL(page.url()).searchParams.get('chunk')).toBeTruthy();
  });

  it('lists screens and commands when opened from the header button', async () => {
    const { page } = signedIn;
    await page.goto('/');
    await page.getByRole('button', { name: /Search or jump to/ }).click();
    await palette().waitFor();
    await results().getByRole('button', { name: 'Entities', exact: true }).waitFor();
    await results()
      .getByRole('button', { name: /^Pause processing/ })
      .waitFor();
    await captureScreen(page, 'palette');
    await page.keyboard.press('Escape');
    await eventually(() => palette().count()).toBe(0);
  });
});
