import { describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { until } from '../support/wait.ts';
import { captureScreen, dropFiles, eventually, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/** The upload panel's options reach the API: a forced domain and a filtering mode, remembered by the browser. */
describe('web interface: upload options', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/sources', password);

  it('uploads with a forced domain and strict filtering, and remembers both', async () => {
    const { server, page, cookie } = signedIn;
    await page.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('combobox', { name: 'Domain' }).click();
    await page.getByRole('option', { name: 'Biographical' }).click();
    await page.getByRole('combobox', { name: 'Filtering mode' }).click();
    await page.getByRole('option', { name: 'Strict' }).click();
    await eventually(() => page.getByTestId('upload-summary').innerText()).toContain('domain Biographical');
    await captureScreen(page, 'upload-options');

    await dropFiles(page, '[data-testid="dropzone"]', [
      {
        name: 'keeper.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Miriam Holloway kept the Kestrel Point lighthouse for thirty years.'),
      },
    ]);
    const source = await until(
      async () => {
        const list = (await server.call('GET', '/sources', { cookie })).body as { data: SourceResponseBody[] };
        return list.data.find((candidate) => candidate.filename === 'keeper.txt');
      },
      { what: 'the uploaded source' },
    );
    expect(source.forced_domain).toBe('biographical');
    expect(source.filtering_mode).toBe('strict');

    await page.reload();
    await eventually(() => page.getByTestId('upload-summary').innerText()).toContain('domain Biographical');
    expect(await page.getByTestId('upload-summary').innerText()).toContain('strict filtering');
  });
});
