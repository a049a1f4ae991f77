import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  captureScreen,
  eventually,
  expectAccessible,
  screenshotDir,
  testTimeout,
  useSignedInBrowser,
} from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

const password = 'correct horse battery';

interface Node {
  id: string;
  label: string;
  template_id: string;
  position: { x: number; y: number } | null;
}
interface Edge {
  id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  properties: Record<string, unknown>;
}

/**
 * Editing on the graph canvas in a real browser: an entity created from the canvas menu and linked to another
 * by keyboard, the shortcuts sheet, the header's menus beside the canvas's (account, colour scheme), a
 * relationship edited (by its template's types) and deleted from its own menu on the canvas, and every
 * layout. Each result is read back through the API.
 *
 * The entities are placed by hand so that nothing is laid out and the picture is known: Ada (0, 50) and
 * Charles (100, 50) with their relationship across the middle of the canvas, the Engine below, the Society
 * above; the upper right quarter is empty.
 */
describe('web interface: editing on the graph canvas', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await signedIn.server.call(method, path, { cookie: signedIn.cookie, body });
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body as T;
  };
  const nodes = async () => (await api<{ data: Node[] }>('GET', '/nodes?page_size=100')).data;
  const edges = async () => (await api<{ data: Edge[] }>('GET', '/edges?page_size=100')).data;
  const nodeNamed = async (label: string) => (await nodes()).find((node) => node.label === label);
  const ids: Record<string, string> = {};
  let page: Page;

  const canvas = () => page.getByTestId('graph-canvas');
  const canvasBox = async () => (await canvas().boundingBox())!;
  const announcement = () => page.getByTestId('selection-announcement');
  const menu = () => page.getByTestId('canvas-menu');

  async function openGraph(): Promise<void> {
    await page.goto('/graph');
    await page.waitForFunction(() => performance.getEntriesByName('graph:first-frame').length > 0);
    await page.locator('[data-testid="graph-canvas"][data-camera="still"]').waitFor();
    // The shell's notice about the builtin model is another test's subject; it goes for the session.
    const notice = page.getByTestId('banner-builtin');
    if (await notice.isVisible())
      await notice.getByRole('button', { name: 'Hide this notice for the session' }).click();
  }

  /** Selects an entity through the toolbar's search, then hands the focus to the canvas. */
  async function selectByName(text: string, label: string): Promise<void> {
    await page.getByLabel('Find an entity', { exact: true }).first().fill(text);
    await page.getByRole('option', { name: label, exact: true }).click();
    await eventually(() => announcement().textContent()).toContain(`Selected ${label}`);
    await page.locator('[data-testid="graph-canvas"][data-camera="still"]').waitFor();
    await canvas().focus();
  }

  beforeAll(async () => {
    page = signedIn.page;
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'detached' });
    const place = async (key: string, body: Record<string, unknown>) => {
      ids[key] = (await api<Node>('POST', '/nodes', body)).id;
    };
    await place('ada', { template_id: 'system_template_person', label: 'Ada Lovelace', position: { x: 0, y: 50 } });
    await place('charles', {
      template_id: 'system_template_person',
      label: 'Charles Babbage',
      position: { x: 100, y: 50 },
    });
    await place('engine', {
      template_id: 'system_template_organization',
      label: 'Analytical Engine Works',
      position: { x: 50, y: 0 },
    });
    await place('society', {
      template_id: 'system_template_organization',
      label: 'Royal Society',
      position: { x: 50, y: 100 },
    });
    const corresponded = await api<{ id: string }>('POST', '/templates', {
      name: 'Corresponded',
      template_type: 'edge',
      properties: [{ name: 'since', display_name: 'Since', property_type: 'integer' }],
    });
    ids.corresponded = corresponded.id;
    const link = (source: string, target: string, label: string, template = 'system_template_link') =>
      api<Edge>('POST', '/edges', {
        template_id: template,
        source_node_id: ids[source],
        target_node_id: ids[target],
        label,
      });
    ids.letters = (await link('ada', 'charles', 'wrote_to', corresponded.id)).id;
    await link('charles', 'engine', 'founded');
    await link('ada', 'society', 'addressed');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    // The builtin extractor's offer of an agent is another test's subject; here it would only sit above the canvas.
    await page.evaluate(() => window.localStorage.setItem('rhizome:agent-extraction-offer-dismissed', 'test'));
  }, testTimeout);

  it('creates an entity in the middle of the view from the canvas menu and links it to another, by keyboard', async () => {
    const focusedItem = () => page.evaluate(() => document.activeElement?.textContent);
    await openGraph();
    await canvas().focus();
    await page.keyboard.press('Escape');
    await eventually(() => announcement().textContent()).toBe('');
    await page.keyboard.press('Shift+F10');
    await menu().getByRole('menuitem', { name: 'Create entity here' }).waitFor();
    // A menu opens with its first item focused, as menus do (once it has opened: wait for it).
    await eventually(focusedItem).toBe('Create entity here');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New entity here' });
    await dialog.waitFor();
    // Keys go to the dialog once its focus trap has moved the focus in (a moment after it shows).
    await eventually(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.type('Organization');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Difference Engine Club');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const club = await nodeNamed('Difference Engine Club');
    expect(club?.template_id).toBe('system_template_organization');
    expect(club?.position, 'placed in the middle of the view').not.toBeNull();
    // The view is on the placed entities: its middle lies among them.
    expect(club!.position!.x).toBeGreaterThan(0);
    expect(club!.position!.x).toBeLessThan(100);
    expect(club!.position!.y).toBeGreaterThan(0);
    expect(club!.position!.y).toBeLessThan(100);

    // The new entity is selected, the focus back on the canvas: its menu, then "Link from here".
    await eventually(() => announcement().textContent()).toContain('Selected Difference Engine Club');
    await page.keyboard.press('Enter');
    await menu().getByRole('menuitem', { name: 'Link from here' }).waitFor();
    await expectAccessible(page, 'canvas menu of an entity');
    await eventually(focusedItem).toBe('Edit');
    await page.keyboard.press('ArrowDown');
    await eventually(focusedItem).toBe('Link from here');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Linking from').waitFor();
    await captureScreen(page, 'graph-linking');
    // The target is walked to with the arrow keys (up, off the line from Ada to Charles that a later test
    // right-clicks); Enter ends the link there.
    await page.keyboard.press('ArrowUp');
    await eventually(() => announcement().textContent()).toContain('Enter links Difference Engine Club to it.');
    const target = /^Selected (.+?), /.exec((await announcement().textContent()) ?? '')![1];
    await page.keyboard.press('Enter');
    const link = page.getByRole('dialog', { name: 'Link Difference Engine Club to…' });
    await link.getByText(`To ${target}`).waitFor();
    // The form takes Enter once it shows a relationship type (until then its Link button is disabled, and an
    // Enter does nothing) and its name field has the focus. The types are read with the canvas, well before.
    await eventually(() => link.getByRole('combobox', { name: 'Relationship type' }).inputValue()).toBe('Link');
    const relationship = link.getByRole('textbox', { name: 'Relationship' });
    await eventually(() => relationship.evaluate((field) => field === document.activeElement)).toBe(true);
    await page.keyboard.type('meets_at');
    await eventually(() => relationship.inputValue()).toBe('meets_at');
    await page.keyboard.press('Enter');
    await link.waitFor({ state: 'detached' });
    const targetNode = await nodeNamed(target);
    expect(
      (await edges()).some(
        (edge) =>
          edge.source_node_id === club!.id && edge.target_node_id === targetNode?.id && edge.label === 'meets_at',
      ),
      `an edge from the club to ${target}`,
    ).toBe(true);
  });

  it('lists the shortcuts on ?', async () => {
    await canvas().focus();
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Canvas shortcuts' });
    await sheet.getByRole('cell', { name: 'Duplicate the selected entity' }).waitFor();
    await captureScreen(page, 'graph-shortcuts');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });

  it("opens the header's account menu as the canvas's: the first item focused, nothing but items in it", async () => {
    await page.getByRole('button', { name: /^Account / }).click();
    const open = page.getByRole('menu');
    await open.waitFor();
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
    // Mantine's focus placeholder (a presentation child that would take the first focus) is left out.
    expect(await open.locator(':scope > [role="presentation"]').count()).toBe(0);
    await expectAccessible(page, 'account menu');
    await page.keyboard.press('Escape');
    await open.waitFor({ state: 'detached' });
  });

  it("offers the header's colour schemes as one group of radio items, the current one checked", async () => {
    const trigger = page.getByRole('button', { name: 'Colour scheme' });
    await trigger.click();
    const open = page.getByRole('menu');
    const group = open.getByRole('group', { name: 'Colour scheme' });
    await group.waitFor();
    const choices = group.getByRole('menuitemradio');
    await eventually(() => choices.allTextContents()).toEqual(['Light', 'Dark', 'Follow the system']);
    const checked = () => open.locator('[role="menuitemradio"][aria-checked="true"]').allTextContents();
    await eventually(checked).toEqual(['Follow the system']);
    expect(await open.getByRole('menuitem').count(), 'no plain items').toBe(0);
    await expectAccessible(page, 'colour scheme menu');
    await page.screenshot({ path: path.join(screenshotDir, 'colour-scheme-menu-desktop-light.png') });
    // By keyboard: the first item has the focus; Enter picks it and closes the menu.
    await eventually(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Light');
    await page.keyboard.press('Enter');
    await open.waitFor({ state: 'detached' });
    await trigger.click();
    await eventually(checked).toEqual(['Light']);
    await expectAccessible(page, 'colour scheme menu, light chosen');
    await group.getByRole('menuitemradio', { name: 'Follow the system' }).click();
    await open.waitFor({ state: 'detached' });
    await trigger.click();
    await eventually(checked).toEqual(['Follow the system']);
    await page.keyboard.press('Escape');
    await open.waitFor({ state: 'detached' });
  });

  it("edits a relationship by its template's types, then deletes it from its menu on the canvas", async () => {
    await openGraph();
    await page.keyboard.press('Escape');
    await selectByName('Ada', 'Ada Lovelace');
    await page
      .getByTestId('neighbourhood')
      .getByRole('button', { name: 'Edit the relationship wrote to Charles Babbage' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Ada Lovelace wrote to Charles Babbage' });
    await dialog.getByRole('textbox', { name: 'Relationship' }).fill('corresponded_with');
    await dialog.getByRole('textbox', { name: 'Since' }).fill('1842');
    await dialog.getByRole('button', { name: 'Save relationship' }).click();
    await dialog.waitFor({ state: 'detached' });
    const edited = (await edges()).find((edge) => edge.id === ids.letters);
    expect(edited).toMatchObject({ label: 'corresponded_with', properties: { since: 1842 } });

    // The relationship crosses the middle of the canvas: right-click it there.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Show everything' }).click();
    await page.locator('[data-testid="graph-canvas"][data-camera="still"]').waitFor();
    const box = await canvasBox();
    // Beside the club (50, 50), still on the line from Ada to Charles.
    await page.mouse.click(box.x + box.width / 2 - box.height * 0.15, box.y + box.height / 2, { button: 'right' });
    await menu().getByRole('menuitem', { name: 'Delete relationship' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this relationship?' });
    await confirm.getByText('Ada Lovelace corresponded with Charles Babbage').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await edges()).some((edge) => edge.id === ids.letters)).toBe(false);
  });

  it('switches between every layout without saving them, remembers the choice, and collapses a source cluster', async () => {
    await openGraph();
    const before = new Map((await nodes()).map((node) => [node.id, node.position]));
    const choice = page.getByRole('combobox', { name: 'Layout' });
    for (const layout of ['Hierarchical', 'Radial', 'Circular', 'Grid', 'Grouped by source', 'Force']) {
      await choice.click();
      await page.getByRole('option', { name: layout, exact: true }).click();
      await eventually(() => choice.inputValue()).toBe(layout);
      await page.locator('[data-testid="graph-canvas"][data-camera="still"]').waitFor();
    }
    const after = new Map((await nodes()).map((node) => [node.id, node.position]));
    expect(after, 'computed layouts are not saved').toEqual(before);

    await choice.click();
    await page.getByRole('option', { name: 'Grouped by source', exact: true }).click();
    const cluster = page.getByRole('button', { name: /^Made by hand, \d+ entities: collapse$/ });
    await cluster.waitFor();
    await captureScreen(page, 'graph-layout-sources', expectNoSidewaysScroll);
    await cluster.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /^Made by hand, \d+ entities: expand$/ }).waitFor();
    await expect(page.getByRole('button', { name: /Made by hand/ }).getAttribute('aria-expanded')).resolves.toBe(
      'false',
    );
    // A collapsed cluster's entities are not walked to.
    await canvas().focus();
    await page.keyboard.press('ArrowRight');
    await eventually(() => announcement().textContent()).toBe('');

    await page.getByRole('switch', { name: 'Labels' }).uncheck();
    await page.reload();
    await page.waitForFunction(() => performance.getEntriesByName('graph:first-frame').length > 0);
    await eventually(() => page.getByRole('combobox', { name: 'Layout' }).inputValue()).toBe('Grouped by source');
    expect(await page.getByRole('switch', { name: 'Labels' }).isChecked()).toBe(false);
    await page.getByRole('switch', { name: 'Labels' }).check();
    await page.getByRole('combobox', { name: 'Layout' }).click();
    await page.getByRole('option', { name: 'Force', exact: true }).click();
  });
});
