import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import {
  captureScreen,
  eventually,
  openBrowser,
  testTimeout,
  viewports,
  type Session,
  signInAt,
} from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

const password = 'correct horse battery';
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

interface Template {
  id: string;
  name: string;
  properties: {
    name: string;
    required: boolean;
    enum_values: string[] | null;
    validation_pattern: string | null;
    default_value: unknown;
  }[];
}

/** Templates: create one with a required enum and a pattern (and the API's validation error), edit it, delete one in use. */
describe('web interface: templates', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;
  let cookie: string;

  const templatesNamed = async (name: string) =>
    ((await server.call('GET', '/templates?page_size=1000', { cookie })).body as { data: Template[] }).data.filter(
      (template) => template.name === name,
    );

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server, 'operator', password);
    // Named the way extraction names the types it finds.
    const extracted = await server.call('POST', '/templates', {
      cookie,
      body: { name: 'works_at', template_type: 'edge' },
    });
    expect(extracted.status, extracted.text).toBe(201);
    session = await openBrowser(server.url);
    page = session.page;
    await signInAt(page, '/templates', password);
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('lists the templates with how many nodes use each', async () => {
    const item = await server.call('POST', '/nodes', {
      cookie,
      body: { template_id: 'system_template_person', label: 'Ada Lovelace' },
    });
    expect(item.status, item.text).toBe(201);
    // The list was read at sign-in, before this node: a node's creation is not on the change stream.
    await page.reload();
    await page.getByRole('heading', { name: 'Templates' }).waitFor();
    const person = page.locator('tr[data-template-id="system_template_person"]');
    await eventually(() => person.getByTestId('template-usage').innerText()).toBe('1 node');
    await captureScreen(page, 'templates', expectNoSidewaysScroll);
    // On a phone the counts move under the name instead of needing columns of their own.
    await page.setViewportSize(viewports.phone);
    try {
      await person.getByText('No properties · used by 1 node').waitFor();
      expect(await person.getByTestId('template-usage').isVisible()).toBe(false);
    } finally {
      await page.setViewportSize(viewports.desktop);
    }
    await page.getByText('Edge types', { exact: true }).click();
    const worksAt = page.getByRole('link', { name: 'Works at', exact: true });
    expect(await worksAt.getAttribute('title')).toBe('works_at');
    await page
      .locator('tr[data-template-id="system_template_link"]')
      .getByTestId('template-usage')
      .getByText('0 edges')
      .waitFor();
  });

  it('creates a template with a required enum and a pattern, showing the API’s validation error until it is fixed', async () => {
    await nav(page, 'Templates').click();
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { name: 'New template' }).waitFor();
    // A new template can still choose its kind: the choice is live, not greyed out.
    expect(await page.getByRole('radio', { name: 'Edge type' }).isEnabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Vessel');
    await page.getByText('Node type', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Colour', exact: true }).fill('#0891b2');
    await page.getByRole('combobox', { name: 'Icon' }).click();
    await page.getByRole('option', { name: 'flag' }).click();
    await captureScreen(page, 'template-new', expectNoSidewaysScroll);

    await page.getByRole('button', { name: 'Add a property' }).click();
    await page
      .getByRole('region', { name: 'Property 1' })
      .getByRole('textbox', { name: 'Display name' })
      .fill('Status');
    const status = page.getByRole('region', { name: 'Property Status' });
    await status.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: /One of a list/ }).click();
    const values = status.getByRole('combobox', { name: 'Allowed values' });
    for (const value of ['active', 'retired']) {
      await values.fill(value);
      await values.press('Enter');
    }
    await status.getByRole('switch', { name: /Required when creating/ }).check({ force: true });

    await page.getByRole('button', { name: 'Add a property' }).click();
    await page
      .getByRole('region', { name: 'Property 2' })
      .getByRole('textbox', { name: 'Display name' })
      .fill('Hull code');
    const hull = page.getByRole('region', { name: 'Property Hull code' });
    expect(await hull.getByRole('textbox', { name: 'Key' }).inputValue()).toBe('hull_code');
    await hull.getByRole('textbox', { name: 'Validation pattern' }).fill('^[A-Z]{3}-\\d+$');
    await hull.getByRole('textbox', { name: 'Default value' }).fill('abc-1');

    await page.getByRole('button', { name: 'Create template' }).first().click();
    await page.getByRole('alert').getByText('The template was not saved').waitFor();
    await hull.getByText(/does not match the pattern/).waitFor();
    expect(await templatesNamed('Vessel')).toEqual([]);
    await captureScreen(page, 'template-validation', expectNoSidewaysScroll);

    await hull.getByRole('textbox', { name: 'Default value' }).fill('ABC-1');
    await page.getByRole('button', { name: 'Create template' }).first().click();
    await page.getByRole('heading', { name: 'Vessel' }).waitFor();
    const [created] = await templatesNamed('Vessel');
    expect(created).toMatchObject({ template_type: 'node', color: '#0891b2', icon: 'flag' });
    expect(created.properties).toMatchObject([
      { name: 'status', required: true, enum_values: ['active', 'retired'], validation_pattern: null },
      { name: 'hull_code', required: false, validation_pattern: '^[A-Z]{3}-\\d+$', default_value: 'ABC-1' },
    ]);
    // Once it exists its kind is fixed, and the editor says so rather than showing a disabled switch.
    expect(await page.getByRole('radio', { name: 'Node type' }).count()).toBe(0);
    expect(await page.getByTestId('template-kind').innerText()).toBe('Node type');
    await page.getByText(/^Fixed once the template exists/).waitFor();
    await captureScreen(page, 'template-editor', expectNoSidewaysScroll);
  });

  it('edits the template and saves the changed definitions', async () => {
    const status = page.getByRole('region', { name: 'Property Status' });
    const values = status.getByRole('combobox', { name: 'Allowed values' });
    await values.fill('in refit');
    await values.press('Enter');
    await status.getByRole('combobox', { name: 'Default value' }).click();
    await page.getByRole('option', { name: 'in refit' }).click();
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await page.getByText('The template “Vessel” is saved.').waitFor();
    const [saved] = await templatesNamed('Vessel');
    expect(saved.properties[0]).toMatchObject({
      enum_values: ['active', 'retired', 'in refit'],
      default_value: 'in refit',
    });
  });

  it('asks before deleting a template in use, saying how many nodes go with it', async () => {
    const [vessel] = await templatesNamed('Vessel');
    for (const label of ['Kestrel', 'Osprey']) {
      const node = await server.call('POST', '/nodes', {
        cookie,
        body: { template_id: vessel.id, label, properties: { status: 'active' } },
      });
      expect(node.status, node.text).toBe(201);
    }
    await nav(page, 'Templates').click();
    const row = page.locator(`tr[data-template-id="${vessel.id}"]`);
    await eventually(() => row.getByTestId('template-usage').innerText()).toBe('2 nodes');
    await row.getByRole('button', { name: 'Delete Vessel' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByText('In use by 2 nodes').waitFor();
    await captureScreen(page, 'template-delete-in-use', expectNoSidewaysScroll);
    expect(await templatesNamed('Vessel')).toHaveLength(1);
    await dialog.getByRole('button', { name: 'Delete the template and 2 nodes' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await templatesNamed('Vessel')).toEqual([]);
    const nodes = (await server.call('GET', `/nodes?template_id=${vessel.id}`, { cookie })).body as {
      pagination: { total: number };
    };
    expect(nodes.pagination.total).toBe(0);
  });
});
