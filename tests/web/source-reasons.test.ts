import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';
const history = readFileSync(new URL('../fixtures/everyday/python-history.txt', import.meta.url), 'utf8');

/** The source page says why detection fell back and why finalisation relaxed its rules. */
describe('web interface: a source page gives its reasons', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/sources', password);

  it('shows the generic fallback of a licence-closed history and the kept entities of a legal source', async () => {
    const { server, page, cookie } = signedIn;
    const upload = async (name: string, content: string, fields: Record<string, string>) => {
      const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
        auto_confirm: 'true',
        ...fields,
      });
      expect(accepted.status, accepted.text).toBe(202);
      const id = (accepted.body as SourceResponseBody).id;
      expect((await waitForSource(server, cookie, id, ['committed', 'error'], 90_000)).status).toBe('committed');
      return id;
    };
    const detected = await upload('python-history.txt', history, {});
    // Other bytes: an upload of the same bytes is the same source.
    // Asked to drop unlinked entities, which the builtin extractor otherwise keeps, finalisation relaxes that rule.
    const legal = await upload('python-licence.txt', `${history}\n`, { domain: 'legal', protect_orphans: 'false' });

    await page.goto(`/sources/${detected}`);
    await page.getByText(/The legal cues cover only \d+% of the text/).waitFor();
    await captureScreen(page, 'source-detection-reason');

    await page.goto(`/sources/${legal}`);
    await page.getByText(/of the legal domain's types, so they are kept unlinked/).waitFor();
    // A domain chosen by hand carries no detection reason.
    expect(await page.getByText(/cues cover only/).count()).toBe(0);
    await captureScreen(page, 'source-relaxed-rules');
  });
});
