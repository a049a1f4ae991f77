import { describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/** Tags on the source page, by keyboard: typed and Enter adds, Backspace removes; the server holds what it shows. */
describe('web interface: tagging a source', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/sources', password);

  const tagsOf = async (id: string) =>
    (
      (await signedIn.server.call('GET', `/sources/${id}/tags`, { cookie: signedIn.cookie })).body as { name: string }[]
    ).map((tag) => tag.name);

  it('adds an existing tag and a new one, then removes one, as the server records it', async () => {
    const { server, page, cookie } = signedIn;
    const existing = await server.call('POST', '/sources/tags', { cookie, body: { name: 'Coast', color: null } });
    expect(existing.status, existing.text).toBe(201);
    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: 'harbour.txt', content: 'The harbour at Kestrel Point freezes only in the coldest winters.' }],
      { auto_analyze: 'false' },
    );
    expect(accepted.status, accepted.text).toBe(202);
    const id = (accepted.body as SourceResponseBody).id;
    await waitForSource(server, cookie, id, ['indexed', 'awaiting_confirmation']);

    await page.goto(`/sources/${id}`);
    const input = page.getByRole('combobox', { name: 'Tags' });
    await input.click();
    await input.fill('coast');
    await input.press('Enter');
    await until(async () => ((await tagsOf(id)).length === 1 ? true : undefined), { what: 'the first tag' });
    await input.fill('winter');
    await input.press('Enter');
    await until(async () => ((await tagsOf(id)).length === 2 ? true : undefined), { what: 'the second tag' });
    // Typed in another case, the existing tag is reused rather than a second one made.
    expect((await tagsOf(id)).sort()).toEqual(['Coast', 'winter']);
    const all = (await server.call('GET', '/sources/tags', { cookie })).body as { name: string }[];
    expect(all.map((tag) => tag.name).sort()).toEqual(['Coast', 'winter']);
    await page.getByText('winter', { exact: true }).waitFor();
    await captureScreen(page, 'source-tags');

    await input.click();
    await input.press('Backspace');
    await until(async () => ((await tagsOf(id)).length === 1 ? true : undefined), { what: 'the removed tag' });
    expect(await tagsOf(id)).toEqual(['Coast']);
  });
});
