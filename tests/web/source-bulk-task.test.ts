import { describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { uploadSources } from '../support/sources.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';
const names = ['Breakwater', 'Crab Pots', 'Ferry Slip', 'Net Loft', 'Sail Shed', 'Tar Barrel'];

/** Bulk actions on sources run by the server as one task: followed across a reload, failures with their reasons. */
describe('web interface: source bulk actions as server tasks', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/sources', password);
  const listed = async () =>
    (
      (await signedIn.server.call('GET', '/sources?page_size=100', { cookie: signedIn.cookie })).body as {
        data: SourceResponseBody[];
      }
    ).data;

  it('deletes four selected sources as one server task, followed across a reload', async () => {
    const { server, page, cookie } = signedIn;
    for (const name of names) {
      const accepted = await uploadSources(
        server,
        cookie,
        '/sources',
        [{ name: `${name}.txt`, content: `The ${name} stands at the end of the quay, tarred against the weather.` }],
        { auto_analyze: 'false' },
      );
      expect(accepted.status, accepted.text).toBe(202);
    }
    await page.goto('/sources');
    const notice = page.getByRole('button', { name: 'Hide this notice for the session' });
    await notice.waitFor({ timeout: 15_000 }).then(
      () => notice.click(),
      () => undefined,
    );
    for (const name of names.slice(0, 4)) await page.getByRole('checkbox', { name: `Select ${name}.txt` }).check();
    await page.getByText('4 sources selected').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete 4 sources?' }).getByRole('button', { name: 'Delete' }).click();
    const job = page.getByTestId('bulk-job');
    await job.getByText('4 items done, 0 items failed').waitFor();
    await page.reload();
    await page.getByTestId('bulk-job').getByText('4 items done, 0 items failed').waitFor();
    await page.getByTestId('bulk-job').getByRole('button', { name: 'Close' }).click();
    expect((await listed()).map((source) => source.filename).sort()).toEqual(
      names.slice(4).map((name) => `${name}.txt`),
    );
    const tasks = (await server.call('GET', '/queue/tasks?operation=sources.bulk', { cookie })).body as {
      data?: { operation: string }[];
    };
    expect(JSON.stringify(tasks)).toContain('sources.bulk');
  });

  it('shows each source a job failed on with the reason, after a reload', async () => {
    const { server, page, cookie } = signedIn;
    const [kept] = await listed();
    const started = await server.call('POST', '/sources/bulk-jobs', {
      cookie,
      body: { action: 'disable', source_ids: [kept.id, 'src_gone_meanwhile'] },
    });
    expect(started.status, started.text).toBe(202);
    const jobId = (started.body as { job_id: string }).job_id;
    // The job as the sources screen keeps it in the browser: a reload opens its dialog again.
    await page.evaluate(
      ([key, value]) => window.localStorage.setItem(key, value),
      ['rhizome:bulk:sources', JSON.stringify({ kind: 'source-job', title: 'Disabling 2 sources', jobId })],
    );
    await page.reload();
    const job = page.getByTestId('bulk-job');
    await job.getByText('1 item done, 1 item failed').waitFor();
    const failed = job.getByRole('list', { name: 'Items that failed' });
    await failed.getByText('src_gone_meanwhile').waitFor();
    await failed.getByText(/not found/).waitFor();
    await captureScreen(page, 'sources-bulk-task');
    await job.getByRole('button', { name: 'Close' }).click();
    expect((await listed()).find((source) => source.id === kept.id)?.enabled).toBe(false);
  });
});
