import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { captureScreen, eventually, openBrowser, testTimeout, viewports, type Session } from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

interface Node {
  id: string;
  label: string;
  template_id: string;
  properties: Record<string, unknown>;
  edge_count: number;
  citation_count: number;
}

const documents = [
  [
    'lighthouse.txt',
    'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway. Miriam Holloway was born in Plymouth. The Kestrel Point lighthouse stands in Cornwall.',
  ],
  [
    'orchard.txt',
    'The Bramblewood orchard was planted by Thomas Ashdown in Kent in 1902. Thomas Ashdown was born in Canterbury. Miriam Holloway visited the Bramblewood orchard.',
  ],
  [
    'mill.txt',
    'The Woodbridge tide mill stands on the river Deben in Suffolk. The Woodbridge Tide Mill Trust restored the mill in 1968. Thomas Ashdown admired the Woodbridge tide mill.',
  ],
] as const;

/**
 * The graph explorer and the entity page in a real browser against a pipeline-built database: find an
 * entity, walk and expand its neighbourhood, open a citation, edit a property past a validation error,
 * and merge two entities (read back through the API). Every screen is captured in both themes and sizes
 * and checked with axe.
 */
describe('web interface: the graph explorer and entity pages', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;
  let cookie: string;
  let landmark: Node;
  const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const result = await server.call(method, route, { cookie, body });
    expect(result.status, `${method} ${route}: ${result.text.slice(0, 300)}`).toBeLessThan(300);
    return result.body as T;
  };
  const drawer = () => page.getByTestId('node-drawer');
  /** Waits for the camera's flight to end (the canvas says so), so the next click does not land on a moving scene. */
  const cameraStill = () => page.locator('[data-testid="graph-canvas"][data-camera="still"]').waitFor();

  async function openEntityFromSearch(text: string, label: string): Promise<void> {
    const search = page.getByLabel('Find an entity', { exact: true }).first();
    await search.fill(text);
    await page.getByRole('option', { name: label, exact: true }).click();
    await page.getByTestId('neighbourhood').getByRole('heading', { name: label }).waitFor();
    await cameraStill();
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    for (const [name, content] of documents) {
      const uploaded = await uploadSources(server, cookie, '/sources', [{ name, content }], {
        auto_confirm: 'true',
        domain: 'biographical',
      });
      expect(uploaded.status, uploaded.text).toBe(202);
      const source = await waitForSource(
        server,
        cookie,
        (uploaded.body as { id: string }).id,
        ['committed', 'error'],
        90_000,
      );
      expect(source.status).toBe('committed');
    }
    const template = await api<{ id: string }>('POST', '/templates', {
      name: 'Landmark',
      template_type: 'node',
      color: '#c2255c',
      properties: [
        {
          name: 'code',
          display_name: 'Heritage code',
          property_type: 'string',
          validation_pattern: '^[A-Z]{3}$',
          description: 'Three capital letters',
        },
        { name: 'opened', display_name: 'Opened', property_type: 'integer' },
      ],
    });
    landmark = await api<Node>('POST', '/nodes', {
      template_id: template.id,
      label: 'Kestrel Point Heritage Site',
      properties: { opened: 1871 },
    });
    const [anchor] = (await api<{ data: Node[] }>('GET', '/nodes?page_size=1')).data;
    await api('POST', '/edges', {
      template_id: 'system_template_link',
      source_node_id: landmark.id,
      target_node_id: anchor.id,
      label: 'commemorates',
    });
    const neighbour = (await api<{ data: Node[] }>('GET', '/nodes?page_size=10')).data.find(
      (node) => node.id !== anchor.id && node.id !== landmark.id,
    )!;
    await api('POST', '/edges', {
      template_id: 'system_template_link',
      source_node_id: landmark.id,
      target_node_id: neighbour.id,
      label: 'stands_beside',
    });
    session = await openBrowser(server.url);
    page = session.page;
    const [name, ...value] = cookie.split('=');
    await session.context.addCookies([{ name, value: value.join('='), url: server.url }]);
    // The builtin extractor's offer of an agent is another test's subject; here it would push the canvas down.
    await session.context.addInitScript(() =>
      window.localStorage.setItem('rhizome:agent-extraction-offer-dismissed', 'test'),
    );
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('draws the graph with a legend, lays it out in a worker and keeps the positions', async () => {
    await page.goto('/graph');
    await page.getByTestId('graph-canvas').locator('canvas').first().waitFor();
    await page.getByTestId('graph-legend').getByText('Landmark').waitFor();
    // The first visit lays the graph out and saves every position in a batch; the next visit starts from them.
    await eventually(
      async () =>
        (await api<{ data: { position: unknown }[] }>('GET', '/nodes?minimal=true&page_size=1000')).data.every(
          (node) => node.position !== null,
        ),
      { interval: 500 },
    ).toBe(true);
    await page.getByRole('button', { name: 'Arrange again' }).waitFor();
    await captureScreen(page, 'graph', expectNoSidewaysScroll);
  });

  it('gives the canvas most of a phone screen, with the source filters one tap away', async () => {
    await page.setViewportSize(viewports.phone);
    try {
      const canvas = (await page.getByTestId('graph-canvas').boundingBox())!;
      const belowHeader = viewports.phone.height - 60;
      expect(canvas.height, 'canvas height on a phone').toBeGreaterThanOrEqual(belowHeader * 0.75);
      expect(canvas.width).toBeLessThanOrEqual(viewports.phone.width);
      const sources = page.getByRole('combobox', { name: 'Only entities from these sources' });
      await eventually(() => sources.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Sources' }).click();
      await sources.waitFor();
      await page.getByRole('button', { name: 'Sources' }).click();
      await sources.waitFor({ state: 'hidden' });
      // The zoom buttons sit on the canvas itself.
      const zoom = (await page.getByRole('button', { name: 'Zoom in' }).boundingBox())!;
      expect(zoom.y).toBeGreaterThanOrEqual(canvas.y);
      expect(zoom.x + zoom.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    } finally {
      await page.setViewportSize(viewports.desktop);
    }
  });

  it('leaves out the picking layer while the wheel zooms, and draws it again once the camera stops', async () => {
    // Counts the draws into the picking layer (sigma's offscreen framebuffer, the one with a depth buffer) and
    // onto the screen, by whether the canvas says its camera moves.
    await page.evaluate(`(() => {
      const counts = (window.__draws = { pickingMoving: 0, pickingStill: 0, screenMoving: 0 });
      const proto = WebGL2RenderingContext.prototype;
      const picking = new WeakSet();
      const attach = proto.framebufferRenderbuffer;
      proto.framebufferRenderbuffer = function (target, attachment, ...rest) {
        if (attachment === this.DEPTH_ATTACHMENT) picking.add(this.getParameter(this.FRAMEBUFFER_BINDING));
        return attach.call(this, target, attachment, ...rest);
      };
      for (const name of ['drawArrays', 'drawArraysInstanced', 'drawElements', 'drawElementsInstanced']) {
        const draw = proto[name];
        proto[name] = function (...args) {
          const target = this.getParameter(this.DRAW_FRAMEBUFFER_BINDING);
          const moving = document.querySelector('[data-testid="graph-canvas"]').dataset.camera === 'moving';
          if (picking.has(target)) counts[moving ? 'pickingMoving' : 'pickingStill'] += 1;
          else if (target === null && moving) counts.screenMoving += 1;
          return draw.apply(this, args);
        };
      }
    })()`);
    const box = (await page.getByTestId('graph-canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (const delta of [-120, -120, -120, 120, 120, 120]) {
      await page.mouse.wheel(0, delta);
      await page.waitForTimeout(40);
    }
    await cameraStill();
    type Draws = { pickingMoving: number; pickingStill: number; screenMoving: number };
    await eventually(() => page.evaluate<number>('window.__draws.pickingStill')).toBeGreaterThan(0);
    const draws = await page.evaluate<Draws>('window.__draws');
    expect(draws.screenMoving, 'frames drawn while zooming').toBeGreaterThan(0);
    expect(draws.pickingMoving, 'picking draws while zooming').toBe(0);
  });

  it('filters by type from the legend', async () => {
    const legend = page.getByTestId('graph-legend');
    await legend.getByRole('checkbox', { name: /Landmark/ }).uncheck();
    await legend.getByRole('button', { name: 'Show all' }).waitFor();
    await legend.getByRole('button', { name: 'Show all' }).click();
    await eventually(() => legend.getByRole('checkbox', { name: /Landmark/ }).isChecked()).toBe(true);
  });

  it('groups the entities by source in labelled discs, each collapsing to one and expanding again', async () => {
    // Two entities made in each source (its `source_id`): the canvas groups by the source an entity was made in.
    const { data: sources } = await api<{ data: { id: string }[] }>('GET', '/sources?page_size=10');
    expect(sources).toHaveLength(documents.length);
    for (const [index, source] of sources.entries())
      for (const copy of [1, 2])
        await api('POST', '/nodes', {
          template_id: landmark.template_id,
          label: `Note ${index + 1}.${copy}`,
          source_id: source.id,
          position: { x: index * 10, y: copy * 10 },
        });
    await page.goto('/graph');
    await page.waitForFunction(() => performance.getEntriesByName('graph:first-frame').length > 0);
    const canvas = page.getByTestId('graph-canvas');
    const layout = page.getByRole('combobox', { name: 'Layout' });
    await layout.click();
    await page.getByRole('option', { name: 'Grouped by source', exact: true }).click();
    await cameraStill();
    const labels = page.getByTestId('cluster-label');
    // One cluster per source, and the entities made by hand (the landmark) in one more.
    await eventually(() => labels.count()).toBe(documents.length + 1);
    expect(await page.getByTestId('cluster-halos').locator('circle').count()).toBe(documents.length + 1);
    const frame = (await canvas.boundingBox())!;
    for (const label of await labels.all()) {
      const box = (await label.boundingBox())!;
      expect(box.y, `${await label.innerText()} below the top of the canvas`).toBeGreaterThanOrEqual(frame.y);
      expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height);
      expect(box.x + box.width / 2).toBeGreaterThan(frame.x);
      expect(box.x + box.width / 2).toBeLessThan(frame.x + frame.width);
    }
    expect(await canvas.getAttribute('aria-label')).not.toContain('not drawn');

    const lighthouse = page.getByRole('button', { name: /lighthouse.*, \d+ entit(y|ies): collapse$/ });
    const members = Number(/, (\d+) entit/.exec((await lighthouse.getAttribute('aria-label'))!)![1]);
    await lighthouse.click();
    await page.getByRole('button', { name: /lighthouse.*: expand$/ }).waitFor();
    await eventually(() => canvas.getAttribute('aria-label')).toContain(`, ${members} of the entities not drawn`);
    await captureScreen(page, 'graph-clusters', expectNoSidewaysScroll);
    await page.getByRole('button', { name: /lighthouse.*: expand$/ }).click();
    await eventually(async () => (await canvas.getAttribute('aria-label'))?.includes('not drawn')).toBe(false);

    await layout.click();
    await page.getByRole('option', { name: 'Force', exact: true }).click();
    await eventually(() => labels.count()).toBe(0);
  });

  it('finds an entity by typing, lists its neighbourhood, expands it and finds a path', async () => {
    await openEntityFromSearch('Heritage', 'Kestrel Point Heritage Site');
    const neighbourhood = page.getByTestId('neighbourhood');
    await neighbourhood.getByText('commemorates').waitFor();
    // Relationship types read as words; the stored name stays in the tooltip.
    const standsBeside = neighbourhood.getByText('stands beside', { exact: true });
    expect(await standsBeside.getAttribute('title')).toBe('stands_beside');
    expect(await neighbourhood.innerText()).not.toMatch(/[a-z]_[a-z]/i);
    await neighbourhood.getByRole('button', { name: 'Expand neighbours' }).click();
    await page.getByText('Neighbours added').waitFor();
    // Walk by keyboard through the text alternative: the neighbour becomes the selection.
    // Its first button is the neighbour's name; the edit and delete buttons follow.
    const neighbour = neighbourhood.getByRole('listitem').first().getByRole('button').first();
    const neighbourLabel = (await neighbour.innerText()).trim();
    await neighbour.focus();
    await page.keyboard.press('Enter');
    await neighbourhood.getByRole('heading', { name: neighbourLabel }).waitFor();
    await cameraStill();
    await page.getByLabel('Path to', { exact: true }).first().fill('Heritage');
    await page.getByRole('option', { name: 'Kestrel Point Heritage Site' }).click();
    await page.getByTestId('path').getByRole('button', { name: 'Kestrel Point Heritage Site' }).waitFor();
    await cameraStill();
    await captureScreen(page, 'graph-path', expectNoSidewaysScroll);
  });

  it('highlights the entities a link names, as Search and chat answers link them', async () => {
    await page.goto(`/graph?highlight=${landmark.id}`);
    await page.getByText('1 highlighted entity').waitFor();
    await page.getByRole('button', { name: 'Clear the highlight' }).click();
    await page.getByText('1 highlighted entity').waitFor({ state: 'hidden' });
  });

  it('opens the entity page and a citation in the passage viewer', async () => {
    const [cited] = (await api<{ data: Node[] }>('GET', '/nodes?include_stats=true&page_size=1000')).data
      .filter((node) => node.citation_count > 0)
      .sort((a, b) => b.citation_count - a.citation_count);
    await page.goto(`/graph?node=${cited.id}`);
    await cameraStill();
    await page.getByTestId('neighbourhood').getByRole('button', { name: 'Open details' }).click();
    // The entity shows first, its citations when they arrive.
    await drawer().getByTestId('node-details').waitFor();
    await drawer().getByRole('heading', { name: 'Cited in' }).waitFor();
    await drawer().getByRole('heading', { name: 'Sources' }).waitFor();
    // Extraction leaves properties the type does not define: they get a heading of their own, above them.
    const others = drawer().getByRole('heading', { name: 'Other properties' });
    const firstOther = drawer().getByRole('table', { name: 'Other properties' }).locator('th').first();
    expect((await others.boundingBox())!.y).toBeLessThan((await firstOther.boundingBox())!.y);
    expect(await drawer().getByTestId('node-relationships').innerText()).not.toMatch(/[a-z]_[a-z]/i);
    expect(await drawer().getByTestId('node-details').innerText()).not.toMatch(/\b1 (relationships|citations)\b/);
    await captureScreen(page, 'entity-page', expectNoSidewaysScroll);
    await drawer().getByTestId('node-citation').first().click();
    await page.getByTestId('passage-viewer').waitFor();
    await captureScreen(page, 'entity-citation');
    await page.keyboard.press('Escape');
  });

  it('edits a property: the validation error shows at the field, then the fix is saved', async () => {
    await page.goto(`/graph?node=${landmark.id}`);
    await page.getByTestId('neighbourhood').getByRole('button', { name: 'Open details' }).click();
    await drawer().getByText('stands beside →').waitFor();
    // Every property of this entity is one its type defines: no heading for an empty "other" part.
    expect(await drawer().getByText('Other properties').count()).toBe(0);
    const code = drawer().getByRole('textbox', { name: /Heritage code/ });
    await code.fill('abc');
    await drawer().getByRole('button', { name: 'Save properties' }).click();
    await drawer()
      .getByText(/Heritage code|code/, { exact: false })
      .first()
      .waitFor();
    await eventually(() => code.getAttribute('aria-invalid')).toBe('true');
    await captureScreen(page, 'entity-property-error', expectNoSidewaysScroll);
    expect((await api<Node>('GET', `/nodes/${landmark.id}`)).properties.code).toBeUndefined();
    await code.fill('KPH');
    await drawer().getByRole('button', { name: 'Save properties' }).click();
    await page.getByText('Properties saved.').waitFor();
    expect((await api<Node>('GET', `/nodes/${landmark.id}`)).properties).toMatchObject({ code: 'KPH', opened: 1871 });
  });

  it('merges two entities: edges and citations move to the one kept', async () => {
    const nodes = (await api<{ data: Node[] }>('GET', '/nodes?include_stats=true&page_size=1000')).data.filter(
      (node) => node.citation_count > 0 && node.edge_count > 0 && node.id !== landmark.id,
    );
    const [kept, merged] = nodes.sort((a, b) => a.label.localeCompare(b.label));
    // A merge leaves one citation per passage: the kept node's and the duplicate's from one chunk become one.
    const passagesCited = async (id: string) =>
      (
        await api<{ data: { source: { id: string }; chunk: { id: string } | null }[] }>(
          'GET',
          `/nodes/${id}/citations?page_size=100`,
        )
      ).data.map((citation) => `${citation.source.id}/${citation.chunk?.id ?? ''}`);
    const keptPassages = await passagesCited(kept.id);
    const mergedConnections = (
      await api<{ data: { id: string }[] }>('GET', `/nodes/${merged.id}/connections?page_size=1000`)
    ).data
      .map((item) => item.id)
      .filter((id) => id !== kept.id);
    const mergedPassages = await passagesCited(merged.id);

    await page.goto(`/graph?node=${kept.id}`);
    await page.getByTestId('neighbourhood').getByRole('button', { name: 'Open details' }).click();
    await drawer().getByRole('button', { name: 'Merge' }).click();
    const dialog = page.getByRole('dialog', { name: `Merge into ${kept.label}` });
    await dialog.getByLabel('Duplicate entity', { exact: true }).first().fill(merged.label.split(/\s+/)[0]);
    await page
      .getByRole('option', { name: new RegExp(`^${merged.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) })
      .click();
    await captureScreen(page, 'entity-merge', expectNoSidewaysScroll);
    // The test holds the page's clock, so the notice stays on screen until it has been looked at.
    await page.clock.install();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    try {
      await dialog.getByRole('button', { name: `Merge into ${kept.label}` }).click();
      const notice = page.locator('.mantine-Notification-root', { hasText: 'Merged.' });
      await notice.waitFor();
      await page.clock.runFor(300);
      await dialog.waitFor({ state: 'hidden' });
      // Above the drawer it was done in, not hidden beneath it.
      expect(
        await notice.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        }),
      ).toBe(true);
      await drawer().waitFor();
    } finally {
      await page.clock.resume();
    }

    expect((await server.call('GET', `/nodes/${merged.id}`, { cookie })).status).toBe(404);
    const after = await api<Node>('GET', `/nodes/${kept.id}`);
    expect(after.properties.aliases).toContain(merged.label);
    const passages = await passagesCited(kept.id);
    expect(after.citation_count).toBe(new Set([...keptPassages, ...mergedPassages]).size);
    expect(passages.sort()).toEqual([...new Set([...keptPassages, ...mergedPassages])].sort());
    const connections = (
      await api<{ data: { id: string }[] }>('GET', `/nodes/${kept.id}/connections?page_size=1000`)
    ).data.map((item) => item.id);
    expect(connections).toEqual(expect.arrayContaining(mergedConnections));
    // The open page shows the merged name as an alias.
    await drawer().getByText(merged.label).first().waitFor();
  });
});
