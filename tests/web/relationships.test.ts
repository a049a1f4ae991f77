import { describe, expect, it } from 'vitest';
import { until } from '../support/wait.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

interface Edge {
  id: string;
  label: string;
  properties: Record<string, unknown>;
}

/** The relationships list and page: three of five deleted at once, one edited by its template's types, then deleted. */
describe('web interface: relationships', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await signedIn.server.call(method, path, { cookie: signedIn.cookie, body });
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body as T;
  };
  const edgeIds = async () => (await api<{ data: Edge[] }>('GET', '/edges?page_size=100')).data;

  it('bulk-deletes three relationships and edits and deletes another on its page', async () => {
    const { page } = signedIn;
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'detached' });
    const node = (label: string) =>
      api<{ id: string }>('POST', '/nodes', {
        template_id: 'system_template_item',
        label,
        properties: { definition: `The ${label}` },
      });
    const keeper = await node('Ada Keeper');
    const places = [];
    for (const name of ['Gull Rock', 'Kestrel Point', 'Old Pier', 'Signal Hill', 'Tide Mill'])
      places.push(await node(name));
    const tended = await api<{ id: string }>('POST', '/templates', {
      name: 'Tended',
      template_type: 'edge',
      properties: [{ name: 'since', display_name: 'Since', property_type: 'integer' }],
    });
    for (const place of places)
      await api('POST', '/edges', {
        template_id: tended.id,
        source_node_id: keeper.id,
        target_node_id: place.id,
        label: 'tended',
      });

    await page.goto('/relationships');
    for (const name of ['Gull Rock', 'Kestrel Point', 'Old Pier'])
      await page.getByRole('checkbox', { name: `Select Ada Keeper Tended ${name}` }).check();
    await page.getByText('3 relationships selected').waitFor();
    await captureScreen(page, 'relationships-list');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete 3 relationships?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('bulk-job').getByText('3 items done, 0 items failed').waitFor();
    await page.getByTestId('bulk-job').getByRole('button', { name: 'Close' }).click();
    expect((await edgeIds()).length).toBe(2);
    await until(
      async () => ((await page.getByRole('checkbox', { name: /^Select Ada Keeper/ }).count()) === 2 ? true : undefined),
      {
        what: 'the two relationships left in the list',
      },
    );

    await page.getByRole('link', { name: 'Tended' }).first().click();
    await page.waitForURL(/\/relationships\/[^/]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('textbox', { name: 'Relationship' }).fill('kept_light_at');
    await page.getByRole('textbox', { name: 'Since' }).fill('1871');
    await captureScreen(page, 'relationship-detail');
    await page.getByRole('button', { name: 'Save relationship' }).click();
    await until(
      async () => {
        const edge = await api<Edge>('GET', `/edges/${id}`);
        return edge.label === 'kept_light_at' && edge.properties.since === 1871 ? true : undefined;
      },
      { what: 'the edited relationship' },
    );

    await page.getByRole('button', { name: 'Delete relationship' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this relationship?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.waitForURL(/\/relationships$/);
    expect((await signedIn.server.call('GET', `/edges/${id}`, { cookie: signedIn.cookie })).status).toBe(404);
    expect((await edgeIds()).length).toBe(1);
  });
});
