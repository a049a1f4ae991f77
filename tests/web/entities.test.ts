import { describe, expect, it } from 'vitest';
import { until } from '../support/wait.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

interface Node {
  id: string;
  label: string;
  template_id: string;
}

/** The entities list and page: bulk retype through the queue, and an entity created, edited and deleted by hand. */
describe('web interface: entities', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await signedIn.server.call(method, path, { cookie: signedIn.cookie, body });
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body as T;
  };
  const template = (name: string) =>
    api<{ id: string }>('POST', '/templates', {
      name,
      template_type: 'node',
      properties: [{ name: 'born', display_name: 'Born', property_type: 'integer' }],
    });

  it('retypes ten selected entities at once as a queue task, and the server holds the new type', async () => {
    const { page } = signedIn;
    const keeper = await template('Keeper');
    const lighthouse = await template('Lighthouse');
    for (let index = 1; index <= 12; index += 1)
      await api('POST', '/nodes', { template_id: keeper.id, label: `Keeper ${String(index).padStart(2, '0')}` });

    await page.goto(`/entities?type=${keeper.id}`);
    await page.getByRole('link', { name: 'Keeper 12' }).waitFor();
    for (let index = 1; index <= 10; index += 1)
      await page.getByRole('checkbox', { name: `Select Keeper ${String(index).padStart(2, '0')}` }).check();
    await page.getByText('10 entities selected').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await captureScreen(page, 'entities-list');

    await page.getByRole('button', { name: 'Change type' }).click();
    const dialog = page.getByRole('dialog', { name: /Change the type of 10 entities/ });
    await dialog.getByRole('combobox', { name: 'New type' }).click();
    await page.getByRole('option', { name: 'Lighthouse' }).click();
    await dialog.getByRole('button', { name: 'Change type' }).click();

    const job = page.getByTestId('bulk-job');
    await job.getByText('10 items done, 0 items failed').waitFor();
    await captureScreen(page, 'entities-bulk-job');
    // The dialog follows the job across a reload until it is closed.
    await page.reload();
    await page.getByTestId('bulk-job').getByText('10 items done, 0 items failed').waitFor();
    await page.getByTestId('bulk-job').getByRole('button', { name: 'Close' }).click();

    const retyped = await api<{ data: Node[] }>('GET', `/nodes?template_id=${lighthouse.id}&page_size=50`);
    expect(retyped.data.map((node) => node.label).sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `Keeper ${String(index + 1).padStart(2, '0')}`),
    );
    const kept = await api<{ data: Node[] }>('GET', `/nodes?template_id=${keeper.id}&page_size=50`);
    expect(kept.data.map((node) => node.label).sort()).toEqual(['Keeper 11', 'Keeper 12']);
    // The list, still filtered to the old type, shows the two left.
    await until(
      async () => ((await page.getByRole('checkbox', { name: /^Select Keeper/ }).count()) === 2 ? true : undefined),
      {
        what: 'the list after the retype',
      },
    );
  });

  it('creates an entity by hand, renames it on its page and deletes it', async () => {
    const { page } = signedIn;
    const harbour = await template('Harbour');
    await page.goto('/entities');
    await page.getByRole('button', { name: 'New entity' }).click();
    const dialog = page.getByRole('dialog', { name: 'New entity' });
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Harbour' }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Kestrel Harbour');
    await dialog.getByRole('textbox', { name: 'Born' }).fill('1871');
    await dialog.getByRole('button', { name: 'Create entity' }).click();

    await page.waitForURL(/\/entities\/[^/?]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const created = await api<Node & { properties: Record<string, unknown> }>('GET', `/nodes/${id}`);
    expect(created).toMatchObject({ label: 'Kestrel Harbour', template_id: harbour.id, properties: { born: 1871 } });
    await page.getByRole('heading', { name: 'Kestrel Harbour', level: 1 }).waitFor();
    await captureScreen(page, 'entity-detail');

    await page.getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: /Rename/ });
    await rename.getByRole('textbox', { name: 'Name' }).fill('Kestrel Old Harbour');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Kestrel Old Harbour', level: 1 }).waitFor();
    expect((await api<Node>('GET', `/nodes/${id}`)).label).toBe('Kestrel Old Harbour');

    for (const tab of ['Connections', 'Sources', 'JSON']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel', { name: tab }).waitFor();
    }
    await page.getByRole('tabpanel', { name: 'JSON' }).getByText('"label": "Kestrel Old Harbour"').waitFor();
    await captureScreen(page, 'entity-detail-json');

    await page.getByRole('tab', { name: 'Details' }).click();
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: /Delete Kestrel Old Harbour/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.waitForURL(/\/entities$/);
    const gone = await signedIn.server.call('GET', `/nodes/${id}`, { cookie: signedIn.cookie });
    expect(gone.status).toBe(404);
  });
});
