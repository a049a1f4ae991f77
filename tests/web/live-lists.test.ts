import { describe, expect, it } from 'vitest';
import { uploadSources } from '../support/sources.ts';
import { captureScreen, eventually, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/** A list on screen follows the change stream: what another client adds or deletes shows without a reload. */
describe('web interface: lists refresh from the change stream', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/sources', password);

  it('shows a source added through the API, then drops it when the API deletes it, on the same page', async () => {
    const { server, page, cookie } = signedIn;
    await page.getByText('No sources yet').waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    // Survives only as long as the page is not loaded again.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    const uploaded = await uploadSources(server, cookie, '/sources', [
      { name: 'tide-mills.txt', content: 'The tide mill at Woodbridge turned with the ebb.' },
    ]);
    expect(uploaded.status, uploaded.text).toBe(202);
    const sourceId = (uploaded.body as { id: string }).id;
    const row = page.getByRole('row').filter({ hasText: 'tide-mills.txt' });
    await eventually(() => row.count()).toBe(1);
    await captureScreen(page, 'sources-live-added');

    const deleted = await server.call('DELETE', `/sources/${sourceId}`, { cookie });
    expect(deleted.status, deleted.text).toBe(204);
    await eventually(() => row.count()).toBe(0);
    await page.getByText('No sources yet').waitFor();
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/sources');
  });
});
