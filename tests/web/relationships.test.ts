import { describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

interface Edge {
  id: string;
  template_id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  properties: Record<string, unknown>;
}

/**
 * The relationships list and page: three of five deleted at once, one edited by its template's types, then
 * deleted; the list filtered by type; a relationship created from the list; a relationship's evidence.
 */
describe('web interface: relationships', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await signedIn.server.call(method, path, { cookie: signedIn.cookie, body });
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body as T;
  };
  const edgeIds = async () => (await api<{ data: Edge[] }>('GET', '/edges?page_size=100')).data;
  const node = (label: string) =>
    api<{ id: string }>('POST', '/nodes', {
      template_id: 'system_template_item',
      label,
      properties: { definition: `The ${label}` },
    });
  const linked = (from: string, to: string, label: string) =>
    api<Edge>('POST', '/edges', {
      template_id: 'system_template_link',
      source_node_id: from,
      target_node_id: to,
      label,
    });

  it('bulk-deletes three relationships and edits and deletes another on its page', async () => {
    const { page } = signedIn;
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'detached' });
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

  it('filters the list by relationship type, offering the types in use', async () => {
    const { page } = signedIn;
    const [mill, wheel, race] = [await node('Mill House'), await node('Water Wheel'), await node('Mill Race')];
    await linked(wheel.id, mill.id, 'powers');
    await linked(race.id, wheel.id, 'powers');
    await linked(mill.id, race.id, 'drains_into');

    await page.goto('/relationships');
    await page.getByRole('checkbox', { name: 'Select Mill House Drains into Mill Race' }).waitFor();
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Powers (2)' }).click();
    await until(
      async () => {
        const shown = await page.getByRole('checkbox', { name: /^Select (?!every)/ }).count();
        const drains = await page.getByRole('checkbox', { name: 'Select Mill House Drains into Mill Race' }).count();
        return shown === 2 && drains === 0 ? true : undefined;
      },
      { what: 'only the two Powers relationships' },
    );
    await page.getByRole('checkbox', { name: 'Select Water Wheel Powers Mill House' }).waitFor();
    await page.getByRole('checkbox', { name: 'Select Mill Race Powers Water Wheel' }).waitFor();
    await page.getByText('2 relationships', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('type')).toBe('powers');
    await captureScreen(page, 'relationships-by-type');
    const listed = (await api<{ data: Edge[] }>('GET', '/edges?label=powers')).data;
    expect(listed.map((edge) => edge.label)).toEqual(['powers', 'powers']);
  });

  it('creates a relationship from the list, both ends picked by name and its properties by its type', async () => {
    const { page } = signedIn;
    const [wren, puffin] = [await node('Wren Lantern'), await node('Puffin Isle')];
    const watches = await api<{ id: string }>('POST', '/templates', {
      name: 'Keeps watch over',
      template_type: 'edge',
      properties: [{ name: 'since', display_name: 'Since', property_type: 'integer' }],
    });

    await page.goto('/relationships');
    await page.getByRole('button', { name: 'New relationship' }).click();
    const dialog = page.getByRole('dialog', { name: 'New relationship' });
    await dialog.getByRole('combobox', { name: 'From entity' }).fill('Wren');
    await page.getByRole('option', { name: 'Wren Lantern' }).click();
    await dialog.getByRole('combobox', { name: 'To entity' }).fill('Puffin');
    await page.getByRole('option', { name: 'Puffin Isle' }).click();
    await dialog.getByRole('combobox', { name: 'Relationship type' }).click();
    await page.getByRole('option', { name: 'Keeps watch over' }).click();
    await dialog.getByRole('textbox', { name: 'Relationship', exact: true }).fill('watches_over');
    await dialog.getByRole('textbox', { name: 'Since' }).fill('1901');
    await captureScreen(page, 'relationship-new');
    await dialog.getByRole('button', { name: 'Create relationship' }).click();
    await page.waitForURL(/\/relationships\/[^/]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    expect(await api<Edge>('GET', `/edges/${id}`)).toMatchObject({
      template_id: watches.id,
      source_node_id: wren.id,
      target_node_id: puffin.id,
      label: 'watches_over',
      properties: { since: 1901 },
    });
    await page.getByRole('heading', { name: 'Wren Lantern Watches over Puffin Isle' }).waitFor();
  });

  it("shows a relationship's evidence: the sentences stating it, opening their passage, and their source", async () => {
    const { page } = signedIn;
    const text = 'Grace Darling lived at the Longstone Lighthouse with William Darling.';
    const accepted = await uploadSources(
      signedIn.server,
      signedIn.cookie,
      '/sources',
      [{ name: 'darling.txt', content: text }],
      { auto_confirm: 'true', domain: 'biographical' },
    );
    expect(accepted.status, accepted.text).toBe(202);
    const sourceId = (accepted.body as SourceResponseBody).id;
    const source = await waitForSource(signedIn.server, signedIn.cookie, sourceId, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    const [stated] = (await api<{ data: Edge[] }>('GET', `/edges?source_ids=${sourceId}`)).data;
    const [cited] = (await api<{ data: { context_snippet: string }[] }>('GET', `/edges/${stated.id}/citations`)).data;

    await page.goto(`/relationships/${encodeURIComponent(stated.id)}`);
    const evidence = page.getByRole('region', { name: 'Evidence' });
    await evidence.getByRole('link', { name: 'darling.txt' }).waitFor();
    expect(await evidence.getByRole('link', { name: 'darling.txt' }).getAttribute('href')).toBe(`/sources/${sourceId}`);
    const sentence = evidence.getByRole('button', {
      name: new RegExp(cited.context_snippet.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    });
    await sentence.waitFor();
    await captureScreen(page, 'relationship-evidence');
    await sentence.click();
    const passage = page.getByRole('dialog', { name: 'Passage' });
    await passage.getByText('Longstone Lighthouse', { exact: false }).first().waitFor();

    const made = await linked(stated.target_node_id, stated.source_node_id, 'admired');
    await page.goto(`/relationships/${encodeURIComponent(made.id)}`);
    await page.getByText('No source states this relationship', { exact: false }).waitFor();
  });
});
