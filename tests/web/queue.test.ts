import { describe, expect, it } from 'vitest';
import { until } from '../support/wait.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/** The queue screen: a task kept queued by a pause is cancelled from its row, and the server records it. */
describe('web interface: the queue', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);
  const call = (method: string, path: string, body?: unknown) =>
    signedIn.server.call(method, path, { cookie: signedIn.cookie, body });

  it('cancels a queued task from /queue and shows its detail', async () => {
    const { server, page } = signedIn;
    // Signed in once the first screen shows.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'detached' });
    server.platform.operations.define('test.waits_for_resume', { queue: 'operations', pausable: true }, async () => ({
      ran: true,
    }));
    expect((await call('POST', '/system/processing/pause', { reason: 'queue screen test' })).status).toBe(200);
    const submitted = await call('POST', '/queue/tasks', {
      queue: 'operations',
      operation: 'test.waits_for_resume',
      data: { harbour: 'Kestrel Point' },
      priority: 70,
    });
    expect(submitted.status, submitted.text).toBe(201);
    const taskId = (submitted.body as { task_id: string }).task_id;
    const status = async () => ((await call('GET', `/queue/tasks/${taskId}`)).body as { status: string }).status;
    expect(await status()).toBe('queued');

    await page.goto('/queue');
    await page.getByTestId('lane-operations').getByText('Queued').waitFor();
    await page.getByRole('button', { name: 'test.waits_for_resume', exact: true }).click();
    const detail = page.getByTestId('task-detail');
    await detail.getByText('"harbour": "Kestrel Point"').waitFor();
    await captureScreen(page, 'queue-task-detail');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });
    await captureScreen(page, 'queue');

    const cancel = page.getByRole('button', { name: 'Cancel test.waits_for_resume' });
    await cancel.focus();
    await page.keyboard.press('Enter');
    await until(async () => ((await status()) === 'cancelled' ? true : undefined), { what: 'the cancelled task' });
    // The row follows from the change stream: it now reads Cancelled and offers no cancel.
    await page.getByRole('table', { name: 'Tasks' }).getByText('Cancelled').waitFor();
    await cancel.waitFor({ state: 'detached' });
    expect((await call('POST', '/system/processing/resume')).status).toBe(200);
  });
});
